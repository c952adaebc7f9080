#!/bin/sh
# Says which test target each Swift test file belongs in, by what it does:
#   EndToEndTests  it starts a process (widget-host, a child, cc, swift, tmux,
#                  a browser) or uses a helper that does;
#   UnitTests      everything else: it runs inside the test process.
# Usage: tools/test-kind.sh FILE...   (prints "TARGET FILE" a line)
# docs/testing.md says where tests go; TestPlacementTests holds Tests/UnitTests
# to these markers, which it reads from this line.
markers='runHost\(|SpawnedProcess|Tmux|compileC\(|compileHello\(|swiftBuild\(|ChildProcess\.(run|output|start)|TestSupport\.widgetHost|CryptoHost|DashboardWorld|IsolationTestKit|ViewsFixture|ViewsTerminal|TripsWorld|IsolatedLauncher|chromium|Selenium|OutOfTreeSwiftPluginTests\.run|WebPageTests\.Served'
for file in "$@"; do
    if grep -qE "$markers" "$file"; then echo "EndToEndTests $file"; else echo "UnitTests $file"; fi
done

#!/bin/sh
# The moves of the test split, replayable over a tree with more test files:
# helpers to Tests/TestSupport, everything else to EndToEndTests, then each
# file tools/test-kind.sh calls a unit test to Tests/UnitTests.
set -e
cd "$(git rev-parse --show-toplevel)"
git mv Tests/WidgetHostTests/Support Tests/TestSupport
git mv Tests/WidgetHostTests/UnitFixtures.swift Tests/WidgetHostTests/TripsTestKit.swift Tests/TestSupport/
git mv Tests/WidgetHostTests Tests/EndToEndTests
mkdir -p Tests/UnitTests
tools/test-kind.sh Tests/EndToEndTests/*.swift | while read -r target file; do
    [ "$target" = UnitTests ] && git mv "$file" Tests/UnitTests/
done

import Glibc
import WidgetHostKit

// A global, so the CLI (its environment and discovery cache) is never torn
// down: `_exit` below ends the process without a teardown that costs a
// short command such as `list` more than a tenth of its own work.
let cli = WidgetHostCLI(environment: Environment.current)
let status = Console.finish(cli.run(Array(CommandLine.arguments.dropFirst())))
// Output is written unbuffered, so nothing is lost by skipping teardown; a
// widget's background thread must not race the runtime's exit handlers.
_exit(status)

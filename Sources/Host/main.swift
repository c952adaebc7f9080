import Glibc
import WidgetHostKit

let status = Console.finish(WidgetHostCLI(environment: Environment.current).run(Array(CommandLine.arguments.dropFirst())))
// Output is written unbuffered, so nothing is lost by skipping teardown; a
// widget's background thread must not race the runtime's exit handlers.
_exit(status)

import Foundation
import WidgetHostKit

exit(WidgetHostCLI(environment: ProcessInfo.processInfo.environment).run(Array(CommandLine.arguments.dropFirst())))

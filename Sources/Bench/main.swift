import Foundation
import WidgetHostKit

/// widget-host-bench: measures every hot path against its floor or a peer,
/// side by side in one run, and prints each figure with its ratio.
let arguments = Array(CommandLine.arguments.dropFirst())
if let mode = arguments.first, Children.modes.contains(mode) {
    // A measuring child ends without teardown: a widget's background thread
    // (Crypto starts a fetch on create) must not race the exit of the runtime.
    let status = Children.main(mode, Array(arguments.dropFirst()))
    fflush(nil)   // every output stream
    _exit(status)
}
if arguments.first == Instructions.childMode {
    exit(Instructions.child(Array(arguments.dropFirst())))
}
if arguments.first == PingPong.mode {
    exit(PingPong.serve(Array(arguments.dropFirst())))
}
if arguments.contains("-h") || arguments.contains("--help") {
    print("""
    widget-host-bench: measure the host's hot paths against their floors and peers.

    Usage: widget-host-bench [--quick] [--json] [--instructions]

    Every figure is the median of repeated runs.

    Options:
      --quick   tiny sizes and few repetitions: a smoke test, not a measurement
      --instructions  also count instructions per operation under callgrind
                (needs valgrind and objcopy), beside the wall-clock medians
      --json    print the rows as JSON
      -h, --help  show this help

    Build it in release first: swift build -c release && .build/release/widget-host-bench
    """)
    exit(0)
}
if let unknown = arguments.first(where: { !["--quick", "--json", "--instructions"].contains($0) }) {
    FileHandle.standardError.write(Data("widget-host-bench: unknown option \(unknown)\nTry 'widget-host-bench --help' for more.\n".utf8))
    exit(2)
}

let effort = Effort(quick: arguments.contains("--quick"))
do {
    let farm = try PluginFarm()
    defer { farm.remove() }
    var rows: [Measurement] = []
    rows += try discoveryBench(farm, effort)
    rows += try loadBench(effort)
    rows += try callBench(farm, effort)
    rows += try busBench(effort)
    rows += try mailboxBench(farm, effort)
    rows += try registryBench(effort)
    rows += try memoryBench()
    rows += try startupBench(farm, effort)
    rows += tripsBench(effort)
    rows += try isolationBench(farm, effort)
    rows += try dashboardBench(farm, effort)
    if arguments.contains("--instructions") { rows += try Instructions.bench(farm, effort) }
    print(arguments.contains("--json") ? Report.json(rows) : Report.table(rows))
} catch {
    FileHandle.standardError.write(Data("widget-host-bench: \(error)\n".utf8))
    exit(1)
}

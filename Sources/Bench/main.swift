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

    Usage: widget-host-bench [--quick] [--json] [--json-to FILE] [--instructions | --instructions-only | --dashboard-only | --serve-only
                             | --isolation-only | --startup-only]
                             [--check FILE]

    Every figure is the median of repeated runs.

    Options:
      --quick   tiny sizes and few repetitions: a smoke test, not a measurement
      --instructions  also count instructions per operation under callgrind
                (needs valgrind and objcopy), beside the wall-clock medians
      --instructions-only  only the instruction rows (no wall-clock suites)
      --dashboard-only  only the dashboard rows (idle wake-ups, an update's
                bytes, the 12-card first frame under callgrind, memory)
      --serve-only  only the serve rows (store write to a browser's event,
                median and p99; the dashboard page's weight)
      --isolation-only  only the isolation rows (an isolated call against a
                socketpair ping-pong, interleaved; starting a child)
      --startup-only  only the start-up rows (widget-host list and launch
                --once, against a Swift hello world run in turn)
      --json    print the rows as JSON
      --json-to FILE  also write the rows as JSON to FILE, so that one run
                gives the table for the docs and the report to keep
      --check FILE  only the instruction rows, each compared with FILE (this
                command's --json output, checked in); exits 1 when a row is
                more than 10% above its figure or missing
      -h, --help  show this help

    Build it in release first: swift build -c release && .build/release/widget-host-bench
    """)
    exit(0)
}
let flags = ["--quick", "--json", "--instructions", "--instructions-only", "--dashboard-only", "--serve-only", "--isolation-only",
             "--startup-only"]
var checkFile: String?, jsonFile: String?
var index = 0
while index < arguments.count {
    let argument = arguments[index]
    if argument == "--check" || argument == "--json-to", index + 1 < arguments.count {
        if argument == "--check" { checkFile = arguments[index + 1] } else { jsonFile = arguments[index + 1] }
        index += 2
        continue
    }
    if !flags.contains(argument) {
        let problem = argument == "--check" || argument == "--json-to" ? "\(argument) needs a file" : "unknown option \(argument)"
        FileHandle.standardError.write(Data("widget-host-bench: \(problem)\nTry 'widget-host-bench --help' for more.\n".utf8))
        exit(2)
    }
    index += 1
}
let instructionsOnly = arguments.contains("--instructions-only") || checkFile != nil

let effort = Effort(quick: arguments.contains("--quick"))
do {
    let farm = try PluginFarm()
    defer { farm.remove() }
    let expected = try checkFile.map(InstructionCheck.load)
    var rows: [Measurement] = []
    if arguments.contains("--dashboard-only") {
        rows += try dashboardBench(farm, effort) + dashboardScaleBench(farm, effort, callgrind: true)
    } else if arguments.contains("--serve-only") {
        rows += try serveBench(farm, effort)
    } else if arguments.contains("--isolation-only") {
        rows += try isolationBench(farm, effort)
    } else if arguments.contains("--startup-only") {
        rows += try startupBench(farm, effort)
    } else if !instructionsOnly {
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
        rows += try dashboardScaleBench(farm, effort, callgrind: arguments.contains("--instructions"))
        rows += try serveBench(farm, effort)
    }
    if instructionsOnly || arguments.contains("--instructions") { rows += try Instructions.bench(farm, effort) }
    if let expected {
        let check = InstructionCheck.compare(rows, with: expected)
        print(check.report)
        if !check.passed {
            print("widget-host-bench: instruction counts regressed more than \(Int(InstructionCheck.tolerance * 100))% (see above)")
            farm.remove()
            exit(1)
        }
    } else {
        print(arguments.contains("--json") ? Report.json(rows) : Report.table(rows))
        if let jsonFile { try Data(Report.json(rows).utf8).write(to: URL(fileURLWithPath: jsonFile)) }
    }
} catch {
    FileHandle.standardError.write(Data("widget-host-bench: \(error)\n".utf8))
    exit(1)
}

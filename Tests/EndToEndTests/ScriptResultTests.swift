import Foundation
import Glibc
import Testing
@testable import WidgetHostKit
@testable import TestSupport

/// What a script relies on: a non-zero exit whenever the output is not the
/// complete answer it asked for.
@Suite("Scripts can trust the exit status")
struct ScriptResultTests {
    /// `widget-host ARGUMENTS > /dev/full`, through a shell.
    private func runIntoFullDevice(_ arguments: [String]) throws -> SpawnedProcess.Result {
        let home = try TestSupport.makeTemporaryDirectory("full")
        let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
        return try SpawnedProcess.run(["/bin/sh", "-c", "exec '\(TestSupport.widgetHost)' \(quoted) > /dev/full"],
                                      environment: SpawnedProcess.hostEnvironment(home: home), input: [])
    }

    @Test("output to a full device is a failure with a message", arguments: [["list"], ["list", "--json"], ["--help"], ["--version"]])
    func fullDevice(_ arguments: [String]) throws {
        let run = try runIntoFullDevice(arguments)
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("error writing to standard output: No space left on device"), "\(run)")
    }

    @Test("the same commands succeed when the output can be written")
    func writableOutput() throws {
        let run = try TestSupport.runHost(["list", "--json"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.isEmpty, "\(run)")
    }

    @Test("--wait running out while the widget loads exits 1, naming the widget and the wait")
    func waitExpires() throws {
        let market = try CryptoMarket()
        market.close(CryptoMarket.pricePath)
        defer { market.open(CryptoMarket.pricePath) }
        let run = try CryptoHost.run(["launch", "crypto", "--once", "--wait", "0.5"] + market.arguments)
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("org.widgethost.crypto was still loading"), "\(run)")
        #expect(run.stderr.contains("--wait 0.5"), "\(run)")
    }

    @Test("a widget that finishes within --wait exits 0 with nothing on stderr")
    func waitSuffices() throws {
        let market = try CryptoMarket()
        let run = try CryptoHost.run(["launch", "crypto", "--once", "--wait", "600"] + market.arguments)
        #expect(run.status == 0, "\(run)")
        #expect(!run.stderr.contains("still loading"), "\(run)")
    }
}

@Suite("Mistakes are never silent")
struct SilentMistakeTests {
    @Test("an unknown WIDGET_HOST_LOG level is warned about, naming the closest level")
    func unknownLogLevel() {
        let recorder = LogRecorder()
        let log = HostLog(environment: ["WIDGET_HOST_LOG": "warnig"], sink: recorder.sink)
        #expect(recorder.recorded == ["widget-host: [warning] WIDGET_HOST_LOG: unknown level 'warnig' (did you mean 'warning'? "
                + "levels: debug, info, warning, error); using warning"])
        log.log(.info, "test", "hidden")
        #expect(recorder.recorded.count == 1, "the threshold stays at warning")
    }

    @Test("a known level is taken without a word")
    func knownLogLevel() {
        let recorder = LogRecorder()
        let log = HostLog(environment: ["WIDGET_HOST_LOG": "DEBUG"], sink: recorder.sink)
        #expect(recorder.recorded.isEmpty)
        log.log(.debug, "test", "shown")
        #expect(recorder.recorded == ["widget-host: [debug] test: shown"])
    }
}

@Suite("Home screen order")
struct HomeScreenOrderTests {
    static func manifest(_ id: String, _ name: String) throws -> Manifest {
        try Manifest(bytes: Array(#"{"abi": "1.0", "id": "\#(id)", "name": "\#(name)", "version": "1.0.0", "screens": [{"id": "main"}]}"#.utf8))
    }

    @Test("widgets are listed by name whatever order they were found in, so numbers stay put")
    func byName() throws {
        let found = [try Self.manifest("org.z.trips", "Trips"), try Self.manifest("org.a.zeta", "zeta"), try Self.manifest("org.m.crypto", "Crypto")]
        for order in [found, found.reversed(), [found[1], found[0], found[2]]] {
            guard case let .stack(_, children) = HomeScreen.view(order), case let .list(_, rows)? = children.first else {
                Issue.record("the home screen has no list"); return
            }
            #expect(rows.map(\.title) == ["Crypto", "Trips", "zeta"])
        }
    }
}

@Suite("A refused action value names the valid ones")
struct RefusedActionValueTests {
    @Test("--actions exchange=nosuch lists the exchanges the screen offers")
    func listsValidValues() throws {
        let market = try CryptoMarket()
        let run = try CryptoHost.run(["launch", "crypto", "--format", "json", "--wait", "600", "--actions", "exchanges,exchange=nosuch"] + market.arguments)
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("invalid value. Valid values for exchange here: coinbase, kraken, binance"), "\(run)")
    }

    @Test("a valid value gives no such list")
    func validValue() throws {
        let market = try CryptoMarket()
        let run = try CryptoHost.run(["launch", "crypto", "--format", "json", "--wait", "600", "--actions", "exchanges,exchange=kraken"] + market.arguments)
        #expect(run.status == 0, "\(run)")
        #expect(!run.stderr.contains("Valid values"), "\(run)")
    }
}

@Suite("Configuration mistakes are warned about")
struct ConfigWarningTests {
    @Test("--set for no plugin, a misspelled section and a section for no plugin each name the closest known name")
    func unknownNames() throws {
        let home = try TestSupport.makeTemporaryDirectory("config")
        let config = home + "/config.json"
        try #"{"plugns": {}, "plugins": {"crytpo": {"refreshSeconds": 5}, "checkout": {}}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let market = try CryptoMarket()
        let run = try CryptoHost.run(["launch", "crypto", "--once", "--wait", "600", "--config", config, "--set", "nosuchplugin.x=1",
                                      "--set", "trip.x=1"] + market.arguments)
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("warning: the configuration has an unknown section 'plugns' (did you mean 'plugins'?)"), "\(run)")
        #expect(run.stderr.contains("warning: the configuration has a section for 'crytpo', which is no plugin found (did you mean 'crypto'?)"), "\(run)")
        #expect(run.stderr.contains("warning: --set names 'nosuchplugin', which is no plugin found"), "\(run)")
        #expect(run.stderr.contains("warning: --set names 'trip', which is no plugin found (did you mean 'trips'?)"), "\(run)")
        #expect(!run.stderr.contains("'checkout'") && !run.stderr.contains("'crypto',"), "known names are not warned about: \(run)")
    }
}

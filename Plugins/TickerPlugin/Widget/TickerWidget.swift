import PluginABI

@_cdecl("widget_host_entry")
public func widgetHostEntry() -> UnsafePointer<wh_plugin_descriptor>? {
    exportWidget(manifest: wh_manifest_json()) { TickerWidget(host: $0) }
}

/// A second widget over the Crypto widget's price: it asks the contract
/// Crypto provides (`org.widgethost.crypto.price/1`) at each render, so it
/// shows whatever Crypto last fetched, and while Crypto is still fetching it
/// shows that it waits (the host renders again when Crypto's price lands).
final class TickerWidget: Widget {
    static let priceContract = "org.widgethost.crypto.price/1"
    private let host: Host

    init(host: Host) {
        self.host = host
    }

    func render(screen: String, params: JSONValue) throws(WidgetError) -> String {
        guard screen == "ticker" else { throw .unknownScreen(screen) }
        let answer: JSONValue
        do { answer = try host.ask(contract: Self.priceContract) } catch {
            return VStack { Text("Bitcoin").style(.headline); Text("No price: the Crypto widget's \(error)") }
                .screen(error: "contract \(Self.priceContract): \(error)")
        }
        return TickerView(answer: answer, now: host.nowMilliseconds).view.screen(error: TickerView.error(answer))
    }

    /// The price alone, large enough to read across a room: the card asks
    /// the contract as the screen does.
    func card(size: CardSize) throws(WidgetError) -> String? {
        let answer: JSONValue
        do { answer = try host.ask(contract: Self.priceContract) } catch {
            return Text("No price: \(error)").color(.warning).screen(error: "contract \(Self.priceContract): \(error)")
        }
        return TickerView(answer: answer, now: host.nowMilliseconds).card(size: size).screen(error: TickerView.error(answer))
    }
}

/// The contract's answer as the ticker shows it.
struct TickerView {
    let answer: JSONValue
    let now: Int64?

    /// Crypto's own error, when it has no price to give.
    static func error(_ answer: JSONValue) -> String? {
        answer["price"]?.string == nil ? answer["error"]?.string : nil
    }

    var view: View {
        VStack {
            Text("Bitcoin").style(.headline)
            if let price = answer["price"]?.string {
                Text(Self.money(price, currency: answer["currency"]?.string)).style(.title)
                if let age = age { Text("\(origin), \(age)").style(.caption) }
                if let error = answer["error"]?.string { Text("Latest attempt failed: \(error)").color(.warning) }
            } else if answer["fetching"] == .bool(true) {
                Progress("Waiting for the Crypto widget's first price")
            } else {
                Text("The Crypto widget has no price: \(answer["error"]?.string ?? "it has not fetched one")")
            }
        }
    }

    /// Where the price came from; a sample price says so wherever it is shown.
    var origin: String { isSample ? "sample data from the Crypto widget" : "from the Crypto widget" }

    var isSample: Bool { answer["sample"] == .bool(true) }

    func card(size: CardSize) -> View {
        // A large card has the room of the full screen: the same view.
        if size == .large { return view }
        return VStack {
            if let price = answer["price"]?.string {
                Text("BTC \(Self.money(price, currency: answer["currency"]?.string))").style(.headline)
                if let age { Text(size == .small ? (isSample ? "sample, \(age)" : age) : "\(origin), \(age)").style(.caption) }
                if answer["error"]?.string != nil { Text("Latest attempt failed").color(.warning) }
            } else if answer["fetching"] == .bool(true) {
                Progress("Waiting for Crypto")
            } else {
                Text("No price: \(answer["error"]?.string ?? "none fetched yet")").color(.warning)
            }
        }
    }

    /// As Crypto shows it (`$44,001.13`), through the SDK's one money format;
    /// another currency keeps its code (`44,001.13 EUR`).
    static func money(_ price: String, currency: String?) -> String {
        guard let currency, currency != "USD" else { return NumberText.money(price) }
        return (NumberText.fixed(price, places: 2).map { ($0.negative ? "-" : "") + $0.digits } ?? price) + " " + currency
    }

    /// `just now`, `12 s ago`: the SDK's age, as Crypto says it.
    private var age: String? {
        guard let at = answer["at"]?.int64, let now else { return nil }
        return NumberText.age(from: at, to: now)
    }
}

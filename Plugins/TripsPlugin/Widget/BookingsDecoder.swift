/// Why the widget has no booking to show. These are the original widget's
/// named errors; every one ends in the no-booking view, never a crash, and
/// its description is what the view and the log show.
public enum BookingsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The shared container cannot be reached or read.
    case storageNotFound(String)
    /// The container has no `trips.bookings`.
    case dataNotFound(String)
    /// The value is not UTF-8, not JSON, or not the bookings document.
    case wrongEncoding(String)
    /// The document holds no booking that can be shown.
    case noBookingAvailable(String)

    public var name: String {
        switch self {
        case .storageNotFound: "Storage not found"
        case .dataNotFound: "Data not found"
        case .wrongEncoding: "Wrong encoding"
        case .noBookingAvailable: "No booking available"
        }
    }

    public var detail: String {
        switch self {
        case let .storageNotFound(detail), let .dataNotFound(detail), let .wrongEncoding(detail), let .noBookingAvailable(detail): detail
        }
    }

    public var description: String { "\(name): \(detail)" }
}

/// A booking left out because a field is missing or invalid; the others
/// still show.
public struct SkippedBooking: Sendable, Equatable, CustomStringConvertible {
    /// Its position in the `bookings` array.
    public let index: Int
    public let id: String?
    public let reason: String

    public var description: String {
        "bookings[\(index)]" + (id.map { " (id \"\($0)\")" } ?? "") + " skipped: " + reason
    }
}

/// The bookings that could be read, and those that could not.
public struct DecodedBookings: Sendable {
    public let bookings: [Booking]
    public let skipped: [SkippedBooking]
}

/// Reads the bookings document:
///
///     { "bookings": [ { "id": "B-1042", "purchase_date": "2026-05-02T18:30:00+02:00",
///                       "outbound_flight": { "code", "stops", "departure_airport", "departure_time",
///                                            "arrival_airport", "arrival_time" },
///                       "hotel": { "name", "address", "check_in", "check_out", "image_url", "review_score" },
///                       "inbound_flight": { ... } } ] }
///
/// Keys are snake_case; times are ISO 8601 with an offset; `review_score` is
/// a number from 0 to 10 (guests' rating, as the app shows it); it, `image_url` and
/// each of the three parts may be absent or null; unknown keys are ignored.
public enum BookingsDecoder {
    public static func decode(_ bytes: [UInt8]) -> Result<DecodedBookings, BookingsError> {
        if String(validating: bytes, as: UTF8.self) == nil {
            return .failure(.wrongEncoding("invalid UTF-8 " + TextPosition.firstInvalidUTF8(in: bytes).description))
        }
        let document: JSONValue
        do { document = try JSONParser.parse(bytes) } catch {
            return .failure(.wrongEncoding("invalid JSON at line \(error.line), column \(error.column): \(error.message)"))
        }
        guard document.isObject else {
            return .failure(.wrongEncoding("the document must be a JSON object with a \"bookings\" array"))
        }
        guard let list = document["bookings"]?.array else {
            return .failure(.wrongEncoding("the document has no \"bookings\" array"))
        }
        guard !list.isEmpty else { return .failure(.noBookingAvailable("the list of bookings is empty")) }

        var bookings: [Booking] = []
        bookings.reserveCapacity(list.count)
        var skipped: [SkippedBooking] = []
        var ids = Set<String>()
        ids.reserveCapacity(list.count)
        for (index, item) in list.enumerated() {
            do throws(FieldError) {
                let booking = try booking(item)
                guard ids.insert(booking.id).inserted else { throw FieldError("the id is used by an earlier booking") }
                bookings.append(booking)
            } catch {
                skipped.append(SkippedBooking(index: index, id: item["id"]?.string, reason: error.message))
            }
        }
        guard !bookings.isEmpty else {
            let what = list.count == 1 ? "the only booking could not be read" : "none of the \(list.count) bookings could be read"
            return .failure(.noBookingAvailable(what + "; the first: " + skipped[0].description))
        }
        return .success(DecodedBookings(bookings: bookings, skipped: skipped))
    }

    private static func booking(_ value: JSONValue) throws(FieldError) -> Booking {
        let fields = try Fields(value, path: "the booking")
        let id = try fields.text("id")
        let purchase = try fields.time("purchase_date")
        let outbound = try fields.object("outbound_flight").map { (flight) throws(FieldError) in try self.flight(flight) }
        let hotel = try fields.object("hotel").map { (hotel) throws(FieldError) in try self.hotel(hotel) }
        let inbound = try fields.object("inbound_flight").map { (flight) throws(FieldError) in try self.flight(flight) }
        guard outbound != nil || hotel != nil || inbound != nil else {
            throw FieldError("it has no outbound_flight, hotel or inbound_flight")
        }
        // Legs out of order cannot be placed on one timeline.
        if let outbound, let inbound, inbound.departureTime.milliseconds < outbound.arrivalTime.milliseconds {
            throw FieldError("inbound_flight departs before outbound_flight lands")
        }
        if let outbound, let hotel, hotel.checkOut.milliseconds < outbound.arrivalTime.milliseconds {
            throw FieldError("hotel.check_out is before outbound_flight lands")
        }
        if let hotel, let inbound, inbound.departureTime.milliseconds < hotel.checkIn.milliseconds {
            throw FieldError("inbound_flight departs before hotel.check_in")
        }
        return Booking(id: id, purchaseDate: purchase, outbound: outbound, hotel: hotel, inbound: inbound)
    }

    private static func flight(_ fields: Fields) throws(FieldError) -> Flight {
        let flight = Flight(code: try fields.text("code"), stops: try fields.count("stops"),
                            departureAirport: try fields.text("departure_airport"), departureTime: try fields.time("departure_time"),
                            arrivalAirport: try fields.text("arrival_airport"), arrivalTime: try fields.time("arrival_time"))
        guard flight.arrivalTime.milliseconds > flight.departureTime.milliseconds else {
            throw FieldError("\(fields.path).arrival_time is not after its departure_time")
        }
        return flight
    }

    private static func hotel(_ fields: Fields) throws(FieldError) -> Hotel {
        let hotel = Hotel(name: try fields.text("name"), address: try fields.text("address"),
                          checkIn: try fields.time("check_in"), checkOut: try fields.time("check_out"),
                          imageURL: try fields.optionalText("image_url"), reviewScore: try fields.optionalScore("review_score"))
        guard hotel.checkOut.milliseconds >= hotel.checkIn.milliseconds else {
            throw FieldError("hotel.check_out is before its check_in")
        }
        return hotel
    }
}

/// Why one booking was skipped.
struct FieldError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Typed reads of one JSON object's fields, with errors that name the field.
private struct Fields {
    let value: JSONValue
    let path: String

    init(_ value: JSONValue, path: String) throws(FieldError) {
        guard value.isObject else { throw FieldError("\(path) is not a JSON object") }
        self.value = value
        self.path = path
    }

    private func name(_ key: String) -> String { path == "the booking" ? key : "\(path).\(key)" }

    private func required(_ key: String) throws(FieldError) -> JSONValue {
        guard let field = value[key], field != .null else { throw FieldError("\(name(key)) is missing") }
        return field
    }

    /// A non-empty string.
    func text(_ key: String) throws(FieldError) -> String {
        guard let text = try required(key).string else { throw FieldError("\(name(key)) is not a string") }
        guard !Self.isBlank(text) else { throw FieldError("\(name(key)) is empty") }
        return text
    }

    /// Whether `text` is empty or only whitespace. An ASCII byte other than a space settles it at once: asking
    /// each Character took Unicode's property tables, some 400 instructions a field, ten fields a booking.
    private static func isBlank(_ text: String) -> Bool {
        for byte in text.utf8 {
            guard byte < 0x80 else { break }
            if byte != 0x20 && !(0x09...0x0D).contains(byte) { return false }
        }
        return text.allSatisfy(\.isWhitespace)
    }

    func optionalText(_ key: String) throws(FieldError) -> String? {
        guard let field = value[key], field != .null else { return nil }
        guard let text = field.string else { throw FieldError("\(name(key)) is not a string") }
        return text.isEmpty ? nil : text
    }

    func time(_ key: String) throws(FieldError) -> ZonedTime {
        let text = try self.text(key)
        guard let time = ZonedTime(iso: text) else {
            throw FieldError("\(name(key)) is \"\(text)\", not an ISO 8601 time with an offset such as 2026-06-10T08:05:00+02:00")
        }
        return time
    }

    /// A number from 0 to 10, as written (`8.7`), or nil when absent or null.
    func optionalScore(_ key: String) throws(FieldError) -> String? {
        guard let field = value[key], field != .null else { return nil }
        guard case let .number(text) = field, let score = Double(text), (0...10).contains(score) else {
            throw FieldError("\(name(key)) is not a number from 0 to 10")
        }
        return text
    }

    /// A whole number from 0 to 99.
    func count(_ key: String) throws(FieldError) -> Int {
        guard case let .number(text) = try required(key), let count = Int(text), (0...99).contains(count) else {
            throw FieldError("\(name(key)) is not a whole number from 0 to 99")
        }
        return count
    }

    /// A nested object, or nil when the key is absent or null.
    func object(_ key: String) throws(FieldError) -> Fields? {
        guard let field = value[key], field != .null else { return nil }
        return try Fields(field, path: key)
    }
}

/// Where in a text a problem is, for people: byte offset, line and column
/// (columns count characters, as the JSON parser's do).
struct TextPosition: CustomStringConvertible {
    let offset: Int
    let line: Int
    let column: Int

    var description: String { "at byte \(offset) (line \(line), column \(column))" }

    static func firstInvalidUTF8(in bytes: [UInt8]) -> TextPosition {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        scan: while true {
            switch parser.parseScalar(from: &iterator) {
            case let .valid(encoded): offset += encoded.count
            case .error, .emptyInput: break scan
            }
        }
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        let column = 1 + bytes[lineStart..<offset].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return TextPosition(offset: offset, line: line, column: column)
    }
}

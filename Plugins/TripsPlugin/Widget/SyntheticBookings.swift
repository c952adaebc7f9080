/// Made-up bookings documents of any size, for benchmarks and demos: the
/// same JSON the app writes, compact, and the same for the same seed.
///
/// Booking i is bought about i hours after `start` and departs some days
/// later, so trips overlap the way a busy customer's would; the shapes
/// rotate through a package (flight, hotel, flight), a one-way flight, a
/// hotel alone, a return trip without a hotel and a day-use stay, with
/// offsets from -05:00 to +09:00.
public enum SyntheticBookings {
    public static func json(count: Int, start: Int64, seed: UInt64 = 1) -> [UInt8] {
        var random = SplitMix(seed: seed)
        var out = "{\"bookings\":["
        out.reserveCapacity(count * 640 + 16)
        let offsets = [-300, 0, 60, 120, 330, 540]
        let airports = ["MAD", "CDG", "JFK", "LHR", "FCO", "NRT", "BCN", "AMS"]
        let hour: Int64 = 3_600_000
        for index in 0..<count {
            if index > 0 { out += "," }
            let offset = offsets[Int(random.next() % UInt64(offsets.count))]
            func time(_ milliseconds: Int64) -> String { ZonedTime(milliseconds: milliseconds, zone: .init(offsetSeconds: offset * 60, abbreviation: "")).iso }
            let purchase = start + Int64(index) * hour + Int64(random.next() % 3600) * 1000
            let departure = purchase + Int64(24 + random.next() % (24 * 60)) * hour
            let flightHours = Int64(1 + random.next() % 12)
            let nights = Int64(random.next() % 10)
            let from = airports[Int(random.next() % UInt64(airports.count))]
            let to = airports[Int(random.next() % UInt64(airports.count))]
            func flight(_ code: Int, _ leaves: Int64, _ a: String, _ b: String) -> String {
                "{\"code\":\"WH\(code)\",\"stops\":\(random.next() % 3),\"departure_airport\":\"\(a)\",\"departure_time\":\"\(time(leaves))\","
                    + "\"arrival_airport\":\"\(b)\",\"arrival_time\":\"\(time(leaves + flightHours * hour))\"}"
            }
            let landing = departure + flightHours * hour
            let checkIn = landing + 2 * hour
            func hotel(until checkOut: Int64) -> String {
                "{\"name\":\"Hotel \(index)\",\"address\":\"\(index) Main Street, \(to)\",\"check_in\":\"\(time(checkIn))\","
                    + "\"check_out\":\"\(time(checkOut))\",\"image_url\":\"https://images.example.com/\(index).jpg\"}"
            }
            let checkOut = checkIn + max(nights, 1) * 24 * hour
            out += "{\"id\":\"S-\(index)\",\"purchase_date\":\"\(time(purchase))\""
            switch index % 5 {
            case 0: out += ",\"outbound_flight\":" + flight(2 * index, departure, from, to) + ",\"hotel\":" + hotel(until: checkOut)
                + ",\"inbound_flight\":" + flight(2 * index + 1, checkOut + 3 * hour, to, from)
            case 1: out += ",\"outbound_flight\":" + flight(2 * index, departure, from, to)
            case 2: out += ",\"hotel\":" + hotel(until: checkOut)
            case 3: out += ",\"outbound_flight\":" + flight(2 * index, departure, from, to)
                + ",\"inbound_flight\":" + flight(2 * index + 1, landing + nights * 24 * hour + 3 * hour, to, from)
            default: out += ",\"outbound_flight\":" + flight(2 * index, departure, from, to) + ",\"hotel\":" + hotel(until: checkIn + 4 * hour)
            }
            out += "}"
        }
        out += "]}"
        return Array(out.utf8)
    }
}

/// SplitMix64: a tiny, fast, seedable generator.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49EB_133C_B111
        return z ^ (z >> 31)
    }
}

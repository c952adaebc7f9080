/// One booking as the app writes it under `trips.bookings` in the shared
/// container (see `sample-bookings.json` and README's "My Trips widget").
/// Every part but the id and the purchase date is optional, but a booking
/// has at least one flight or a hotel.
public struct Booking: Sendable, Equatable {
    public let id: String
    public let purchaseDate: ZonedTime
    public let outbound: Flight?
    public let hotel: Hotel?
    public let inbound: Flight?

    public init(id: String, purchaseDate: ZonedTime, outbound: Flight?, hotel: Hotel?, inbound: Flight?) {
        self.id = id
        self.purchaseDate = purchaseDate
        self.outbound = outbound
        self.hotel = hotel
        self.inbound = inbound
    }
}

public struct Flight: Sendable, Equatable {
    public let code: String
    public let stops: Int
    public let departureAirport: String
    public let departureTime: ZonedTime
    public let arrivalAirport: String
    public let arrivalTime: ZonedTime

    public init(code: String, stops: Int, departureAirport: String, departureTime: ZonedTime, arrivalAirport: String, arrivalTime: ZonedTime) {
        self.code = code
        self.stops = stops
        self.departureAirport = departureAirport
        self.departureTime = departureTime
        self.arrivalAirport = arrivalAirport
        self.arrivalTime = arrivalTime
    }

    /// "Direct", "1 stop", "2 stops".
    var stopsText: String {
        switch stops {
        case 0: "Direct"
        case 1: "1 stop"
        default: "\(stops) stops"
        }
    }
}

public struct Hotel: Sendable, Equatable {
    public let name: String
    public let address: String
    public let checkIn: ZonedTime
    public let checkOut: ZonedTime
    public let imageURL: String?
    /// Guests' rating out of 10, as the bookings document writes it (`8.7`).
    public let reviewScore: String?

    public init(name: String, address: String, checkIn: ZonedTime, checkOut: ZonedTime, imageURL: String?, reviewScore: String? = nil) {
        self.name = name
        self.address = address
        self.checkIn = checkIn
        self.checkOut = checkOut
        self.imageURL = imageURL
        self.reviewScore = reviewScore
    }

    /// `★ 8.7/10`.
    var reviewText: String? { reviewScore.map { "★ \($0)/10" } }

    /// Calendar nights between the local check-in and check-out dates, each
    /// in its own offset: a day-use stay (same date) has none.
    var nights: Int { max(0, checkOut.localDays - checkIn.localDays) }

    /// "Day use (no night)", "1 night", "4 nights".
    var nightsText: String {
        switch nights {
        case 0: "Day use (no night)"
        case 1: "1 night"
        default: "\(nights) nights"
        }
    }
}

/// Where the bookings come from: the app writes them into the shared
/// container under one key, and this reads them there, turning each way
/// it can fail into one of the named errors.
enum BookingsSource {
    static let key = "trips.bookings"

    /// Reads, decodes and builds the timeline as of `now`. Blocking: call
    /// it off the host's thread (`Host.background`).
    static func load(_ host: Host, now: Int64) -> Result<TripsTimeline, BookingsError> {
        let bytes: [UInt8]?
        do { bytes = try host.storeGet(key) } catch {
            switch error {
            case .unavailable:
                return .failure(.storageNotFound("this host gives the widget no shared container (the store service is unavailable)"))
            case .badKey, .io:
                return .failure(.storageNotFound("the shared container could not be read (the host's log says why)"))
            }
        }
        guard let bytes else { return .failure(.dataNotFound("the app has not written \(key) to the shared container")) }
        return TripsTimeline.build(json: bytes, now: now)
    }
}

import Foundation
import Wayfinder

/// The founding use case in `wayfinder demo`: a place found by name in the sample's place index, then the restaurants
/// around it ranked by when one reaches them (`NearbySearch`, what `wayfinder nearby` runs).
enum DemoPlaces {
    /// Per sample: the name typed, the category, the mode, the radius (metres), the time zone and the departure.
    static let searches: [String: (name: String, category: String, mode: TransportType, radius: Double, zone: String, depart: String)] = [
        "monaco.osm.gz": ("port hercule", "restaurant", .walking, 500, "Europe/Monaco", "2026-12-01T19:30"),
    ]

    /// Finds the sample's place and lists the three places of the category reached first from it.
    static func show(graph path: String, sample: String) {
        guard let search = searches[sample], let map = try? OfflineMap(contentsOf: URL(fileURLWithPath: path)),
              let zone = TimeZone(identifier: search.zone) else { return }
        do {
            let started = Date()
            let origin = try map.resolveStops([search.name])[0]
            let request = NearbySearchRequest(origin: origin.coordinate, category: search.category, transportType: search.mode,
                                              departureDate: try ISO8601.date(from: search.depart, timeZone: zone), radius: search.radius,
                                              limit: 3, timeZone: zone)
            let nearby = try NearbySearch(request, map: map).calculate()
            let milliseconds = Date().timeIntervalSince(started) * 1000
            let place = origin.place.map { "\"\($0.name)\" (\($0.category))" } ?? origin.text
            print("  Places: \"\(search.name)\" is \(place); of the \(nearby.candidateCount) \(search.category)s within "
                  + "\(Int(search.radius)) m, the first reached \(search.mode == .walking ? "on foot" : "by car") leaving \(search.depart) "
                  + "(computed in \(String(format: "%.1f", milliseconds)) ms):")
            for line in NearbyEncoder.text(nearby, transit: false).split(separator: "\n") { print("    \(line)") }
        } catch {
            print("    places: \(error)")
        }
    }
}

import Foundation
import Wayfinder

/// `/transit/v1/table/{lon,lat;lon,lat…}?depart=…[&sources=…][&destinations=…][&max_transfers=N][&max_walk=M]`:
/// seconds from `depart` to the earliest arrival by transit from each source at each destination, in the shape of
/// the OSRM table (`durations` rows, null where no itinerary), with the table's limits.
enum TransitTableEndpoint {
    static let options: Set<String> = ["depart", "sources", "destinations", "max_transfers", "max_walk"]

    /// The JSON body of a transit table request, or the OSRM error it fails with (`Timeout` past `deadline`).
    static func respond(_ coordinatesText: String, request: HTTPRequest, map: OfflineMap, limits: ServiceLimits,
                        deadline: RequestDeadline) throws(OSRMError) -> [UInt8] {
        var text = coordinatesText
        if text.hasSuffix(".json") { text.removeLast(5) }
        let coordinates = try OSRMRequest.parseCoordinates(text)
        guard coordinates.count <= limits.maximumTableCells + 1 else {
            throw .tooBig("a table may have at most \(limits.maximumTableCells + 1) coordinates (for \(limits.maximumTableCells) cells), got \(coordinates.count)")
        }
        var values: [String: String] = [:]
        for (name, value) in request.query {
            guard options.contains(name) else {
                throw .invalidOptions("unknown option '\(name)' for the transit table (accepted: \(options.sorted().joined(separator: ", ")))")
            }
            values[name] = value
        }
        guard let departText = values["depart"] else {
            throw .invalidQuery("a transit table needs depart=T (e.g. 2017-05-10T08:30): transit travel times depend on when you leave")
        }
        let depart = try TransitEndpoint.parseTime(departText, option: "depart", map: map)
        let sources = try indices(values["sources"], name: "sources", count: coordinates.count)
        let destinations = try indices(values["destinations"], name: "destinations", count: coordinates.count)
        guard !sources.isEmpty, !destinations.isEmpty else { throw .invalidQuery("a table needs at least one source and one destination") }
        guard sources.count * destinations.count <= limits.maximumTableCells else {
            throw .tooBig("a table may have at most \(limits.maximumTableCells) cells, asked for \(sources.count) × \(destinations.count)")
        }
        var request = MatrixRequest(sources: sources.map { ETAPlace(name: "", coordinate: coordinates[$0]) },
                                    destinations: destinations.map { ETAPlace(name: "", coordinate: coordinates[$0]) },
                                    transportType: .transit, maximumSnappingDistance: limits.defaultRadius, maximumSize: limits.maximumTableCells)
        request.departureDate = depart
        request.transitOptions = try TransitEndpoint.transitOptions(values, limits: limits)
        request.transitOptions.deadline = deadline.moment
        let response: MatrixResponse
        do {
            response = try Matrix(request, map: map).calculate()
        } catch .transit(.timedOut) {
            throw deadline.timedOut(hint: "ask for fewer sources, a shorter max_walk or fewer max_transfers")
        } catch {
            throw OSRMError(error)
        }
        let matrix = response.matrix
        let durations = JSONValue.array(sources.indices.map { i in
            .array(destinations.indices.map { j in matrix.duration(i, j).map { JSONValue.rounded($0, 1) } ?? .null })
        })
        let body = JSONValue.object([
            ("code", .string("Ok")), ("durations", durations),
            ("sources", .array(response.snappedSources.map { OSRMResponseEncoder.waypoint($0) })),
            ("destinations", .array(response.snappedDestinations.map { OSRMResponseEncoder.waypoint($0) })),
        ])
        return Array(body.serialized().utf8)
    }

    /// `sources` or `destinations`: `all` (the default) or indices into the coordinates separated by `;`.
    static func indices(_ text: String?, name: String, count: Int) throws(OSRMError) -> [Int] {
        guard let text, text != "all" else { return Array(0..<count) }
        var result: [Int] = []
        for item in text.split(separator: ";", omittingEmptySubsequences: false) {
            guard let i = Int(item) else { throw .invalidQuery("\(name) must be 'all' or indices separated by ';', got '\(text)'") }
            guard (0..<count).contains(i) else {
                throw .invalidValue("\(name) index \(i) is out of range: there are \(count) coordinates, so indices run from 0 to \(count - 1)")
            }
            result.append(i)
        }
        return result
    }
}

import Foundation
import Graph
import Routing
import Transit

extension ETAList {
    /// The rows of an ETA list by transit: one earliest-arrival search from the origin (`TransitRouter.earliestArrivals`),
    /// each row equal to the pair's own transit query (refined: its travel time from the latest departure still arriving then); with `departureWindow`, one range search per place for its
    /// best, median and worst travel time over the window. Throws when the origin cannot be used or the date is off the feed.
    func computeTransit(_ cancel: Cancellation) throws(DirectionsError) -> ETAListResponse {
        let router = try map.transitRouter()
        var options = request.transitOptions
        options.maxSnappingDistance = request.maximumSnappingDistance
        let departure = request.departureDate ?? Date()
        if let window = request.departureWindow {
            guard window.isFinite, window > 0, window <= TransitRouter.maximumDepartureWindow else {
                throw .transit(.invalidDepartureWindow(seconds: window))
            }
        }
        try cancel.check()
        let arrivals: [Result<TransitArrival, TransitError>]
        do {
            arrivals = try router.earliestArrivals(from: request.origin, departure: departure, to: request.places.map(\.coordinate), options: options,
                                                   refine: true)
        } catch {
            throw .transit(error)
        }
        var entries: [ETAListEntry] = []
        entries.reserveCapacity(request.places.count)
        for (i, place) in request.places.enumerated() {
            try cancel.check()
            switch arrivals[i] {
            case let .failure(error):
                if case .noRoad = error { entries.append(ETAListEntry(place: place, status: .noRoad)) }
                else if case .invalidCoordinate = error { throw .transit(.invalidCoordinate(stop: i + 1)) }
                else { entries.append(ETAListEntry(place: place, status: .noRoute)) }
            case let .success(arrival):
                // As the pair's own query: leaving as late as still arrives then (the refined itinerary), metres walked on it.
                let leave = arrival.itinerary?.departure ?? departure
                var entry = ETAListEntry(place: place, status: .ok, expectedTravelTime: arrival.arrival.timeIntervalSince(leave),
                                         distance: arrival.itinerary?.walkingDistance ?? arrival.walkingDistance, expectedArrivalDate: arrival.arrival)
                entry.transit = arrival
                if let window = request.departureWindow {
                    do {
                        entry.departureWindow = try router.departureWindow(from: request.origin, to: place.coordinate, departure: departure,
                                                                           window: window, options: options)
                    } catch {
                        if case .timedOut = error { throw .transit(error) }
                    }
                }
                entries.append(entry)
            }
        }
        return ETAListResponse(entries: entries, expectedDepartureDate: departure, timeZone: request.timeZone)
    }
}

extension Matrix {
    /// The matrix by transit: seconds from `request.departureDate` (required) to the earliest arrival (equal to the
    /// pair's own query) from every source at every destination, one search per source; distances are the metres
    /// walked. Nil where no itinerary exists; a place too far from a walkable road throws, as a road matrix does.
    func computeTransit(_ cancel: Cancellation) throws(DirectionsError) -> MatrixResponse {
        guard let departure = request.departureDate else {
            throw .unsupported("a matrix by transit needs a departure time: transit travel times depend on when you leave")
        }
        let router = try map.transitRouter()
        var options = request.transitOptions
        options.maxSnappingDistance = request.maximumSnappingDistance
        // Every place on the foot graph first, as a road matrix snaps: one too far from a road is an error, as there.
        let radius = request.maximumSnappingDistance
        let from = try map.snap(request.sources.map(\.coordinate), transportType: .walking, maximumDistance: radius, role: .source)
        let to = try map.snap(request.destinations.map(\.coordinate), transportType: .walking, maximumDistance: radius, role: .destination)
        let targets = request.destinations.map(\.coordinate)
        var matrix = DistanceMatrix(sourceCount: request.sources.count, destinationCount: targets.count)
        for (i, source) in request.sources.enumerated() {
            try cancel.check()
            let row: [Result<TransitArrival, TransitError>]
            do {
                row = try router.earliestArrivals(from: source.coordinate, departure: departure, to: targets, options: options)
            } catch {
                switch error {
                case .invalidCoordinate: throw .transit(.invalidCoordinate(stop: i))
                case .noRoad: continue
                default: throw .transit(error)
                }
            }
            for (j, answer) in row.enumerated() {
                guard case let .success(arrival) = answer else { continue }
                matrix.durations[i * targets.count + j] = arrival.travelTime(from: departure)
                matrix.distances[i * targets.count + j] = arrival.walkingDistance
            }
        }
        try cancel.check()
        return MatrixResponse(sources: request.sources, destinations: request.destinations, snappedSources: from.map(\.waypoint),
                              snappedDestinations: to.map(\.waypoint), matrix: matrix, mode: "transit")
    }
}

import Foundation
import Graph
import Routing

/// A visiting order by transit (`TransitRouter.greedyOrder`): the places in visiting order with the arrival at each.
public struct TransitOrder: Equatable, Sendable {
    /// Indices into the places given, in visiting order.
    public var order: [Int]
    /// The arrival at each visited place (`arrivals[k]` at `order[k]`), each leg leaving when the previous arrived.
    public var arrivals: [Date]
}

extension TransitRouter {
    /// A visiting order for `places` by transit, starting at `start` at `departure`: greedy by earliest arrival,
    /// with departures chained — from where the traveller is, at the moment they are there (after `stay` seconds at
    /// each place), the next place is the unvisited one reached earliest (ties: the lower index), found with one
    /// `earliestArrivals` search per step. Travel times depend on the moment of leaving, so a table taken at one time
    /// cannot order the trip; this order is well defined and exact leg by leg, but not always the quickest order
    /// overall (docs/transit.md, "Orders by transit"). Throws when some place cannot be reached from where it is left.
    public func greedyOrder(start: Coordinate, places: [Coordinate], departure: Date, stay: TimeInterval = 0,
                            options: TransitOptions = TransitOptions()) throws(TransitError) -> TransitOrder {
        var left = Array(places.indices)
        var at = start, clock = departure
        var order: [Int] = [], arrivals: [Date] = []
        while !left.isEmpty {
            let answers = try earliestArrivals(from: at, departure: clock, to: left.map { places[$0] }, options: options)
            var best: (k: Int, arrival: Date)? = nil
            var firstError: TransitError? = nil
            for (k, answer) in answers.enumerated() {
                switch answer {
                case let .success(found): if best == nil || found.arrival < best!.arrival { best = (k, found.arrival) }
                case let .failure(error): if firstError == nil { firstError = error }
                }
            }
            guard let best else { throw firstError ?? .noTransitRoute(leg: order.count, maxTransfers: options.maxTransfers, maxWalk: options.maxWalk) }
            let chosen = left.remove(at: best.k)
            order.append(chosen); arrivals.append(best.arrival)
            at = places[chosen]; clock = best.arrival.addingTimeInterval(stay)
        }
        return TransitOrder(order: order, arrivals: arrivals)
    }
}

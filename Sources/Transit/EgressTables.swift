import Foundation

/// The walks from each stop to every node of the foot graph within one walk limit (the default `maxWalk`), each
/// built on first use and then shared: the egress walks to any point are read from the tables of the stops near it
/// (`TransitRouter.walks(at:towards: true, …)`), so the pair query and the one-to-many searches read the very same
/// walks. Thread-safe.
final class EgressTables: @unchecked Sendable {
    /// The walk limit the tables hold, metres.
    let limit: Double
    private let lock = NSLock()
    @exclusivity(unchecked) private var tables: [WalkTable?]

    init(stopCount: Int, limit: Double) {
        self.limit = limit
        tables = Array(repeating: nil, count: stopCount)
    }

    /// The table of stop `s`, built by `build` (a walk search from the stop, run to its end) the first time it is asked
    /// for; nil when `build` gives none (a search cut short by a deadline), and then nothing is kept.
    func table(_ s: Int, build: () -> WalkTable?) -> WalkTable? {
        lock.lock()
        if let table = tables[s] { lock.unlock(); return table }
        lock.unlock()
        guard let table = build() else { return nil }
        lock.lock(); defer { lock.unlock() }
        if let stored = tables[s] { return stored }
        tables[s] = table
        return table
    }

    /// How many stops' tables are kept.
    var keptCount: Int {
        lock.lock(); defer { lock.unlock() }
        return tables.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
    }
}

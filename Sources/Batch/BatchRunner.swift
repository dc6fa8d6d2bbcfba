import Foundation
import Wayfinder

/// How rows are written.
public enum BatchOutputFormat: String, Sendable { case ndjson, csv }
/// Which geometry a row carries.
public enum BatchGeometry: String, Sendable { case none, polyline, polyline6, geojson }

/// Options of a batch run.
public struct BatchOptions: Sendable {
    public var format: BatchOutputFormat = .ndjson
    public var geometry: BatchGeometry = .none
    public var steps = false
    public var threads = ProcessInfo.processInfo.activeProcessorCount
    public var timeZone: TimeZone = .current
    /// Mode of jobs that give none.
    public var defaultMode = "car"
    /// Departure of jobs that give neither depart nor arrive (the batch's start by default).
    public var defaultDeparture = Date()
    public var maximumSnappingDistance = 1000.0
    /// Only jobs of this shard (k of n, k from 1).
    public var shard: (k: Int, n: Int)? = nil
    /// Jobs routed together before their rows are written (and the file synced).
    public var window = 0
    public init() {}
}

/// Routes one job into a row.
public func routeJob(_ job: BatchJob, map: OfflineMap, formatter: BatchRowFormatter) -> BatchRow {
    let o = formatter.options
    let mode = job.mode ?? o.defaultMode
    let transport: TransportType = mode == "transit" ? .transit : mode == "foot" ? .walking : .automobile
    let request = DirectionsRequest(stops: job.stops, transportType: transport, departureDate: job.depart ?? (job.arrive == nil ? o.defaultDeparture : nil),
                                    arrivalDate: job.arrive, maximumSnappingDistance: o.maximumSnappingDistance, timeZone: o.timeZone)
    do {
        let directions = Directions(request, map: map)
        if transport == .transit {
            // The trip `eta --mode transit` gives (primary itinerary per pair of stops); its route form carries the
            // geometry and steps (walk steps, one step per ride) when the options ask for them.
            let trip = try directions.calculateTransit()
            let result = trip.routeResult
            return formatter.success(id: job.id, eta: result.eta, route: formatter.needsFullRoute ? result.routes[0] : nil,
                                     transit: (trip.rides, trip.transfers, trip.walkingDistance))
        }
        // Without geometry and steps a row needs only times and distances: the ETA path lays out no route.
        guard formatter.needsFullRoute else { return formatter.success(id: job.id, eta: try directions.calculateETA(), places: job.places) }
        return formatter.success(id: job.id, result: try directions.calculate(), places: job.places)
    } catch {
        let status: String
        switch error {
        case .routing(.noRoute): status = "no_route"
        case .routing(.noRoad): status = "no_road"
        case .routing(.invalidCoordinate): status = "bad_stop"
        case .routing(.unknownProfile): status = "unknown_profile"
        case .transit(.noTransitRoute): status = "no_route"
        case .transit(.noRoad): status = "no_road"
        case .transit(.invalidCoordinate): status = "bad_stop"
        default: status = "bad_row"
        }
        return formatter.failure(id: job.id, status: status, message: "line \(job.line): \(error.description)")
    }
}

/// Counts of a finished run.
public struct BatchSummary: Sendable {
    public var ok = 0
    public var failed = 0
    public var skipped = 0
}

/// Runs a batch: reads jobs incrementally, routes a bounded window at a time on `threads` threads, writes rows in input order.
public final class BatchRunner {
    /// The map every job is routed on.
    public let map: OfflineMap
    public let options: BatchOptions
    public init(map: OfflineMap, options: BatchOptions) { self.map = map; self.options = options }

    private final class Slots: @unchecked Sendable {
        let items: [BatchItem]
        let rows: UnsafeMutablePointer<BatchRow?>
        private let lock = NSLock()
        private var nextIndex = 0
        init(_ items: [BatchItem]) { self.items = items; rows = .allocate(capacity: items.count); rows.initialize(repeating: nil, count: items.count) }
        deinit { rows.deinitialize(count: items.count); rows.deallocate() }
        func take() -> Int? { lock.lock(); defer { lock.unlock() }; guard nextIndex < items.count else { return nil }; nextIndex += 1; return nextIndex - 1 }
    }

    /// Runs the jobs of `reader` (of the shard), writing rows to `writer`; `progress` gets the jobs done after each
    /// window. With `--resume`, `done` holds the ids of the rows already written: they are the first jobs, in order,
    /// each skipped once (so duplicate ids are each handled once); an id that differs is an error (the output is not
    /// from this job file), found before any row is written.
    public func run(reader: JobReader, writer: RowWriter, done: [String] = [], progress: (Int) -> Void) throws -> BatchSummary {
        let formatter = BatchRowFormatter(options: options)
        let threads = max(1, options.threads)
        let window = options.window > 0 ? options.window : max(64, threads * 32)
        var summary = BatchSummary()
        let map = self.map
        while true {
            var chunk: [BatchItem] = []
            chunk.reserveCapacity(window)
            while chunk.count < window, let item = reader.next() {
                if let shard = options.shard, Shard.shard(of: item.id, count: shard.n) != shard.k { continue }
                if summary.skipped < done.count {
                    guard item.id == done[summary.skipped] else {
                        throw BatchInputError("--resume: row \(summary.skipped + 1) of the output is job '\(done[summary.skipped])', but job \(summary.skipped + 1) of the input is '\(item.id)': the output is not from this job file (or this --shard); give another --output")
                    }
                    summary.skipped += 1
                    continue
                }
                chunk.append(item)
            }
            if chunk.isEmpty {
                if summary.skipped < done.count {
                    throw BatchInputError("--resume: the output has \(done.count) rows but the input only \(summary.skipped) jobs: the output is not from this job file (or this --shard); give another --output")
                }
                break
            }
            let slots = Slots(chunk)
            DispatchQueue.concurrentPerform(iterations: min(threads, chunk.count)) { _ in
                while let i = slots.take() {
                    let row: BatchRow
                    switch slots.items[i] {
                    case let .job(job): row = routeJob(job, map: map, formatter: formatter)
                    case let .bad(id, _, message): row = formatter.failure(id: id, status: "bad_row", message: message)
                    }
                    slots.rows[i] = row
                }
            }
            for i in 0..<chunk.count {
                let row = slots.rows[i]!
                try writer.write(row.text)
                if row.ok { summary.ok += 1 } else { summary.failed += 1 }
            }
            writer.sync()
            progress(summary.ok + summary.failed)
        }
        writer.sync()
        return summary
    }
}

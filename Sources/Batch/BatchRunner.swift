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
    /// Most jobs in flight: read and not yet written (0: 64 per thread, at least 256).
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
                                     transit: (trip.rides, trip.transfers, trip.walkingDistance), places: job.places)
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

/// Runs a batch: reads jobs incrementally and routes them on `threads` threads while the calling thread writes the
/// rows in input order as they are done, at most `window` jobs in flight (read, not yet written), so memory does not
/// grow with the job count and no thread waits for the slowest job of a window.
public final class BatchRunner {
    /// The map every job is routed on.
    public let map: OfflineMap
    public let options: BatchOptions
    public init(map: OfflineMap, options: BatchOptions) { self.map = map; self.options = options }

    /// Seconds between two fsyncs of the output while a run goes on (and one at the end): a machine crash loses at
    /// most the rows of the last second, a killed process none that were written.
    static let syncInterval = 1.0

    /// Runs the jobs of `reader` (of the shard), writing rows to `writer`; `progress` gets the jobs done after each
    /// window's worth of rows. With `--resume`, `done` holds the ids of the rows already written: they are the first
    /// jobs, in order, each skipped once (so duplicate ids are each handled once); an id that differs is an error (the
    /// output is not from this job file), found before any row is written.
    public func run(reader: JobReader, writer: RowWriter, done: [String] = [], progress: (Int) -> Void) throws -> BatchSummary {
        let threads = max(1, options.threads)
        let window = options.window > 0 ? options.window : max(256, threads * 64)
        var summary = BatchSummary()
        let shard = options.shard
        func nextItem() -> BatchItem? {
            while let item = reader.next() {
                if let shard, Shard.shard(of: item.id, count: shard.n) != shard.k { continue }
                return item
            }
            return nil
        }
        // The rows already in the output are the first jobs: skip them, checking their ids, before anything is written.
        while summary.skipped < done.count {
            guard let item = nextItem() else {
                throw BatchInputError("--resume: the output has \(done.count) rows but the input only \(summary.skipped) jobs: the output is not from this job file (or this --shard); give another --output")
            }
            guard item.id == done[summary.skipped] else {
                throw BatchInputError("--resume: row \(summary.skipped + 1) of the output is job '\(done[summary.skipped])', but job \(summary.skipped + 1) of the input is '\(item.id)': the output is not from this job file (or this --shard); give another --output")
            }
            summary.skipped += 1
        }
        guard let first = nextItem() else { writer.sync(); return summary }

        let pipeline = BatchPipeline(window: window, first: first, next: nextItem)
        let formatter = BatchRowFormatter(options: options)
        let map = self.map
        let workers = DispatchGroup()
        // No more routing threads than cores (as `concurrentPerform` ran them before): more would only add memory.
        for _ in 0..<min(threads, max(1, ProcessInfo.processInfo.activeProcessorCount)) {
            workers.enter()
            let thread = Thread {
                defer { workers.leave() }
                while let (index, item) = pipeline.take() {
                    let row: BatchRow
                    switch item {
                    case let .job(job): row = routeJob(job, map: map, formatter: formatter)
                    case let .bad(id, _, message): row = formatter.failure(id: id, status: "bad_row", message: message)
                    }
                    pipeline.finish(index, row)
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        defer { pipeline.stop(); workers.wait() }
        var buffer: [UInt8] = []
        var lastSync = DispatchTime.now().uptimeNanoseconds, lastProgress = 0
        while let rows = pipeline.nextRows() {
            buffer.removeAll(keepingCapacity: true)
            for row in rows {
                buffer.append(contentsOf: row.bytes)
                if row.ok { summary.ok += 1 } else { summary.failed += 1 }
            }
            try writer.write(buffer)
            let written = summary.ok + summary.failed
            let now = DispatchTime.now().uptimeNanoseconds
            if Double(now - lastSync) >= Self.syncInterval * 1e9 { writer.sync(); lastSync = now }
            if written - lastProgress >= window { progress(written); lastProgress = written }
        }
        writer.sync()
        if summary.ok + summary.failed != lastProgress { progress(summary.ok + summary.failed) }
        return summary
    }
}

/// The jobs of a run between the reader and the writer: workers take the next job (read under a lock, numbered in
/// input order) when fewer than `window` are in flight, and hand back its row; the writer takes the rows that are
/// done in input order.
final class BatchPipeline: @unchecked Sendable {
    private let window: Int
    private let condition = NSCondition()
    private let readLock = NSLock()
    private let next: () -> BatchItem?
    /// The first job, read before the workers started.
    private var first: BatchItem?
    /// Rows done and not yet written, by input index modulo `window`.
    private var rows: [BatchRow?]
    /// Jobs read so far (the next job's index), and rows handed to the writer so far.
    private var taken = 0, written = 0
    /// Jobs in the input (known once the reader is at its end), and whether the run was stopped.
    private var total: Int? = nil
    private var stopped = false
    /// Threads waiting on `condition`: workers for room in the window, the writer for rows.
    private var waitingWorkers = 0, writerWaiting = false

    init(window: Int, first: BatchItem, next: @escaping () -> BatchItem?) {
        self.window = window; self.first = first; self.next = next
        rows = Array(repeating: nil, count: window)
    }

    /// The next job and its index, once fewer than `window` are in flight; nil at the end of the input or when stopped.
    func take() -> (Int, BatchItem)? {
        readLock.lock(); defer { readLock.unlock() }
        condition.lock()
        while taken - written >= window && !stopped { waitingWorkers += 1; condition.wait(); waitingWorkers -= 1 }
        let index = taken, done = stopped || total != nil
        condition.unlock()
        if done { return nil }
        let item: BatchItem?
        if let first { item = first; self.first = nil } else { item = next() }
        condition.lock(); defer { condition.unlock() }
        guard let item else { total = index; condition.broadcast(); return nil }
        taken = index + 1
        return (index, item)
    }

    /// Hands back the row of job `index`.
    func finish(_ index: Int, _ row: BatchRow) {
        condition.lock(); defer { condition.unlock() }
        rows[index % window] = row
        if writerWaiting && ready() { condition.broadcast() }
    }

    /// Whether the writer has rows to take: a quarter of the window done in order from the next row to write, or
    /// every row left (once the input's end is known), or the run was stopped.
    private func ready() -> Bool {
        if stopped { return true }
        let wanted = max(1, window / 4)
        var count = 0
        while count < wanted, rows[(written + count) % window] != nil { count += 1 }
        if count == wanted { return true }
        guard let total else { return false }
        return written + count >= total
    }

    /// The rows done next in input order (a quarter of the window, or every row left, waiting for them); nil once
    /// every row was handed out or when stopped. Fewer, larger writes, and the workers wake the writer less often.
    func nextRows() -> [BatchRow]? {
        condition.lock(); defer { condition.unlock() }
        while !ready() { writerWaiting = true; condition.wait(); writerWaiting = false }
        if stopped { return nil }
        var out: [BatchRow] = []
        while let row = rows[written % window] {
            out.append(row)
            rows[written % window] = nil
            written += 1
        }
        if out.isEmpty { return nil }
        if waitingWorkers > 0 { condition.broadcast() }
        return out
    }

    /// Stops the workers (after the last row, or when writing failed): they take no more jobs.
    func stop() {
        condition.lock(); stopped = true; condition.broadcast(); condition.unlock()
    }
}

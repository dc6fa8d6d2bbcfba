import Batch
import Foundation
import Wayfinder

/// `wayfinder batch`: routes a file of jobs (NDJSON or CSV) on all cores, one row per job in input order.
enum BatchCommand {
    /// Exit code when the batch ran but some jobs failed (their rows say why).
    static let someJobsFailed: Int32 = 7

    static let usage = """
    usage: wayfinder batch --graph G.wfg --input JOBS --output RESULTS [--threads N] [--geometry none|polyline|polyline6|geojson]
                           [--steps] [--format ndjson|csv] [--places FILE] [--resume] [--shard K/N] [--time-zone ZONE]
                           [--mode car|foot|transit] [--depart T] [--max-snap M] [--max-stops N] [--max-name-bytes N] [--strict-names] [--quiet]

    Routes a file of jobs, one result row per job in input order, on all cores.

      -g, --graph G         the graph file (from wayfinder import)
      -i, --input JOBS      NDJSON ({"id","mode","depart"|"arrive","stops"} per line) or CSV with a header naming id and stops
                            (also mode, depart, arrive); told from the content
      -o, --output RESULTS  results, one row per job in input order (NDJSON or CSV by --format); an existing path
                            must be a regular file (a device, FIFO or folder is refused, exit 4)
      --threads N           routing threads, 1 to 1024 (default: all cores)
      --geometry G          each route's geometry: none (default), polyline, polyline6 (encoded strings) or geojson
      --steps               add each route's turn-by-turn steps
      --format F            ndjson (default) or csv
      --places FILE         name,lat,lon lines: stops may be given by these names (looked up first); any other
                            name is a place of the map, the best match near the stop before (NDJSON rows then
                            get `places`, saying which place each name was taken to be)
      --strict-names        a name that several places far apart match equally well fails its job, listing them
                            (an NDJSON job's "strictNames": true or false overrides it)
      --resume              keep the rows already in --output and append the jobs after them (the output's rows are the
                            first jobs, in order; a torn or garbage row and all after it are routed again; an output of
                            another --format, --geometry or --steps is refused)
      --shard K/N           only jobs whose id hashes (FNV-1a 64 mod N) to shard K, K from 1 to N
      --time-zone ZONE      IANA zone for dates without an offset and for output (default: the map's:
                            its timetable's with --gtfs, else the system's, $TZ)
      --mode MODE           car (default), foot or transit (a graph imported with --gtfs), for jobs that give no mode
      --depart T            departure for jobs that give none (default: the batch's start), ISO 8601
      --max-snap M          farthest a stop may lie from a road the mode may use, metres, up to 100000 (default 1000)
      --max-stops N         most stops of one job, 2 to 100000 (default 500, as the route service); more: that row fails
      --max-name-bytes N    longest job id or place name (here and in --places), bytes, 16 to 1048576 (default 1024);
                            a job row may be at most 64 KiB + N-stops × (name + 2) bytes long
      -q, --quiet           no progress line (the summary on standard error is still printed)

    Exit codes: 0 all jobs ok, 7 some jobs failed (their rows say why), 2 bad usage, 3 bad input, 4 output not written.
    """

    static func run(_ arguments: [String]) throws {
        let args = try ArgumentList(arguments, valued: ["--graph", "-g", "--input", "-i", "--output", "-o", "--threads", "--geometry", "--format",
                                                        "--places", "--shard", "--time-zone", "--mode", "--depart", "--max-snap", "--window",
                                                        "--max-stops", "--max-name-bytes"],
                                    switches: ["--steps", "--resume", "--strict-names", "--quiet", "-q", "-h", "--help"])
        if args.has("-h") || args.has("--help") { print(usage); return }
        guard let graphPath = args.value("--graph") ?? args.value("-g") else { throw CommandError.usage("--graph G.wfg is required\n\n\(usage)") }
        guard let input = args.value("--input") ?? args.value("-i") else { throw CommandError.usage("--input JOBS is required\n\n\(usage)") }
        guard let output = args.value("--output") ?? args.value("-o") else { throw CommandError.usage("--output RESULTS is required\n\n\(usage)") }
        guard args.positionals.isEmpty else { throw CommandError.usage("unexpected argument '\(args.positionals[0])'") }
        var options = BatchOptions()
        if let t = args.value("--threads") { options.threads = try OptionValue.integer(t, option: "--threads", range: 1...1024) }
        if let w = args.value("--window") { options.window = try OptionValue.integer(w, option: "--window", range: 1...1_000_000) }
        var limits = BatchLimits()
        if let n = args.value("--max-stops") { limits.maxStops = try OptionValue.integer(n, option: "--max-stops", range: BatchLimits.stopsRange) }
        if let n = args.value("--max-name-bytes") {
            limits.maxNameBytes = try OptionValue.integer(n, option: "--max-name-bytes", range: BatchLimits.nameBytesRange)
        }
        if let g = args.value("--geometry") {
            guard let geometry = BatchGeometry(rawValue: g) else { throw CommandError.usage("--geometry must be none, polyline, polyline6 or geojson, not '\(g)'") }
            options.geometry = geometry
        }
        if let f = args.value("--format") {
            guard let format = BatchOutputFormat(rawValue: f) else { throw CommandError.usage("--format must be ndjson or csv, not '\(f)'") }
            options.format = format
        }
        options.steps = args.has("--steps")
        _ = try RouteCommand.parseTimeZone(args.value("--time-zone"))
        if let mode = args.value("--mode") {
            guard let type = TransportType(name: mode) else { throw CommandError.usage("--mode must be car, foot or transit, not '\(mode)'") }
            options.defaultMode = type == .transit ? "transit" : type.profileName
        }
        // The form of --depart is checked now; it is read in the map's zone once the map is open.
        if let d = args.value("--depart") { _ = try RouteCommand.parseDate(d, option: "--depart", timeZone: .current) }
        if let text = args.value("--max-snap") {
            options.maximumSnappingDistance = try RouteCommand.parseMaxSnap(text)
        }
        if let s = args.value("--shard") {
            let parts = s.split(separator: "/")
            guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 1_000_000, k >= 1, k <= n else {
                throw CommandError.usage("--shard must be K/N with 1 ≤ K ≤ N ≤ 1000000 (e.g. 2/4), not '\(s)'")
            }
            options.shard = (k, n)
        }
        if let refusal = OutputPath.refusal(output) { throw CommandError(message: refusal, exitCode: ExitCode.outputFailed) }

        // Everything that can fail before any work: places, input, graph, output.
        var places = PlaceBook()
        if let p = args.value("--places") {
            do { places = try PlaceBook(contentsOfFile: p, limits: limits) } catch { throw CommandError(message: "\(error)", exitCode: ExitCode.badInput) }
        }
        let map = try CommandMap.open(graphPath)
        // Dates without an offset, in jobs and --depart, are read in --time-zone, else the map's own zone (its
        // timetable's when it has one), as every other command reads them.
        options.timeZone = try RouteCommand.timeZone(args, map: map)
        if let d = args.value("--depart") { options.defaultDeparture = try RouteCommand.parseDate(d, option: "--depart", timeZone: options.timeZone) }
        let reader: JobReader
        do {
            reader = try JobReader(path: input, places: places, resolver: StopResolver(map: map, strictNames: args.has("--strict-names")),
                                   timeZone: options.timeZone, limits: limits)
        } catch {
            throw CommandError(message: "\(error)", exitCode: ExitCode.badInput)
        }
        var done: [String] = []
        var needHeader = true
        if args.has("--resume") && FileManager.default.fileExists(atPath: output) {
            do {
                let found = try ResumeScanner.scan(path: output, options: options)
                done = found.ids; needHeader = !found.hasHeader
                if let dropped = found.dropped {
                    FileHandle.standardError.write(Data("batch: --resume: \(output) cut at line \(dropped.line): \(dropped.reason); routing from there\n".utf8))
                }
            } catch { throw CommandError(message: "\(error)", exitCode: ExitCode.outputFailed) }
        }
        let writer: RowWriter
        do { writer = try RowWriter(path: output, truncate: !args.has("--resume")) } catch {
            throw CommandError(message: "\(error)", exitCode: ExitCode.outputFailed)
        }
        if needHeader, let header = BatchRowFormatter(options: options).header {
            do { try writer.write(header) } catch { throw CommandError(message: "\(error)", exitCode: ExitCode.outputFailed) }
        }

        let progress = TerminalProgress(quiet: args.has("--quiet") || args.has("-q"))
        // The number of jobs to route, estimated up front for "time left" (only on a terminal, only for a regular file).
        var total: Int? = nil
        if progress.enabled, let lines = estimatedJobLines(path: input) {
            var jobs = lines - (reader.format == .csv ? 1 : 0) - done.count
            if let shard = options.shard { jobs = (jobs + shard.n - 1) / shard.n }
            total = max(jobs, 0)
        }
        let runner = BatchRunner(map: map, options: options)
        let summary: BatchSummary
        do {
            summary = try runner.run(reader: reader, writer: writer, done: done) { done in
                let elapsed = progress.elapsed
                let rate = Double(done) / max(elapsed, 1e-3)
                let rateText = String(format: "%.0f", rate)
                if let total, total > 0 {
                    let shown = max(total, done)
                    let left = done > 0 ? Double(shown - done) / rate : .infinity
                    progress.show("batch \(TerminalProgress.bar(Double(done) / Double(shown))) \(Format.count(done))/\(Format.count(shown)) jobs, \(rateText) jobs/s, left \(Format.duration(left))")
                } else {
                    progress.show("batch \(Format.count(done)) jobs, \(rateText) jobs/s, elapsed \(Format.duration(elapsed))")
                }
            }
        } catch { throw CommandError(message: "\(error)", exitCode: ExitCode.outputFailed) }
        progress.finish()
        let jobCount = summary.ok + summary.failed
        var line = "batch: \(Format.count(jobCount)) job\(jobCount == 1 ? "" : "s"), \(Format.count(summary.ok)) ok, \(Format.count(summary.failed)) failed"
        if summary.skipped > 0 { line += ", \(Format.count(summary.skipped)) already done (--resume)" }
        line += String(format: " in %.1f s", progress.elapsed)
        FileHandle.standardError.write(Data((line + "\n").utf8))
        if summary.failed > 0 { exit(someJobsFailed) }
    }

    /// The non-blank lines of `path` when it is a regular file (nil for standard input, pipes, devices or on a read
    /// error): a quick scan in 1 MB chunks, used only to estimate the jobs for the progress line. A quoted CSV field
    /// spanning lines counts each of its lines, so this is an estimate.
    static func estimatedJobLines(path: String) -> Int? {
        var info = stat()
        guard path != "-", stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let size = 1 << 20
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        defer { buffer.deallocate() }
        var lines = 0
        var lineHasContent = false
        while true {
            let n = read(fd, buffer, size)
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { break }
            for i in 0..<n {
                switch buffer[i] {
                case 0x0A:
                    if lineHasContent { lines += 1 }
                    lineHasContent = false
                case 0x20, 0x09, 0x0D: break
                default: lineHasContent = true
                }
            }
        }
        if lineHasContent { lines += 1 }
        return lines
    }
}

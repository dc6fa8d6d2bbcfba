import Batch
import Foundation

/// `wayfinder merge`: reunites the outputs of `batch --shard` runs in the job file's order.
enum MergeCommand {
    static let usage = """
    usage: wayfinder merge --input JOBS [--format ndjson|csv] OUT1 OUT2 … -o MERGED

    Writes the rows of the shard outputs in the order of the jobs in JOBS (by id), as one run would have written them.

      -i, --input JOBS     the job file the shards were run from (wayfinder batch --shard K/N)
      OUT1 OUT2 …          the shard outputs
      --format F           ndjson or csv (default: told from the shard outputs, a CSV header line id,status,…)
      -o, --output MERGED  the merged output
    """

    static func run(_ arguments: [String]) throws {
        let args = try ArgumentList(arguments, valued: ["--input", "-i", "--output", "-o", "--format", "--places", "--time-zone"], switches: ["-h", "--help"])
        if args.has("-h") || args.has("--help") { print(usage); return }
        guard let input = args.value("--input") ?? args.value("-i") else { throw CommandError.usage("--input JOBS is required\n\n\(usage)") }
        guard let output = args.value("--output") ?? args.value("-o") else { throw CommandError.usage("-o MERGED is required\n\n\(usage)") }
        guard !args.positionals.isEmpty else { throw CommandError.usage("give the shard outputs to merge\n\n\(usage)") }
        // The rows of each id in shard order: jobs with the same id hash to the same shard, and each takes the
        // first row left for its id (so duplicate ids keep their rows, in order).
        var rows: [String: [String]] = [:]
        var left = 0
        var header: String? = nil
        for path in args.positionals {
            guard let data = FileManager.default.contents(atPath: path) else { throw CommandError(message: "cannot read \(path)", exitCode: ExitCode.badInput) }
            let bytes = [UInt8](data)
            if !bytes.isEmpty && bytes.last != UInt8(ascii: "\n") { throw CommandError(message: "\(path) ends with a torn row: finish it with batch --resume first", exitCode: ExitCode.badInput) }
            let format: BatchOutputFormat = bytes.starts(with: Array("id,status,".utf8)) || args.value("--format") == "csv" ? .csv : .ndjson
            for (index, record) in ResumeScanner.records(bytes, format: format).enumerated() {
                if format == .csv && index == 0 { header = record.text + "\n"; continue }
                if record.text.isEmpty { continue }
                guard let id = ResumeScanner.rowID(record.text, format: format) else { throw CommandError(message: "\(path): a row without an id: \(record.text.prefix(60))", exitCode: ExitCode.badInput) }
                rows[id, default: []].append(record.text + "\n")
                left += 1
            }
        }
        let reader: JobReader
        do { reader = try JobReader(path: input, limits: .largest) } catch { throw CommandError(message: "\(error)", exitCode: ExitCode.badInput) }
        let writer: RowWriter
        do { writer = try RowWriter(path: output, truncate: true) } catch { throw CommandError(message: "\(error)", exitCode: ExitCode.outputFailed) }
        var missing = 0, written = 0
        do {
            if let header { try writer.write(header) }
            while let item = reader.next() {
                if let row = rows[item.id]?.first {
                    rows[item.id]!.removeFirst()
                    try writer.write(row); written += 1; left -= 1
                } else { missing += 1 }
            }
            writer.sync()
        } catch { throw CommandError(message: "\(error)", exitCode: ExitCode.outputFailed) }
        FileHandle.standardError.write(Data("merge: \(written) rows written, \(missing) jobs without a row, \(left) rows not in the input\n".utf8))
        if missing > 0 { throw CommandError(message: "\(missing) jobs of \(input) have no row in the shard outputs", exitCode: ExitCode.badInput) }
    }
}

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
        var rows: [String: String] = [:]
        var header: String? = nil
        for path in args.positionals {
            guard let data = FileManager.default.contents(atPath: path) else { throw CommandError(message: "cannot read \(path)", exitCode: ExitCode.badInput) }
            var text = String(decoding: data, as: UTF8.self)
            if !text.isEmpty && !text.hasSuffix("\n") { throw CommandError(message: "\(path) ends with a torn row: finish it with batch --resume first", exitCode: ExitCode.badInput) }
            if text.hasPrefix("id,status,") || args.value("--format") == "csv" {
                let end = text.firstIndex(of: "\n") ?? text.endIndex
                header = String(text[..<end]) + "\n"
                text = String(text[text.index(after: end)...])
            }
            let format: BatchOutputFormat = header == nil ? .ndjson : .csv
            for line in text.split(separator: "\n") {
                guard let id = ResumeScanner.rowID(String(line), format: format) else { throw CommandError(message: "\(path): a row without an id: \(line.prefix(60))", exitCode: ExitCode.badInput) }
                rows[id] = String(line) + "\n"
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
                if let row = rows.removeValue(forKey: item.id) { try writer.write(row); written += 1 } else { missing += 1 }
            }
            writer.sync()
        } catch { throw CommandError(message: "\(error)", exitCode: ExitCode.outputFailed) }
        FileHandle.standardError.write(Data("merge: \(written) rows written, \(missing) jobs without a row, \(rows.count) rows not in the input\n".utf8))
        if missing > 0 { throw CommandError(message: "\(missing) jobs of \(input) have no row in the shard outputs", exitCode: ExitCode.badInput) }
    }
}

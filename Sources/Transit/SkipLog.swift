/// Counts the rows and trips an import skips, by reason, keeping a few examples (file and line) of each.
struct SkipLog {
    private var order: [String] = []
    private var entries: [String: TransitMetadata.Skipped] = [:]
    static let examplesKept = 3

    /// Records one skipped row or trip.
    mutating func skip(_ reason: String, _ example: String) {
        if entries[reason] == nil { order.append(reason); entries[reason] = TransitMetadata.Skipped(reason: reason, count: 0, examples: []) }
        entries[reason]!.count += 1
        if entries[reason]!.examples.count < Self.examplesKept { entries[reason]!.examples.append(example) }
    }

    /// The reasons in the order first met.
    var all: [TransitMetadata.Skipped] { order.map { entries[$0]! } }
}

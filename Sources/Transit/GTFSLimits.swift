import Foundation

/// What reading one GTFS feed may cost at most, so that a hostile or corrupt feed (a zip bomb, a central directory
/// that lies about sizes, a file of endless rows) ends in a clear error instead of exhausting memory. Sizes declared
/// by a zip are never trusted for allocation: members inflate into buffers that grow as output arrives, up to these
/// caps. Every limit can be raised (`wayfinder import --gtfs-max-member-size`, `--gtfs-max-ratio`, `--gtfs-max-rows`).
public struct GTFSLimits: Sendable, Equatable {
    /// Largest file of a feed once uncompressed (a zip member, or a file of a feed folder), bytes.
    ///
    /// The default, 4 GiB, is also the most this reader takes: a zip member without ZIP64 cannot declare more
    /// (4 GiB − 1), and the CSV reader addresses a file with 32-bit offsets. National feeds fit: the largest
    /// `stop_times.txt` of a country-wide feed we know of that is not ZIP64 (DELFI, Germany, ~330 MB zipped) is a
    /// few GB; the UK's aggregated feed (5.5 GB of stop times) needs ZIP64 sizes and more than this reader takes.
    public var maxFileBytes: Int = GTFSLimits.largestFileBytes
    /// Largest ratio of a zip member's uncompressed to compressed size, for members that inflate to more than
    /// `ratioFloorBytes`. Real feeds compress 3:1 to 20:1 (the bundled feed's stop_times.txt 11:1); a zip bomb
    /// reaches deflate's limit of about 1,032:1. A higher limit than that only lets through directories that lie
    /// about sizes (they fail anyway, when the member inflates to less than declared).
    public var maxCompressionRatio: Int = 100
    /// Most records (rows after the header) of one file. The default, 100 million, is above the 59 million stop
    /// times of the largest feed we know of (the UK's buses, 2025).
    public var maxRows: Int = 100_000_000

    /// The most `maxFileBytes` may be: 4 GiB.
    public static let largestFileBytes = 1 << 32
    /// The ranges each limit may be set to (the CLI checks them; the reader clamps nothing).
    public static let fileBytesRange = 1024...largestFileBytes
    public static let compressionRatioRange = 2...100_000
    public static let rowsRange = 1...2_000_000_000
    /// Members that inflate to at most this many bytes (16 MiB) are not checked for their compression ratio:
    /// small, repetitive files (calendar_dates.txt) may compress very well, and bound what a bomb can cost anyway.
    public static let ratioFloorBytes = 16 << 20
    /// Most columns of a file's header row.
    public static let maxColumns = 10_000

    /// The defaults above unless given.
    public init(maxFileBytes: Int = GTFSLimits.largestFileBytes, maxCompressionRatio: Int = 100, maxRows: Int = 100_000_000) {
        self.maxFileBytes = maxFileBytes
        self.maxCompressionRatio = maxCompressionRatio
        self.maxRows = maxRows
    }

    /// An exact byte count, with its size in words from 1 KiB on: "123 bytes", "50331625 bytes (48.0 MiB)".
    static func describe(_ n: Int) -> String { n < 1024 ? "\(n) bytes" : "\(n) bytes (\(bytes(n)))" }

    /// Bytes in words: "4 GiB", "64 MiB", "1.5 KiB", "123 bytes".
    static func bytes(_ n: Int) -> String {
        for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] where n >= 1 << shift {
            let value = Double(n) / Double(1 << shift)
            return value == value.rounded() ? "\(Int(value)) \(unit)" : String(format: "%.1f %@", value, unit)
        }
        return "\(n) bytes"
    }
}

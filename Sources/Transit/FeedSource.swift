import Foundation

/// Where a GTFS feed's files come from: a zip archive or a folder holding the `.txt` files.
public struct FeedSource {
    /// The path as the user gave it (for messages).
    public let path: String
    /// What reading the feed's files may cost (size, compression ratio, rows).
    public let limits: GTFSLimits
    private let archive: ZipArchive?

    /// Opens a feed: a folder is read file by file, anything else as a zip archive.
    public init(path: String, limits: GTFSLimits = GTFSLimits()) throws(GTFSError) {
        self.path = path
        self.limits = limits
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw .cannotRead(path: path, message: "no such file or folder")
        }
        archive = isFolder.boolValue ? nil : try ZipArchive(path: path, limits: limits)
    }

    /// The bytes of file `name` (e.g. "stops.txt"), or nil when the feed has no such file.
    public func contents(of name: String) throws(GTFSError) -> [UInt8]? {
        if let archive { return try archive.contents(of: name) }
        let file = (path as NSString).appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        var info = stat()
        if stat(file, &info) == 0, Int(info.st_size) > limits.maxFileBytes {
            throw .limitExceeded(feed: path, file: name, message: "it has \(GTFSLimits.describe(Int(info.st_size))), more than the \(GTFSLimits.bytes(limits.maxFileBytes)) a feed file may have (raise it with import --gtfs-max-member-size)")
        }
        guard let data = FileManager.default.contents(atPath: file) else { throw .cannotRead(path: file, message: "cannot open the file") }
        return [UInt8](data)
    }

    /// File `name` parsed as CSV, or nil when absent.
    public func table(_ name: String) throws(GTFSError) -> CSVTable? {
        guard let bytes = try contents(of: name) else { return nil }
        return try CSVTable(bytes: bytes, feed: path, file: name, maxRows: limits.maxRows)
    }

    /// File `name` parsed as CSV; throws naming the file when the feed lacks it.
    public func requiredTable(_ name: String) throws(GTFSError) -> CSVTable {
        guard let table = try table(name) else { throw .missingFile(feed: path, file: name) }
        return table
    }
}

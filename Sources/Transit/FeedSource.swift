import Foundation

/// Where a GTFS feed's files come from: a zip archive or a folder holding the `.txt` files.
public struct FeedSource {
    /// The path as the user gave it (for messages).
    public let path: String
    private let archive: ZipArchive?

    /// Opens a feed: a folder is read file by file, anything else as a zip archive.
    public init(path: String) throws(GTFSError) {
        self.path = path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw .cannotRead(path: path, message: "no such file or folder")
        }
        archive = isFolder.boolValue ? nil : try ZipArchive(path: path)
    }

    /// The bytes of file `name` (e.g. "stops.txt"), or nil when the feed has no such file.
    public func contents(of name: String) throws(GTFSError) -> [UInt8]? {
        if let archive { return try archive.contents(of: name) }
        let file = (path as NSString).appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        guard let data = FileManager.default.contents(atPath: file) else { throw .cannotRead(path: file, message: "cannot open the file") }
        return [UInt8](data)
    }

    /// File `name` parsed as CSV, or nil when absent.
    public func table(_ name: String) throws(GTFSError) -> CSVTable? {
        guard let bytes = try contents(of: name) else { return nil }
        return try CSVTable(bytes: bytes, feed: path, file: name)
    }

    /// File `name` parsed as CSV; throws naming the file when the feed lacks it.
    public func requiredTable(_ name: String) throws(GTFSError) -> CSVTable {
        guard let table = try table(name) else { throw .missingFile(feed: path, file: name) }
        return table
    }
}

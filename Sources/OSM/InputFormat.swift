/// How an input's bytes are packed, told from its first bytes rather than its name.
public enum InputCompression: String, Sendable {
    case none = "plain XML", gzip, bzip2
    /// OSM PBF: blocks of protobuf (read by `OSMPBFReader`, not as an XML stream).
    case pbf = "OSM PBF"

    /// Tells the compression from the leading bytes; throws for known formats this reader does not take.
    public static func detect(_ head: [UInt8], name: String) throws(OSMReadError) -> InputCompression {
        if head.isEmpty { throw .empty(name: name) }
        if head.starts(with: [0x1f, 0x8b]) { return .gzip }
        if head.starts(with: [0x42, 0x5a, 0x68]) { return .bzip2 } // "BZh"
        if head.starts(with: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]) {
            throw .unsupportedFormat(name: name, message: "xz-compressed input is not supported; use plain, gzip or bzip2 (e.g. `xz -dc FILE | wayfinder import - -o OUT`)")
        }
        if head.starts(with: [0x28, 0xb5, 0x2f, 0xfd]) {
            throw .unsupportedFormat(name: name, message: "zstd-compressed input is not supported; use plain, gzip or bzip2 (e.g. `zstd -dc FILE | wayfinder import - -o OUT`)")
        }
        if head.count >= 13, head[4...].starts(with: Array("\n\u{09}OSMHeader".utf8)) || head[6...].starts(with: Array("OSMHeader".utf8)) {
            return .pbf
        }
        if head.starts(with: [0x50, 0x4b, 0x03, 0x04]) {
            throw .unsupportedFormat(name: name, message: "this is a zip archive, not OSM XML (GTFS feeds go after --gtfs)")
        }
        return .none
    }
}

/// An opened OSM input: the decompressed byte stream plus the raw file for progress figures.
public struct OSMInput {
    /// Decompressed XML bytes (for PBF, the file's bytes as they are: `OSMPBFReader` reads them).
    public let source: ByteSource
    /// The underlying file, counting raw bytes read against the file size.
    public let file: FileByteSource
    /// The compression found from the first bytes.
    public let compression: InputCompression

    /// Opens `path` ("-" for standard input) and picks the decompressor from its first bytes.
    public init(path: String) throws(OSMReadError) {
        let file = try FileByteSource(path: path)
        let head = try file.peek(16)
        let compression = try InputCompression.detect(head, name: file.name)
        self.file = file
        self.compression = compression
        switch compression {
        case .none, .pbf: source = file
        case .gzip: source = PrefetchingByteSource(upstream: try GzipByteSource(input: file, name: file.name))
        case .bzip2: source = PrefetchingByteSource(upstream: try Bzip2ByteSource(input: file, name: file.name))
        }
    }
}

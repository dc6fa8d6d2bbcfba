/// Why OSM input could not be read, with where it went wrong.
public enum OSMReadError: Error, Equatable, CustomStringConvertible {
    /// The file could not be opened or read.
    case io(path: String, message: String)
    /// The input has no bytes at all.
    case empty(name: String)
    /// The compressed stream is damaged or ends early.
    case corruptCompression(name: String, format: String, message: String)
    /// The input is in a format this reader does not take (xz, zstd…).
    case unsupportedFormat(name: String, message: String)
    /// libexpat rejected the XML.
    case malformedXML(name: String, line: Int, column: Int, message: String)
    /// Well-formed XML, but not an OSM document.
    case notOSM(name: String, message: String)
    /// An element lacks a required attribute or has one that does not parse.
    case badElement(name: String, line: Int, column: Int, message: String)
    /// An OSM PBF blob (starting at byte `offset` of the file) is damaged, truncated or uses what this reader lacks.
    case badPBF(name: String, offset: Int64, message: String)

    public var description: String {
        switch self {
        case let .io(path, message): return "cannot read \(path): \(message)"
        case let .empty(name): return "\(name) is empty: expected OSM XML (.osm, .osm.gz or .osm.bz2) or OSM PBF (.osm.pbf)"
        case let .corruptCompression(name, format, message): return "\(name): \(format) stream is corrupt or truncated: \(message)"
        case let .unsupportedFormat(name, message): return "\(name): \(message)"
        case let .malformedXML(name, line, column, message): return "\(name):\(line):\(column): malformed XML: \(message)"
        case let .notOSM(name, message): return "\(name) is not an OSM XML file: \(message)"
        case let .badElement(name, line, column, message): return "\(name):\(line):\(column): \(message)"
        case let .badPBF(name, offset, message): return "\(name): OSM PBF blob at byte \(offset): \(message)"
        }
    }
}

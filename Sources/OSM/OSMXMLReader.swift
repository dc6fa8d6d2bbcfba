import CExpat
#if canImport(Glibc)
import Glibc
#endif

/// Streams OSM XML through libexpat and hands each node, way and relation to a handler.
///
/// The document is never held in memory: bytes go from the source straight into expat's buffer.
public final class OSMXMLReader {
    /// Elements seen so far, for progress reports.
    @exclusivity(unchecked) public private(set) var nodeCount = 0
    @exclusivity(unchecked) public private(set) var wayCount = 0
    @exclusivity(unchecked) public private(set) var relationCount = 0
    /// Decompressed XML bytes parsed so far.
    @exclusivity(unchecked) public private(set) var xmlBytes: Int64 = 0
    /// Nodes, ways and relations skipped because they are marked deleted (`visible="false"` or `action="delete"`).
    @exclusivity(unchecked) public private(set) var deletedCount = 0

    private let source: ByteSource
    private let name: String
    private let handler: OSMElementHandler
    @exclusivity(unchecked) private var parser: XML_Parser?
    @exclusivity(unchecked) private var failure: OSMReadError?

    // Parse state.
    @exclusivity(unchecked) private var depth = 0
    @exclusivity(unchecked) private var sawRoot = false
    private enum Current { case none, node, way, relation, skipped }
    @exclusivity(unchecked) private var current = Current.none
    @exclusivity(unchecked) private var node = OSMNode(id: 0, latitudeE7: 0, longitudeE7: 0)
    @exclusivity(unchecked) private var way = OSMWay(id: 0)
    @exclusivity(unchecked) private var relation = OSMRelation(id: 0)
    @exclusivity(unchecked) private var tags: [OSMTag] = []

    /// Prepares to read `source` (named `name` in errors), calling `handler` for every element.
    public init(source: ByteSource, name: String, handler: OSMElementHandler) {
        self.source = source
        self.name = name
        self.handler = handler
    }

    /// Start and end tags seen so far (the guard against one endless token counts input between them).
    @exclusivity(unchecked) private var tagEvents = 0

    /// Reads the whole stream; `progress` is called after every chunk of input. More than `maximumTokenBytes` of
    /// input without a tag starting or ending is refused as malformed: no OSM element is that long, and expat
    /// (2.5) rescans an unfinished token with every chunk, so one endless attribute would take quadratic time.
    public func read(chunkSize: Int = 1 << 20, maximumTokenBytes: Int = 64 << 20,
                     progress: (OSMXMLReader) -> Void = { _ in }) throws(OSMReadError) {
        guard let parser = XML_ParserCreate(nil) else { throw .io(path: name, message: "cannot create XML parser") }
        self.parser = parser
        defer { XML_ParserFree(parser); self.parser = nil }
        XML_SetUserData(parser, Unmanaged.passUnretained(self).toOpaque())
        XML_SetElementHandler(parser, { user, name, attributes in
            let reader = Unmanaged<OSMXMLReader>.fromOpaque(user!).takeUnretainedValue()
            reader.tagEvents &+= 1
            reader.startElement(name!, attributes!)
        }, { user, name in
            let reader = Unmanaged<OSMXMLReader>.fromOpaque(user!).takeUnretainedValue()
            reader.tagEvents &+= 1
            reader.endElement(name!)
        })
        var total: Int64 = 0
        var bytesWithoutTag = 0
        while true {
            guard let buffer = XML_GetBuffer(parser, Int32(chunkSize)) else {
                throw .io(path: name, message: "out of memory for the XML buffer")
            }
            let count = try source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: chunkSize))
            if count == 0 && total == 0 { throw .empty(name: name) }
            total += Int64(count)
            let eventsBefore = tagEvents
            let status = XML_ParseBuffer(parser, Int32(count), count == 0 ? 1 : 0)
            bytesWithoutTag = tagEvents == eventsBefore ? bytesWithoutTag + count : 0
            if bytesWithoutTag > maximumTokenBytes && failure == nil && status == XML_STATUS_OK {
                let (line, column) = position()
                throw .malformedXML(name: name, line: line, column: column,
                                    message: "more than \(maximumTokenBytes >> 20) MiB without a tag starting or ending (no OSM element is that long)")
            }
            xmlBytes = total
            if let failure { throw failure }
            if status != XML_STATUS_OK {
                let code = XML_GetErrorCode(parser)
                let message = XML_ErrorString(code).map { String(cString: $0) } ?? "error \(code.rawValue)"
                let line = Int(XML_GetCurrentLineNumber(parser))
                let column = Int(XML_GetCurrentColumnNumber(parser)) + 1
                if !sawRoot && code == XML_ERROR_NO_ELEMENTS {
                    throw .notOSM(name: name, message: "no XML element found")
                }
                if !sawRoot && code == XML_ERROR_SYNTAX || code == XML_ERROR_INVALID_TOKEN && !sawRoot {
                    throw .notOSM(name: name, message: "not XML (\(message) at line \(line), column \(column))")
                }
                if code == XML_ERROR_NO_ELEMENTS && count == 0 {
                    throw .malformedXML(name: name, line: line, column: column, message: "the document ends before </osm> (truncated file?)")
                }
                throw .malformedXML(name: name, line: line, column: column, message: message)
            }
            progress(self)
            if count == 0 { break }
        }
        if !sawRoot { throw .notOSM(name: name, message: "no <osm> element") }
    }

    private func fail(_ error: OSMReadError) {
        if failure == nil { failure = error }
        if let parser { XML_StopParser(parser, XML_FALSE) }
    }

    private func position() -> (Int, Int) {
        guard let parser else { return (0, 0) }
        return (Int(XML_GetCurrentLineNumber(parser)), Int(XML_GetCurrentColumnNumber(parser)) + 1)
    }

    private func badElement(_ message: String) {
        let (line, column) = position()
        fail(.badElement(name: name, line: line, column: column, message: message))
    }

    @inline(__always)
    private static func equals(_ a: UnsafePointer<CChar>, _ b: StaticString) -> Bool {
        b.withUTF8Buffer { bytes in
            var i = 0
            while i < bytes.count {
                if UInt8(bitPattern: a[i]) != bytes[i] { return false }
                i += 1
            }
            return a[i] == 0
        }
    }

    private func startElement(_ element: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        depth += 1
        if depth == 1 {
            sawRoot = true
            if !Self.equals(element, "osm") {
                fail(.notOSM(name: name, message: "the root element is <\(String(cString: element))>, expected <osm>"))
            }
            return
        }
        if depth == 2 {
            if Self.equals(element, "node") { startNode(attributes) }
            else if Self.equals(element, "way") { startWay(attributes) }
            else if Self.equals(element, "relation") { startRelation(attributes) }
            else { current = .none }
            return
        }
        if depth == 3 {
            switch current {
            case .none, .skipped: return
            default: break
            }
            if Self.equals(element, "tag") {
                var key: UnsafePointer<CChar>? = nil, value: UnsafePointer<CChar>? = nil
                var i = 0
                while let attribute = attributes[i] {
                    if Self.equals(attribute, "k") { key = attributes[i + 1] } else if Self.equals(attribute, "v") { value = attributes[i + 1] }
                    i += 2
                }
                guard let key, let value else { return badElement("<tag> needs both k and v attributes") }
                tags.append(OSMTag(key: String(cString: key), value: String(cString: value)))
            } else if Self.equals(element, "nd"), case .way = current {
                var i = 0
                while let attribute = attributes[i] {
                    if Self.equals(attribute, "ref") {
                        guard let ref = OSMNumberParsing.parseInt64(attributes[i + 1]!) else {
                            return badElement("way \(way.id): <nd ref=\"\(String(cString: attributes[i + 1]!))\"> is not an integer")
                        }
                        way.nodeIDs.append(ref)
                        return
                    }
                    i += 2
                }
                badElement("way \(way.id): <nd> without ref")
            } else if Self.equals(element, "member"), case .relation = current {
                var type: OSMElementType? = nil, ref: Int64? = nil, role = ""
                var i = 0
                while let attribute = attributes[i] {
                    let value = attributes[i + 1]!
                    if Self.equals(attribute, "type") {
                        if Self.equals(value, "node") { type = .node } else if Self.equals(value, "way") { type = .way } else if Self.equals(value, "relation") { type = .relation }
                    } else if Self.equals(attribute, "ref") {
                        ref = OSMNumberParsing.parseInt64(value)
                    } else if Self.equals(attribute, "role") {
                        role = String(cString: value)
                    }
                    i += 2
                }
                guard let type, let ref else { return badElement("relation \(relation.id): <member> needs a type of node, way or relation and an integer ref") }
                relation.members.append(OSMMember(type: type, ref: ref, role: role))
            }
        }
    }

    /// Reads id and the deletion markers shared by all three element kinds.
    private func commonAttributes(_ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>, kind: String) -> (id: Int64, deleted: Bool)? {
        var id: Int64? = nil
        var deleted = false
        var i = 0
        while let attribute = attributes[i] {
            let value = attributes[i + 1]!
            if Self.equals(attribute, "id") {
                guard let parsed = OSMNumberParsing.parseInt64(value) else {
                    badElement("<\(kind) id=\"\(String(cString: value))\">: id is not an integer")
                    return nil
                }
                id = parsed
            } else if Self.equals(attribute, "visible") {
                deleted = Self.equals(value, "false")
            } else if Self.equals(attribute, "action") {
                if Self.equals(value, "delete") { deleted = true }
            }
            i += 2
        }
        guard let id else { badElement("<\(kind)> without id"); return nil }
        return (id, deleted)
    }

    private func startNode(_ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        current = .skipped
        guard let (id, deleted) = commonAttributes(attributes, kind: "node") else { return }
        if deleted { deletedCount += 1; return }
        var lat: Int64? = nil, lon: Int64? = nil
        var latText: UnsafePointer<CChar>? = nil, lonText: UnsafePointer<CChar>? = nil
        var i = 0
        while let attribute = attributes[i] {
            let value = attributes[i + 1]!
            if Self.equals(attribute, "lat") { lat = OSMNumberParsing.parseFixed7(value); latText = value }
            else if Self.equals(attribute, "lon") { lon = OSMNumberParsing.parseFixed7(value); lonText = value }
            i += 2
        }
        guard latText != nil, lonText != nil else { return badElement("node \(id) has no lat/lon") }
        guard let lat, let lon, abs(lat) <= 900_000_000, abs(lon) <= 1_800_000_000 else {
            return badElement("node \(id) has an invalid coordinate lat=\"\(String(cString: latText!))\" lon=\"\(String(cString: lonText!))\"")
        }
        node.id = id
        node.latitudeE7 = Int32(lat)
        node.longitudeE7 = Int32(lon)
        current = .node
    }

    private func startWay(_ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        current = .skipped
        guard let (id, deleted) = commonAttributes(attributes, kind: "way") else { return }
        if deleted { deletedCount += 1; return }
        way.id = id
        way.nodeIDs.removeAll(keepingCapacity: true)
        current = .way
    }

    private func startRelation(_ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>) {
        current = .skipped
        guard let (id, deleted) = commonAttributes(attributes, kind: "relation") else { return }
        if deleted { deletedCount += 1; return }
        relation.id = id
        relation.members.removeAll(keepingCapacity: true)
        current = .relation
    }

    private func endElement(_ element: UnsafePointer<CChar>) {
        defer { depth -= 1 }
        guard depth == 2 else { return }
        switch current {
        case .node:
            nodeCount += 1
            node.tags = tags
            handler.handle(node: node)
        case .way:
            wayCount += 1
            way.tags = tags
            handler.handle(way: way)
        case .relation:
            relationCount += 1
            relation.tags = tags
            handler.handle(relation: relation)
        case .none, .skipped:
            break
        }
        if !tags.isEmpty { tags.removeAll(keepingCapacity: true) }
        node.tags = []
        way.tags = []
        relation.tags = []
        current = .none
    }
}

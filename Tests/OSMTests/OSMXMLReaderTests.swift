import OSM
import XCTest

/// `OSMXMLReader`: elements, tags, deletions, errors with positions, and chunk boundaries.
final class OSMXMLReaderTests: XCTestCase {
    static let sample = """
    <?xml version="1.0" encoding="UTF-8"?>
    <osm version="0.6" generator="hand-written test">
      <bounds minlat="49.40" minlon="8.67" maxlat="49.42" maxlon="8.70"/>
      <node id="1" version="3" lat="49.4123456" lon="8.6912345" user="x &amp; y" uid="5"/>
      <node id="2" lat="-33.8688197" lon="151.2092955">
        <tag k="name" v="Café &quot;Zur Brücke&quot; &lt;1&gt;"/>
        <tag k="amenity" v="cafe"/>
      </node>
      <node id="-17" lat="0" lon="-0.5"/>
      <way id="10" visible="true">
        <nd ref="1"/>
        <nd ref="2"/>
        <nd ref="-17"/>
        <nd ref="1"/>
        <tag k="highway" v="residential"/>
        <tag k="name" v="Hauptstraße"/>
      </way>
      <way id="11">
        <nd ref="2"/>
        <nd ref="1"/>
      </way>
      <relation id="100">
        <member type="way" ref="10" role="from"/>
        <member type="node" ref="2" role="via"/>
        <member type="way" ref="11" role="to"/>
        <member type="relation" ref="-3" role=""/>
        <member type="node" ref="1"/>
        <tag k="type" v="restriction"/>
        <tag k="restriction" v="no_left_turn"/>
      </relation>
      <relation id="101"/>
    </osm>

    """

    static let expected: [Recorder.Element] = [
        .node(OSMNode(id: 1, latitudeE7: 494_123_456, longitudeE7: 86_912_345)),
        .node(OSMNode(id: 2, latitudeE7: -338_688_197, longitudeE7: 1_512_092_955,
                      tags: [OSMTag(key: "name", value: "Café \"Zur Brücke\" <1>"), OSMTag(key: "amenity", value: "cafe")])),
        .node(OSMNode(id: -17, latitudeE7: 0, longitudeE7: -5_000_000)),
        .way(OSMWay(id: 10, nodeIDs: [1, 2, -17, 1],
                    tags: [OSMTag(key: "highway", value: "residential"), OSMTag(key: "name", value: "Hauptstraße")])),
        .way(OSMWay(id: 11, nodeIDs: [2, 1])),
        .relation(OSMRelation(id: 100, members: [
            OSMMember(type: .way, ref: 10, role: "from"), OSMMember(type: .node, ref: 2, role: "via"),
            OSMMember(type: .way, ref: 11, role: "to"), OSMMember(type: .relation, ref: -3, role: ""),
            OSMMember(type: .node, ref: 1, role: ""),
        ], tags: [OSMTag(key: "type", value: "restriction"), OSMTag(key: "restriction", value: "no_left_turn")])),
        .relation(OSMRelation(id: 101)),
    ]

    func testElementsAndTagsComeOutInFileOrder() throws {
        let (recorder, reader) = try parse(Self.sample)
        XCTAssertEqual(recorder.elements, Self.expected)
        XCTAssertEqual(reader.nodeCount, 3)
        XCTAssertEqual(reader.wayCount, 2)
        XCTAssertEqual(reader.relationCount, 2)
        XCTAssertEqual(reader.deletedCount, 0)
        XCTAssertEqual(reader.xmlBytes, Int64(Self.sample.utf8.count))
        XCTAssertEqual(recorder.ways.first?.tags["name"], "Hauptstraße")
        XCTAssertNil(recorder.ways.first?.tags["oneway"])
    }

    func testTheSmallestIdIsAnId() throws {
        let (recorder, _) = try parse("""
        <osm version="0.6"><node id="-9223372036854775808" lat="1" lon="2"/><node id="9223372036854775807" lat="1" lon="2.1"/>
        <way id="-9223372036854775808"><nd ref="-9223372036854775808"/><nd ref="9223372036854775807"/></way></osm>
        """)
        XCTAssertEqual(recorder.elements, [
            .node(OSMNode(id: .min, latitudeE7: 10_000_000, longitudeE7: 20_000_000)),
            .node(OSMNode(id: .max, latitudeE7: 10_000_000, longitudeE7: 21_000_000)),
            .way(OSMWay(id: .min, nodeIDs: [.min, .max])),
        ])
    }

    func testElementsSpreadAcrossChunkBoundariesParseTheSame() throws {
        for chunkSize in [1, 2, 3, 7, 64, 333] {
            let (recorder, reader) = try parse(Self.sample, chunkSize: chunkSize)
            XCTAssertEqual(recorder.elements, Self.expected, "chunk size \(chunkSize)")
            XCTAssertEqual(reader.xmlBytes, Int64(Self.sample.utf8.count))
        }
        // The source may also hand out fewer bytes than asked for.
        let (recorder, _) = try parse(Self.sample, chunkSize: 64, maxPerRead: 5)
        XCTAssertEqual(recorder.elements, Self.expected)
    }

    /// One endless attribute (found by fuzzing: a bzip2 stream of a long run) is refused once it passes the limit,
    /// instead of expat rescanning it with every chunk in quadratic time.
    func testAnEndlessTokenIsRefusedNotRescanned() throws {
        let xml = Array("<osm><node id=\"1\" lat=\"1\" lon=\"2\" note=\"".utf8) + [UInt8](repeating: UInt8(ascii: "M"), count: 3 << 20) + Array("\"/></osm>".utf8)
        let reader = OSMXMLReader(source: MemorySource(xml), name: "long.osm", handler: Recorder())
        let started = Date()
        XCTAssertThrowsError(try reader.read(chunkSize: 1 << 16, maximumTokenBytes: 1 << 20)) { error in
            guard case let .malformedXML(name, line, _, message) = error as? OSMReadError else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "long.osm"); XCTAssertEqual(line, 1)
            XCTAssertTrue(message.contains("without a tag"), message)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 20)
        // Under the limit the same document reads.
        try OSMXMLReader(source: MemorySource(xml), name: "long.osm", handler: Recorder()).read(chunkSize: 1 << 20, maximumTokenBytes: 8 << 20)
    }

    func testProgressIsCalledAsChunksAreRead() throws {
        let reader = OSMXMLReader(source: MemorySource(Self.sample), name: "x", handler: Recorder())
        var calls = 0, lastBytes: Int64 = -1
        try reader.read(chunkSize: 100) { r in
            calls += 1
            XCTAssertGreaterThanOrEqual(r.xmlBytes, lastBytes)
            lastBytes = r.xmlBytes
        }
        XCTAssertGreaterThanOrEqual(calls, Self.sample.utf8.count / 100)
        XCTAssertEqual(lastBytes, Int64(Self.sample.utf8.count))
    }

    func testTagsDoNotLeakBetweenElements() throws {
        let xml = """
        <osm>
          <changeset id="9"><tag k="comment" v="not an element"/></changeset>
          <node id="1" lat="1" lon="1"><tag k="a" v="1"/></node>
          <node id="2" lat="1" lon="1"/>
          <node id="3" lat="1" lon="1" visible="false"><tag k="deleted" v="yes"/></node>
          <way id="4"><nd ref="1"/></way>
          <way id="5" action="delete"><nd ref="9"/><tag k="highway" v="primary"/></way>
          <relation id="6"><member type="way" ref="4" role=""/></relation>
        </osm>
        """
        let (recorder, _) = try parse(xml)
        XCTAssertEqual(recorder.elements, [
            .node(OSMNode(id: 1, latitudeE7: 10_000_000, longitudeE7: 10_000_000, tags: [OSMTag(key: "a", value: "1")])),
            .node(OSMNode(id: 2, latitudeE7: 10_000_000, longitudeE7: 10_000_000)),
            .way(OSMWay(id: 4, nodeIDs: [1])),
            .relation(OSMRelation(id: 6, members: [OSMMember(type: .way, ref: 4, role: "")])),
        ])
    }

    func testDeletedElementsAreSkipped() throws {
        let xml = """
        <osm>
          <node id="1" lat="1" lon="2" visible="false"/>
          <node id="2" visible="false"/>
          <node id="3" lat="1" lon="2" action="delete"/>
          <node id="4" lat="1" lon="2" action="modify" visible="true"/>
          <way id="5" visible="false"><nd ref="1"/></way>
          <way id="6" action="delete"><nd ref="x"/></way>
          <way id="7" action="modify"><nd ref="4"/></way>
          <relation id="8" visible="false"><member type="bogus"/></relation>
          <relation id="9" action="delete"/>
          <relation id="10"/>
        </osm>
        """
        let (recorder, reader) = try parse(xml)
        XCTAssertEqual(recorder.nodes.map(\.id), [4])
        XCTAssertEqual(recorder.ways.map(\.id), [7])
        XCTAssertEqual(recorder.ways.first?.nodeIDs, [4])
        XCTAssertEqual(recorder.relations.map(\.id), [10])
        XCTAssertEqual(reader.deletedCount, 7)
        XCTAssertEqual(reader.nodeCount, 1)
        XCTAssertEqual(reader.wayCount, 1)
        XCTAssertEqual(reader.relationCount, 1)
    }

    func testEmptyOSMDocumentHasNoElements() throws {
        let (recorder, reader) = try parse("<?xml version='1.0'?>\n<osm version='0.6'/>\n")
        XCTAssertTrue(recorder.elements.isEmpty)
        XCTAssertEqual(reader.nodeCount + reader.wayCount + reader.relationCount, 0)
    }

    func testByteOrderMarkIsAccepted() throws {
        let (recorder, _) = try parse("\u{FEFF}<osm><node id='1' lat='1' lon='1'/></osm>")
        XCTAssertEqual(recorder.nodes.map(\.id), [1])
    }

    // MARK: errors

    /// Line and 1-based column of the first occurrence of `marker` in `text`.
    private func position(of marker: String, in text: String) -> (line: Int, column: Int) {
        let lines = text.components(separatedBy: "\n")
        for (i, line) in lines.enumerated() {
            if let range = line.range(of: marker) {
                return (i + 1, line.utf8.distance(from: line.utf8.startIndex, to: range.lowerBound) + 1)
            }
        }
        preconditionFailure("marker \(marker) not in text")
    }

    func testMalformedXMLReportsLineAndColumn() throws {
        let xml = """
        <osm>
          <node id="1" lat="1" lon="2"/>
          <way id="2" & >
          </way>
        </osm>
        """
        let expected = position(of: "&", in: xml)
        XCTAssertEqual(expected.line, 3)
        XCTAssertEqual(expected.column, 15)
        for chunkSize in [1 << 20, 1, 5, 40] {
            let recorder = Recorder()
            guard let error = expectReadError({ try parse(xml, chunkSize: chunkSize, into: recorder, name: "bad.osm") }) else { continue }
            guard case let .malformedXML(name, line, column, message) = error else {
                XCTFail("expected .malformedXML, got \(error)")
                continue
            }
            XCTAssertEqual(name, "bad.osm")
            XCTAssertEqual(line, expected.line, "chunk size \(chunkSize)")
            XCTAssertEqual(column, expected.column, "chunk size \(chunkSize)")
            XCTAssertTrue(message.contains("not well-formed"), message)
            XCTAssertEqual(error.description, "bad.osm:3:15: malformed XML: \(message)")
            XCTAssertEqual(recorder.nodes.map(\.id), [1], "elements before the error are delivered")
        }
    }

    func testMalformedAttributeValuePosition() throws {
        let xml = "<?xml version=\"1.0\"?>\n<osm>\n  <way id=\"3\"><tag k=\"a\" v=\"<\"/></way>\n</osm>\n"
        guard case let .malformedXML(_, line, column, _)? = expectReadError({ try parse(xml) }) else { return XCTFail() }
        XCTAssertEqual(line, 3)
        XCTAssertEqual(column, position(of: "<\"/>", in: xml).column)
    }

    func testMismatchedAndUnclosedTags() throws {
        let mismatched = "<osm>\n  <node id=\"1\" lat=\"1\" lon=\"2\">\n  </way>\n</osm>\n"
        guard case let .malformedXML(_, line, _, message)? = expectReadError({ try parse(mismatched) }) else { return XCTFail() }
        XCTAssertEqual(line, 3)
        XCTAssertTrue(message.contains("mismatched tag"), message)

        let unclosed = "<osm>\n  <node id=\"1\" lat=\"1\" lon=\"2\"/>\n  <way id=\"2\">\n"
        let recorder = Recorder()
        guard case let .malformedXML(_, endLine, _, _)? = expectReadError({ try parse(unclosed, into: recorder) }) else { return XCTFail() }
        XCTAssertEqual(endLine, 4, "a document cut short fails at its end")
        XCTAssertEqual(recorder.nodes.count, 1)
        XCTAssertTrue(recorder.ways.isEmpty, "an unfinished way is not delivered")

        let junk = "<osm><node id=\"1\" lat=\"1\" lon=\"2\"/></osm>\n<osm/>"
        guard case let .malformedXML(_, junkLine, junkColumn, _)? = expectReadError({ try parse(junk) }) else { return XCTFail() }
        XCTAssertEqual(junkLine, 2)
        XCTAssertEqual(junkColumn, 1)
    }

    func testNonOSMRootIsNotOSM() throws {
        let gpx = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>\n"
        guard case let .notOSM(name, message)? = expectReadError({ try parse(gpx, name: "track.gpx") }) else { return XCTFail() }
        XCTAssertEqual(name, "track.gpx")
        XCTAssertTrue(message.contains("<gpx>"), message)
        XCTAssertTrue(message.contains("<osm>"), message)
        // A JOSM change file is not an OSM document either.
        guard case .notOSM? = expectReadError({ try parse("<osmChange version=\"0.6\"><create/></osmChange>") }) else { return XCTFail() }
    }

    func testTextThatIsNotXML() throws {
        let cases = ["hello world\n", "{\"type\": \"FeatureCollection\"}", "\n\nlat,lon\n1,2\n"]
        for text in cases {
            guard let error = expectReadError({ try parse(text, name: "input") }) else { continue }
            switch error {
            case let .notOSM(name, message):
                XCTAssertEqual(name, "input")
                XCTAssertTrue(message.contains("line ") && message.contains("column "), "position missing: \(message)")
            case let .malformedXML(_, line, column, _):
                XCTAssertGreaterThanOrEqual(line, 1)
                XCTAssertGreaterThanOrEqual(column, 1)
            default:
                XCTFail("\(text.debugDescription): expected .notOSM or .malformedXML, got \(error)")
            }
        }
        guard case let .notOSM(_, message)? = expectReadError({ try parse("\n\nlat,lon\n1,2\n") }) else { return XCTFail() }
        XCTAssertTrue(message.contains("line 3, column 1"), message)
    }

    func testWhitespaceOrEmptyInput() throws {
        guard case .notOSM? = expectReadError({ try parse("  \n\n ") }) else { return XCTFail("whitespace only") }
        guard case .notOSM? = expectReadError({ try parse("<?xml version=\"1.0\"?>\n<!-- nothing -->\n") }) else { return XCTFail("no element") }
        XCTAssertEqual(expectReadError { try parse("", name: "void") }, .empty(name: "void"))
    }

    func testNodeWithoutLatitudeIsBadElementAtItsPosition() throws {
        let xml = "<osm>\n  <node id=\"1\" lat=\"1\" lon=\"1\"/>\n    <node id=\"5\" lon=\"8.5\"/>\n</osm>\n"
        for chunkSize in [1 << 20, 3] {
            guard let error = expectReadError({ try parse(xml, chunkSize: chunkSize, name: "n.osm") }) else { continue }
            guard case let .badElement(name, line, column, message) = error else { XCTFail("got \(error)"); continue }
            XCTAssertEqual(name, "n.osm")
            XCTAssertEqual(line, 3)
            XCTAssertEqual(column, 5, "the column of the element's '<'")
            XCTAssertTrue(message.contains("node 5"), message)
            XCTAssertTrue(message.contains("lat"), message)
            XCTAssertTrue(error.description.hasPrefix("n.osm:3:5: "), error.description)
        }
    }

    func testOutOfRangeOrUnparsableCoordinatesAreBadElements() throws {
        let cases: [(String, String)] = [
            ("lat=\"91.0\" lon=\"8\"", "lat=\"91.0\""),
            ("lat=\"-90.0000001\" lon=\"8\"", "lat=\"-90.0000001\""),
            ("lat=\"10\" lon=\"180.0000001\"", "lon=\"180.0000001\""),
            ("lat=\"10\" lon=\"-1e3\"", "lon=\"-1e3\""),
            ("lat=\"north\" lon=\"8\"", "lat=\"north\""),
            ("lat=\"\" lon=\"8\"", "lat=\"\""),
            ("lat=\"999999999999\" lon=\"8\"", "lat=\"999999999999\""),
        ]
        for (attributes, named) in cases {
            let xml = "<osm>\n<node id=\"7\" \(attributes)/>\n</osm>"
            guard let error = expectReadError({ try parse(xml) }) else { continue }
            guard case let .badElement(_, line, column, message) = error else { XCTFail("\(attributes): got \(error)"); continue }
            XCTAssertEqual(line, 2, attributes)
            XCTAssertEqual(column, 1, attributes)
            XCTAssertTrue(message.contains(named), "\(attributes): \(message)")
            XCTAssertTrue(message.contains("node 7"), message)
        }
        // The extremes themselves are valid.
        let (recorder, _) = try parse("<osm><node id=\"1\" lat=\"-90\" lon=\"180\"/><node id=\"2\" lat=\"90.0\" lon=\"-180.0\"/></osm>")
        XCTAssertEqual(recorder.nodes.map(\.latitudeE7), [-900_000_000, 900_000_000])
        XCTAssertEqual(recorder.nodes.map(\.longitudeE7), [1_800_000_000, -1_800_000_000])
    }

    func testOtherBadElements() throws {
        let cases: [(String, String)] = [
            ("<node lat=\"1\" lon=\"1\"/>", "without id"),
            ("<node id=\"1a\" lat=\"1\" lon=\"1\"/>", "1a"),
            ("<way id=\"99999999999999999999\"/>", "not an integer"),
            ("<way id=\"3\"><nd ref=\"x\"/></way>", "way 3"),
            ("<way id=\"3\"><nd/></way>", "without ref"),
            ("<way id=\"3\"><tag k=\"highway\"/></way>", "k and v"),
            ("<relation id=\"4\"><member type=\"area\" ref=\"1\" role=\"\"/></relation>", "relation 4"),
            ("<relation id=\"4\"><member type=\"way\" role=\"outer\"/></relation>", "relation 4"),
            ("<relation/>", "without id"),
        ]
        for (element, word) in cases {
            let xml = "<osm>\n  <node id=\"1\" lat=\"1\" lon=\"1\"/>\n  \(element)\n</osm>"
            guard let error = expectReadError({ try parse(xml) }) else { continue }
            guard case let .badElement(_, line, _, message) = error else { XCTFail("\(element): got \(error)"); continue }
            XCTAssertEqual(line, 3, element)
            XCTAssertTrue(message.contains(word), "\(element): \(message)")
        }
    }

    func testHandlerSeesNoElementAfterAnError() throws {
        let xml = "<osm>\n<node id=\"1\" lat=\"1\" lon=\"1\"/>\n<node id=\"2\" lat=\"95\" lon=\"1\"/>\n<node id=\"3\" lat=\"1\" lon=\"1\"/>\n</osm>"
        let recorder = Recorder()
        guard case .badElement? = expectReadError({ try parse(xml, into: recorder) }) else { return XCTFail() }
        XCTAssertEqual(recorder.nodes.map(\.id), [1])
    }
}

import XCTest
import Wayfinder
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads a GPX document back into a small tree with Foundation's XMLParser.
private final class XMLTree: NSObject, XMLParserDelegate {
    final class Element {
        let name: String
        let namespace: String?
        let attributes: [String: String]
        var children: [Element] = []
        var text = ""
        init(name: String, namespace: String?, attributes: [String: String]) {
            self.name = name; self.namespace = namespace; self.attributes = attributes
        }
        func all(_ name: String) -> [Element] { children.filter { $0.name == name } }
        func first(_ name: String) -> Element? { children.first { $0.name == name } }
    }

    private var stack: [Element] = []
    var root: Element?
    var error: Error?

    static func parse(_ text: String) -> (XMLTree.Element?, Error?) {
        let parser = XMLParser(data: Data(text.utf8))
        parser.shouldProcessNamespaces = true
        let tree = XMLTree()
        parser.delegate = tree
        let ok = parser.parse()
        return (ok ? tree.root : nil, tree.error ?? parser.parserError)
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
                attributes attributeDict: [String: String] = [:]) {
        let element = Element(name: elementName, namespace: namespaceURI, attributes: attributeDict)
        if let parent = stack.last { parent.children.append(element) } else { root = element }
        stack.append(element)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        stack.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        stack.last?.text += string
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        error = parseError
    }
}

final class GPXEncoderTests: XCTestCase {
    private func parsed(_ result: RouteResult = Fixtures.result(), file: StaticString = #filePath, line: UInt = #line) throws -> XMLTree.Element {
        let text = GPXEncoder().encode(result)
        let (root, error) = XMLTree.parse(text)
        XCTAssertNil(error, "not well-formed: \(String(describing: error))\n\(text)", file: file, line: line)
        return try XCTUnwrap(root, file: file, line: line)
    }

    /// Checks that `children` follow `order` (each name may repeat; names not listed are errors).
    private func assertOrder(_ element: XMLTree.Element, _ order: [String], file: StaticString = #filePath, line: UInt = #line) {
        var rank = 0
        for child in element.children {
            guard let position = order.firstIndex(of: child.name) else {
                return XCTFail("<\(child.name)> not allowed in <\(element.name)>", file: file, line: line)
            }
            XCTAssertGreaterThanOrEqual(position, rank, "<\(child.name)> out of order in <\(element.name)>", file: file, line: line)
            rank = position
        }
    }

    private let wptOrder = ["ele", "time", "magvar", "geoidheight", "name", "cmt", "desc", "src", "link", "sym", "type", "fix", "sat",
                            "hdop", "vdop", "pdop", "ageofdgpsdata", "dgpsid", "extensions"]

    func testRootAndSchemaOrder() throws {
        let gpx = try parsed(Fixtures.result(alternatives: 1))
        XCTAssertEqual(gpx.name, "gpx")
        XCTAssertEqual(gpx.namespace, "http://www.topografix.com/GPX/1/1")
        XCTAssertEqual(gpx.attributes["version"], "1.1")
        XCTAssertEqual(gpx.attributes["creator"], "wayfinder")
        XCTAssertTrue(gpx.children.allSatisfy { $0.namespace == GPXEncoder.namespace })
        assertOrder(gpx, ["metadata", "wpt", "rte", "trk", "extensions"])
        XCTAssertEqual(gpx.children.map(\.name), ["metadata", "wpt", "wpt", "wpt", "rte", "rte", "trk", "trk"])
        assertOrder(try XCTUnwrap(gpx.first("metadata")),
                    ["name", "desc", "author", "copyright", "link", "time", "keywords", "bounds", "extensions"])
        for wpt in gpx.all("wpt") { assertOrder(wpt, wptOrder) }
        for rte in gpx.all("rte") {
            assertOrder(rte, ["name", "cmt", "desc", "src", "link", "number", "type", "extensions", "rtept"])
            for point in rte.all("rtept") { assertOrder(point, wptOrder) }
        }
        for trk in gpx.all("trk") {
            assertOrder(trk, ["name", "cmt", "desc", "src", "link", "number", "type", "extensions", "trkseg"])
            for segment in trk.all("trkseg") { assertOrder(segment, ["trkpt", "extensions"]) }
        }
    }

    func testContent() throws {
        let result = Fixtures.result()
        let gpx = try parsed(result)
        let bounds = try XCTUnwrap(gpx.first("metadata")?.first("bounds"))
        XCTAssertEqual(bounds.attributes, ["minlat": "40.00001", "minlon": "-75.00002", "maxlat": "40.02", "maxlon": "-74.99"])
        let stops = gpx.all("wpt")
        XCTAssertEqual(stops.map { $0.first("name")?.text }, ["Stop 1: Main Street", "Stop 2", "Stop 3: \(Fixtures.trickyName)"])
        XCTAssertEqual(stops[0].attributes["lat"], "40.00001")
        XCTAssertEqual(stops[0].attributes["lon"], "-75.00002")
        let route = try XCTUnwrap(gpx.first("rte"))
        XCTAssertEqual(route.first("name")?.text, "Route 1: Market Street, Main Street")
        XCTAssertEqual(route.first("desc")?.text, "12.3 km, 14 min 10 s")
        XCTAssertEqual(route.first("number")?.text, "1")
        let points = route.all("rtept")
        XCTAssertEqual(points.map { $0.first("name")?.text ?? "" }, result.routes[0].steps.map(\.instructions))
        XCTAssertEqual(points[1].first("type")?.text, "turn")
        XCTAssertEqual(points[1].first("desc")?.text, "4.4 km, 5 min 30 s")
        let track = try XCTUnwrap(gpx.first("trk")?.first("trkseg")?.all("trkpt"))
        XCTAssertEqual(track.count, result.routes[0].polyline.count)
        for (point, c) in zip(track, result.routes[0].polyline) {
            XCTAssertEqual(Double(point.attributes["lat"] ?? ""), c.latitude)
            XCTAssertEqual(Double(point.attributes["lon"] ?? ""), c.longitude)
        }
    }

    func testTextIsEscaped() throws {
        var result = Fixtures.result()
        result.routes[0].name = "A & B <\"x\"> 'y'"
        result.waypoints[1].name = "Bell\u{07}Road\u{0B}"
        let text = GPXEncoderTests.encode(result, creator: "me & <you>")
        XCTAssertTrue(text.contains("Stop 3: A &amp; B &lt;&quot;x&quot;&gt;"))
        XCTAssertFalse(text.contains("\u{07}"))
        let (root, error) = XMLTree.parse(text)
        XCTAssertNil(error)
        let gpx = try XCTUnwrap(root)
        XCTAssertEqual(gpx.attributes["creator"], "me & <you>")
        XCTAssertEqual(gpx.first("rte")?.first("name")?.text, "Route 1: A & B <\"x\"> 'y'")
        XCTAssertEqual(gpx.all("wpt")[1].first("name")?.text, "Stop 2: BellRoad")
        XCTAssertEqual(gpx.all("wpt")[2].first("name")?.text, "Stop 3: \(Fixtures.trickyName)")
        XCTAssertEqual(gpx.first("rte")?.all("rtept")[4].first("name")?.text,
                       "At the roundabout, take the 2nd exit onto \(Fixtures.trickyName)")
    }

    private static func encode(_ result: RouteResult, creator: String) -> String {
        GPXEncoder(creator: creator).encode(result)
    }

    func testStraightLinesUseStopsAsRoutePoints() throws {
        let gpx = try parsed(Fixtures.result(straightLines: true))
        let points = try XCTUnwrap(gpx.first("rte")?.all("rtept"))
        XCTAssertEqual(points.map { $0.first("name")?.text }, ["Stop 1: Main Street", "Stop 2", "Stop 3: \(Fixtures.trickyName)"])
        XCTAssertEqual(gpx.first("rte")?.first("name")?.text, "Route 1")
        XCTAssertEqual(gpx.first("trk")?.first("trkseg")?.all("trkpt").count, 3)
    }

    func testLongitude180AndDeterminism() throws {
        let points = [Coordinate(latitude: 0, longitude: 179.9), Coordinate(latitude: 0, longitude: 180)]
        let route = Route(distance: 1, expectedTravelTime: 1, polyline: points,
                          legs: [Fixtures.leg(points, distance: 1, time: 1, steps: [])], boundingBox: BoundingBox(points)!, name: "")
        let gpx = try parsed(Fixtures.result(with: route))
        XCTAssertEqual(gpx.first("trk")?.first("trkseg")?.all("trkpt").map { $0.attributes["lon"] }, ["179.9", "-180"])
        XCTAssertEqual(gpx.first("metadata")?.first("bounds")?.attributes["maxlon"], "179.9999999")
        let result = Fixtures.result(alternatives: 2)
        XCTAssertEqual(GPXEncoder().encode(result), GPXEncoder().encode(result))
        XCTAssertFalse(GPXEncoder(includeTracks: false).encode(result).contains("<trk>"))
    }
}

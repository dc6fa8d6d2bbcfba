import Foundation
import OSM
import XCTest
import TestSupport

/// Reads the bundled OpenStreetMap extracts end to end and checks their element counts.
final class RealDataTests: XCTestCase {
    private func read(_ name: String, chunkSize: Int = 1 << 20) throws -> (Counter, OSMXMLReader, OSMInput) {
        let path = packageRoot.appendingPathComponent("Data/\(name)").path
        let input = try OSMInput(path: path)
        let counter = Counter()
        let reader = OSMXMLReader(source: input.source, name: input.file.name, handler: counter)
        try reader.read(chunkSize: chunkSize)
        return (counter, reader, input)
    }

    func testTerreHaute() throws {
        let (counter, reader, input) = try read("terre-haute.osm.gz")
        XCTAssertEqual(input.compression, .gzip)
        XCTAssertEqual(counter.nodes, 40_140)
        XCTAssertEqual(counter.ways, 5_096)
        XCTAssertEqual(counter.relations, 0)
        XCTAssertEqual(reader.nodeCount, 40_140)
        XCTAssertEqual(reader.wayCount, 5_096)
        XCTAssertEqual(reader.relationCount, 0)
        XCTAssertEqual(input.file.bytesRead, input.file.totalBytes)
        XCTAssertGreaterThan(reader.xmlBytes, input.file.bytesRead * 3, "the XML is larger than the gzip file")
    }

    func testMonaco() throws {
        let (counter, reader, input) = try read("monaco.osm.gz", chunkSize: 4096)
        XCTAssertEqual(input.compression, .gzip)
        XCTAssertEqual(counter.nodes, 13_739)
        XCTAssertEqual(counter.ways, 1_944)
        XCTAssertEqual(counter.relations, 77)
        XCTAssertEqual(reader.nodeCount + reader.wayCount + reader.relationCount, 13_739 + 1_944 + 77)
        XCTAssertEqual(input.file.bytesRead, input.file.totalBytes)
    }

    func testMonacoAsBzip2GivesTheSameElements() throws {
        // Recompress the real extract with bzip2 (in blocks of 100 kB: a multi-block stream) and read it back.
        let gz = try OSMInput(path: packageRoot.appendingPathComponent("Data/monaco.osm.gz").path)
        let xml = try readAll(gz.source, bufferSize: 1 << 20)
        let folder = try temporaryFolder(self)
        let path = folder.appendingPathComponent("monaco.osm").path // no .bz2 in the name on purpose
        try Data(Fixtures.bzip2(xml, blockSize100k: 1)).write(to: URL(fileURLWithPath: path))
        let input = try OSMInput(path: path)
        XCTAssertEqual(input.compression, .bzip2)
        let recorder = Recorder()
        try OSMXMLReader(source: input.source, name: path, handler: recorder).read()
        XCTAssertEqual(recorder.nodes.count, 13_739)
        XCTAssertEqual(recorder.ways.count, 1_944)
        XCTAssertEqual(recorder.relations.count, 77)
        // Every coordinate lies around Monaco (the extract reaches a little into France and the sea).
        let outside = recorder.nodes.filter {
            !((430_000_000...440_000_000).contains($0.latitudeE7) && (70_000_000...80_000_000).contains($0.longitudeE7))
        }
        XCTAssertEqual(outside.map(\.id), [], "nodes far from Monaco: coordinates misparsed")
        let latitudes = recorder.nodes.map(\.latitudeE7).sorted()
        XCTAssertEqual(Double(latitudes[latitudes.count / 2]) * 1e-7, 43.73, accuracy: 0.03, "median latitude in Monaco")
        XCTAssertTrue(recorder.ways.allSatisfy { $0.nodeIDs.count >= 1 })
        XCTAssertTrue(recorder.relations.contains { $0.tags["type"] == "restriction" || $0.tags["type"] == "multipolygon" })
    }
}

/// The bundled PBF sample against the XML it was made from: the same elements, in the same order.
final class RealPBFDataTests: XCTestCase {
    func testMonacoPBFGivesTheElementsOfTheXML() throws {
        let gz = try OSMInput(path: packageRoot.appendingPathComponent("Data/monaco.osm.gz").path)
        let fromXML = Recorder()
        try OSMXMLReader(source: gz.source, name: gz.file.name, handler: fromXML).read()

        let input = try OSMInput(path: packageRoot.appendingPathComponent("Data/monaco.osm.pbf").path)
        XCTAssertEqual(input.compression, .pbf)
        let fromPBF = Recorder()
        let reader = OSMPBFReader(source: input.source, name: input.file.name, handler: fromPBF)
        try reader.read()
        XCTAssertEqual(fromPBF.elements.count, 13_739 + 1_944 + 77)
        XCTAssertEqual(reader.nodeCount, 13_739)
        XCTAssertEqual(reader.wayCount, 1_944)
        XCTAssertEqual(reader.relationCount, 77)
        XCTAssertEqual(input.file.bytesRead, input.file.totalBytes)
        XCTAssertEqual(reader.header?.requiredFeatures, ["OsmSchema-V0.6", "DenseNodes"])
        // Element by element, so a difference names the element.
        for (a, b) in zip(fromPBF.elements, fromXML.elements) where a != b {
            return XCTFail("first difference: PBF \(a) vs XML \(b)")
        }
        XCTAssertEqual(fromPBF.elements.count, fromXML.elements.count)
    }
}

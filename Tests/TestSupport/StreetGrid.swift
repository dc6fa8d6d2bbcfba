import Foundation
import Graph

/// A square street grid drawn as OSM XML and imported for the foot profile without landmarks or a hierarchy: a
/// graph large enough that plain searches over it run for many deadline check intervals.
public enum StreetGrid {
    /// Imports a grid of `size` × `size` junctions 100 m apart (a row and a column way through each), its first row
    /// at `firstLatitude`, into `folder` and returns the graph file's path. (Rows mirrored about the equator are
    /// equally long, so such a grid has many equally fast paths.)
    public static func importGraph(size: Int, into folder: URL, firstLatitude: Double = 45) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\">\n"
        func id(_ row: Int, _ column: Int) -> Int { row * size + column + 1 }
        for row in 0..<size {
            for column in 0..<size {
                xml += "<node id=\"\(id(row, column))\" lat=\"\(firstLatitude + 0.0009 * Double(row))\" lon=\"\(7 + 0.00127 * Double(column))\"/>\n"
            }
        }
        for k in 0..<size {
            xml += "<way id=\"\(k + 1)\">" + (0..<size).map { "<nd ref=\"\(id(k, $0))\"/>" }.joined() + "<tag k=\"highway\" v=\"residential\"/></way>\n"
            xml += "<way id=\"\(size + k + 1)\">" + (0..<size).map { "<nd ref=\"\(id($0, k))\"/>" }.joined() + "<tag k=\"highway\" v=\"residential\"/></way>\n"
        }
        xml += "</osm>\n"
        let input = folder.appendingPathComponent("grid-\(size).osm").path, output = folder.appendingPathComponent("grid-\(size).wfg").path
        try xml.write(toFile: input, atomically: true, encoding: .utf8)
        var importer = GraphImporter(profiles: [.foot])
        importer.buildLandmarks = false
        _ = try importer.run(input: input, output: output)
        return output
    }
}

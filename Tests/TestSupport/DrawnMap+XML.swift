import Foundation
import Graph

extension DrawnMap {
    /// Grid positions of the letters of a drawing (a letter may appear only once).
    public static func parse(_ drawing: String) -> [Character: (line: Int, column: Int)] {
        var cells: [Character: (line: Int, column: Int)] = [:]
        for (line, text) in drawing.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for (column, character) in text.enumerated() where character.isASCII && (character.isLetter || character.isNumber) {
                precondition(cells[character] == nil, "'\(character)' is drawn twice")
                cells[character] = (line, column)
            }
        }
        return cells
    }

    /// OSM id of the node drawn as `letter`.
    public static func osmID(of letter: Character) -> Int64 {
        guard let index = nodeAlphabet.firstIndex(of: letter) else { preconditionFailure("'\(letter)' cannot name a node") }
        return Int64(index + 1)
    }

    /// Fixed-point (1e-7 degree) position of a grid cell.
    public static func fixedPoint(line: Int, column: Int, gridMetres: Double = 10) -> (latitude: Int32, longitude: Int32) {
        let latitude = originLatitude - Double(line) * gridMetres / metresPerDegree
        let longitude = originLongitude + Double(column) * gridMetres / (metresPerDegree * cos(originLatitude * Double.pi / 180))
        return (Int32((latitude * 1e7).rounded()), Int32((longitude * 1e7).rounded()))
    }

    /// A fixed-point coordinate as OSM writes it (`49.0001234`).
    public static func degrees(_ value: Int32) -> String {
        let magnitude = abs(Int64(value))
        let fraction = String(magnitude % 10_000_000)
        return (value < 0 ? "-" : "") + "\(magnitude / 10_000_000)." + String(repeating: "0", count: 7 - fraction.count) + fraction
    }

    /// Escapes text for an XML attribute value.
    public static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }

    private static func tagLines(_ tags: [String: String]) -> String {
        tags.keys.sorted().map { "    <tag k=\"\(escape($0))\" v=\"\(escape(tags[$0]!))\"/>\n" }.joined()
    }

    /// OSM id of way number `index` (0-based) of `ways`.
    public static func wayID(_ ways: [Way], _ index: Int) -> Int64 { ways[index].id ?? Int64(101 + index) }

    /// The OSM XML document of a map.
    public static func xml(cells: [Character: (line: Int, column: Int)], gridMetres: Double = 10, ways: [Way],
                           nodeTags: [Character: [String: String]], relations: [Relation], omitted: Set<Character> = [],
                           order: ElementOrder = .sorted) -> String {
        var nodes: [String] = []
        for letter in cells.keys.sorted(by: { osmID(of: $0) < osmID(of: $1) }) where !omitted.contains(letter) {
            let (latitude, longitude) = fixedPoint(line: cells[letter]!.line, column: cells[letter]!.column, gridMetres: gridMetres)
            let head = "  <node id=\"\(osmID(of: letter))\" lat=\"\(degrees(latitude))\" lon=\"\(degrees(longitude))\""
            if let tags = nodeTags[letter], !tags.isEmpty {
                nodes.append(head + ">\n" + tagLines(tags) + "  </node>\n")
            } else {
                nodes.append(head + "/>\n")
            }
        }
        var wayElements: [String] = []
        for (index, way) in ways.enumerated() {
            var text = "  <way id=\"\(wayID(ways, index))\">\n"
            for letter in way.nodes { text += "    <nd ref=\"\(osmID(of: letter))\"/>\n" }
            wayElements.append(text + tagLines(way.tags) + "  </way>\n")
        }
        var relationElements: [String] = []
        for (index, relation) in relations.enumerated() {
            var text = "  <relation id=\"\(relation.id ?? Int64(201 + index))\">\n"
            for member in relation.members {
                switch member {
                case let .way(letters, role):
                    guard let w = ways.firstIndex(where: { $0.nodes == letters }) else { preconditionFailure("no way \(letters) for a relation") }
                    text += "    <member type=\"way\" ref=\"\(wayID(ways, w))\" role=\"\(escape(role))\"/>\n"
                case let .wayID(id, role):
                    text += "    <member type=\"way\" ref=\"\(id)\" role=\"\(escape(role))\"/>\n"
                case let .node(letter, role):
                    text += "    <member type=\"node\" ref=\"\(osmID(of: letter))\" role=\"\(escape(role))\"/>\n"
                case let .nodeID(id, role):
                    text += "    <member type=\"node\" ref=\"\(id)\" role=\"\(escape(role))\"/>\n"
                }
            }
            relationElements.append(text + tagLines(relation.tags) + "  </relation>\n")
        }
        var elements: [String]
        switch order {
        case .sorted:
            elements = nodes + wayElements + relationElements
        case let .shuffled(seed):
            var generator = SplitMix64(seed: seed)
            elements = nodes.shuffled(using: &generator) + wayElements.shuffled(using: &generator) + relationElements.shuffled(using: &generator)
        case let .interleaved(seed):
            var generator = SplitMix64(seed: seed)
            elements = (nodes + wayElements + relationElements).shuffled(using: &generator)
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\" generator=\"DrawnMap\">\n" + elements.joined() + "</osm>\n"
    }
}

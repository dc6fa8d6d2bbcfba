import Foundation
import XCTest

/// The field tables of docs/route-json.md, read so that tests check the output against the documentation.
struct DocumentedSchema {
    struct Field: Equatable {
        var path: String
        var type: String
        var optional: Bool { type.contains("(optional)") }
    }

    /// Fields per section heading ("Route JSON", "ETA JSON", "Features of kind `route`", ...).
    var sections: [String: [Field]] = [:]

    static func load() throws -> DocumentedSchema {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/route-json.md"), encoding: .utf8)
        var schema = DocumentedSchema()
        var heading = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") {
                heading = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
                continue
            }
            guard line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2, cells[0].hasPrefix("`"), cells[0].hasSuffix("`") else { continue }
            schema.sections[heading, default: []].append(Field(path: String(cells[0].dropFirst().dropLast()), type: cells[1]))
        }
        return schema
    }

    /// Every value at a documented path ("routes[].legs[].distance"), through every array element on the way.
    static func values(at path: String, in root: Any) -> [Any]? {
        var current: [Any] = [root]
        for component in path.split(separator: ".") {
            let isArray = component.hasSuffix("[]")
            let key = isArray ? String(component.dropLast(2)) : String(component)
            var next: [Any] = []
            for value in current {
                guard let object = value as? [String: Any], let member = object[key] else { return nil }
                if isArray {
                    guard let array = member as? [Any] else { return nil }
                    next += array
                } else {
                    next.append(member)
                }
            }
            current = next
        }
        return current
    }

    /// Whether a parsed JSON value has the documented type ("number", "string or null", "array (optional)", ...).
    static func matches(_ value: Any, type: String) -> Bool {
        let kinds = type.replacingOccurrences(of: "(optional)", with: "").components(separatedBy: " or ")
            .map { $0.trimmingCharacters(in: .whitespaces) }
        return kinds.contains { kind in
            switch kind {
            case "string": return value is String
            case "null": return value is NSNull
            case "object": return value is [String: Any]
            case "array": return value is [Any]
            case "boolean": return isBoolean(value)
            case "number":
                guard !isBoolean(value), let n = value as? NSNumber else { return false }
                return n.doubleValue.isFinite
            case "integer":
                guard !isBoolean(value), let n = value as? NSNumber else { return false }
                return n.doubleValue == n.doubleValue.rounded()
            default: return false
            }
        }
    }

    /// JSONSerialization gives booleans as NSNumbers of ObjC type "c" (a CFBoolean), numbers as other NSNumbers.
    static func isBoolean(_ value: Any) -> Bool {
        guard let n = value as? NSNumber else { return false }
        return String(cString: n.objCType) == "c"
    }

    /// All member paths present in a parsed document, in the documentation's notation.
    static func paths(in value: Any, prefix: String = "") -> Set<String> {
        var result: Set<String> = []
        if let object = value as? [String: Any] {
            for (key, member) in object {
                var path = prefix.isEmpty ? key : prefix + "." + key
                if let array = member as? [Any] {
                    result.insert(path)
                    path += "[]"
                    for element in array where element is [String: Any] { result.formUnion(paths(in: element, prefix: path)) }
                } else {
                    result.insert(path)
                    result.formUnion(paths(in: member, prefix: path))
                }
            }
        }
        return result
    }
}

/// Parses JSON text with Foundation, failing the test when it is not JSON.
func parseJSON(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> Any {
    do {
        return try JSONSerialization.jsonObject(with: Data(text.utf8), options: [])
    } catch {
        XCTFail("not valid JSON: \(error)\n\(text.prefix(500))", file: file, line: line)
        throw error
    }
}

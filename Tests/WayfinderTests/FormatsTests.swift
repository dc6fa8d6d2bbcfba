import Foundation
import XCTest
@testable import Wayfinder

/// The one JSON writer, CSV, ISO 8601, polyline, mode-name and coordinate readers of Sources/Wayfinder/Formats.
final class FormatsTests: XCTestCase {
    private func json(_ s: String) -> String { var out: [UInt8] = []; JSONWriter.appendString(s, to: &out); return String(decoding: out, as: UTF8.self) }

    func testJSONStringEscaping() throws {
        XCTAssertEqual(json("a\"b\\c"), #""a\"b\\c""#)
        XCTAssertEqual(json("\n\r\t\u{08}\u{0C}"), #""\n\r\t\b\f""#)
        XCTAssertEqual(json("\u{0}\u{1}\u{1F}"), #""\u0000\u0001\u001f""#)
        XCTAssertEqual(json("x\u{2028}y\u{2029}z"), #""x\u2028y\u2029z""#)
        XCTAssertEqual(json("\u{7F}é€"), "\"\u{7F}é€\"", "DEL and non-ASCII stay as UTF-8")
        // Beyond the BMP: written as its four UTF-8 bytes, and read back as the same character (a surrogate pair in UTF-16).
        let emoji = json("😀")
        XCTAssertEqual(Array(emoji.utf8), [0x22, 0xF0, 0x9F, 0x98, 0x80, 0x22])
        let parsed = try JSONSerialization.jsonObject(with: Data("[\(emoji)]".utf8)) as? [String]
        XCTAssertEqual(parsed, ["😀"])
        // A lone surrogate cannot reach the writer: decoding its UTF-8 bytes gives U+FFFD.
        XCTAssertEqual(json(String(decoding: [0xED, 0xA0, 0x80], as: UTF8.self)), "\"\u{FFFD}\u{FFFD}\u{FFFD}\"")
        // Every control character round-trips through a standard parser.
        let all = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init) + ["\u{2028}", "\"", "\\"]))
        XCTAssertEqual(try JSONSerialization.jsonObject(with: Data("[\(json(all))]".utf8)) as? [String], [all])
    }

    func testJSONWriterRefusesNonFiniteNumbersAndPlacesCommas() throws {
        var w = JSONWriter()
        XCTAssertThrowsError(try w.number(.nan, decimals: 1)) { XCTAssertEqual($0 as? JSONWriter.Failure, .nonFiniteNumber("nan")) }
        XCTAssertThrowsError(try w.number(.infinity, decimals: 1))
        XCTAssertThrowsError(try w.number(-.infinity, decimals: 1))
        XCTAssertTrue(w.bytes.isEmpty, "nothing written for a refused number")
        w.beginObject()
        w.key("a"); w.beginArray(); try w.number(1.25, decimals: 1); w.int(-3); w.null(); w.bool(false); w.numberOrNull(.nan, decimals: 1); w.endArray()
        w.key("b"); w.string("x")
        w.endObject()
        XCTAssertEqual(w.text, #"{"a":[1.3,-3,null,false,null],"b":"x"}"#)
    }

    func testJSONValueSortsKeysAndRounds() {
        let value: JSONValue = .object([("é", .int(1)), ("b", .number(2.05, decimals: 1)), ("a", .number(.nan, decimals: 1)), ("B", .array([]))])
        XCTAssertEqual(value.serialized(), #"{"B":[],"a":null,"b":2.1,"é":1}"#, "code-point order, NaN as null")
        XCTAssertEqual(JSONValue.object([("k", .array([.int(1), .int(2)]))]).serialized(pretty: true), "{\n  \"k\": [1, 2]\n}")
        XCTAssertEqual(JSONValue.lineString([Coordinate(latitude: 43.5, longitude: 7.25)]).serialized(), #"{"coordinates":[[7.25,43.5]],"type":"LineString"}"#)
    }

    func testFixedDecimals() {
        XCTAssertEqual(FixedDecimal.string(12.34, decimals: 1), "12.3")
        XCTAssertEqual(FixedDecimal.string(-0.04, decimals: 1), "0")
        XCTAssertEqual(FixedDecimal.string(1e15, decimals: 1), "1000000000000000", "no exponent below 9e15")
        XCTAssertEqual(FixedDecimal.string(123456789.123, decimals: 7), "123456789.123")
        XCTAssertEqual(FixedDecimal.string(.nan, decimals: 1), "null")
        XCTAssertEqual(FixedDecimal.string(0.5, decimals: 0), "1")
    }

    func testCSVFollowsRFC4180() throws {
        let records = try CSV.records("\u{FEFF}a,\"b,c\",\"say \"\"hi\"\"\"\r\n\r\n\"two\nlines\",,x\ry, \"spaced\" \n")
        XCTAssertEqual(records.map(\.fields), [["a", "b,c", "say \"hi\""], ["two\nlines", "", "x"], ["y", "spaced"]])
        XCTAssertEqual(records.map(\.line), [1, 3, 5])
        XCTAssertEqual(try CSV.fields("x\r\n"), ["x"])
        XCTAssertEqual(try CSV.fields(""), [""])
        XCTAssertThrowsError(try CSV.records("a\n\"open,b\n")) { XCTAssertEqual(($0 as? CSV.QuoteError)?.line, 2) }
        XCTAssertThrowsError(try CSV.fields("a,b\"c")) { XCTAssertTrue("\($0)".contains("a quote inside an unquoted field"), "\($0)") }
        XCTAssertThrowsError(try CSV.fields("\"a\"b")) { XCTAssertTrue("\($0)".contains("text after a closing quote"), "\($0)") }
        XCTAssertEqual(CSV.row(["a,b", "q\"", "plain", "line\nend", ""]), "\"a,b\",\"q\"\"\",plain,\"line\nend\",\n")
        let fields = ["x", "with, comma", "\"quoted\"", "multi\r\nline"]
        XCTAssertEqual(try CSV.records(CSV.row(fields)).first?.fields, fields, "round trip")
    }

    func testISO8601Reading() throws {
        let utc = TimeZone(identifier: "UTC")!, monaco = TimeZone(identifier: "Europe/Monaco")!
        let reference = 1_796_110_200.0 // 2026-12-01T07:30:00Z
        for text in ["2026-12-01T07:30:00Z", "2026-12-01T07:30z", "2026-12-01T08:30:00+01:00", "2026-12-01T08:30+0100", "2026-12-01T08:30+01",
                     "2026-12-01T02:30:00-05:00", "2026-12-01 08:30", "2026-12-01T08:30:00"] {
            XCTAssertEqual(try ISO8601.date(from: text, timeZone: monaco).timeIntervalSince1970, reference, text)
        }
        XCTAssertEqual(try ISO8601.date(from: "2026-12-01T07:30:00.250Z", timeZone: utc).timeIntervalSince1970, reference + 0.25, accuracy: 1e-6)
        XCTAssertEqual(try ISO8601.date(from: "2026-12-01T07:30:00,5Z", timeZone: utc).timeIntervalSince1970, reference + 0.5, accuracy: 1e-6)
        // Daylight saving in New York: an ambiguous time is its first occurrence, a skipped one moves forward.
        let newYork = TimeZone(identifier: "America/New_York")!
        XCTAssertEqual(ISO8601.string(try ISO8601.date(from: "2026-11-01T01:30", timeZone: newYork), in: newYork), "2026-11-01T01:30:00-04:00")
        XCTAssertEqual(ISO8601.string(try ISO8601.date(from: "2026-03-08T02:30", timeZone: newYork), in: newYork), "2026-03-08T03:30:00-04:00")
        XCTAssertEqual(try ISO8601.date(from: "2024-02-29T00:00Z", timeZone: utc).timeIntervalSince1970, 1_709_164_800)
        for (text, reason) in [("2026-13-01T08:30", "month 13 is not 01 to 12"), ("2026-02-29T08:30", "day 29 does not exist in 2026-02"),
                               ("2026-12-01", "a time is needed"), ("2026-12-01T24:00", "hour 24"), ("2026-12-01T08:61", "minute 61"),
                               ("2026-12-01T08:30:60", "second 60"), ("2026-12-01T08:30+25:00", "offset +25:00 is out of range"),
                               ("2026-12-01T08:30 UTC", "unexpected ' UTC'"), ("26-12-01T08:30", "year of four digits"), ("now", "year"),
                               ("2026-12-01T08:30:00.Z", "digits of a fraction")] {
            XCTAssertThrowsError(try ISO8601.date(from: text, timeZone: utc), text) { error in
                XCTAssertTrue("\(error)".contains(reason), "\(text): \(error)")
                XCTAssertTrue("\(error)".contains("'\(text)' is not an ISO 8601 date-time"), "\(error)")
            }
        }
    }

    func testISO8601Writing() throws {
        let date = Date(timeIntervalSince1970: 1_796_110_200.4)
        XCTAssertEqual(ISO8601.string(date, in: TimeZone(identifier: "Europe/Monaco")!), "2026-12-01T08:30:00+01:00")
        XCTAssertEqual(ISO8601.string(date, in: TimeZone(identifier: "UTC")!), "2026-12-01T07:30:00+00:00")
        XCTAssertEqual(ISO8601.string(date, in: TimeZone(identifier: "Asia/Kolkata")!), "2026-12-01T13:00:00+05:30")
        XCTAssertEqual(ISO8601.utcString(date), "2026-12-01T07:30:00Z")
        let zone = TimeZone(identifier: "America/Sao_Paulo")!
        for t in stride(from: -2_000_000_000.0, to: 4_000_000_000, by: 86_399 * 37) {
            let d = Date(timeIntervalSince1970: t)
            XCTAssertEqual(try ISO8601.date(from: ISO8601.string(d, in: zone), timeZone: .current).timeIntervalSince1970, t, "round trip")
        }
    }

    func testPolylineRoundTrips() throws {
        var generator = SystemRandomNumberGenerator()
        for precision in [5, 6] {
            for _ in 0..<50 {
                let points = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                    Coordinate(latitude: Double.random(in: -90...90, using: &generator), longitude: Double.random(in: -180...180, using: &generator))
                }
                let decoded = try PolylineEncoder.decode(PolylineEncoder.encode(points, precision: precision), precision: precision)
                XCTAssertEqual(decoded.count, points.count)
                let tolerance = 0.5 / pow(10, Double(precision)) + 1e-12
                for (a, b) in zip(points, decoded) {
                    XCTAssertEqual(a.latitude, b.latitude, accuracy: tolerance); XCTAssertEqual(a.longitude, b.longitude, accuracy: tolerance)
                }
                XCTAssertEqual(PolylineEncoder.encode(decoded, precision: precision), PolylineEncoder.encode(points, precision: precision), "stable after one trip")
            }
        }
        XCTAssertEqual(PolylineEncoder.encode([Coordinate(latitude: 38.5, longitude: -120.2), Coordinate(latitude: 40.7, longitude: -120.95),
                                               Coordinate(latitude: 43.252, longitude: -126.453)]), "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
    }

    func testModeNamesAndCoordinates() throws {
        for (name, type) in [("car", TransportType.automobile), ("Driving", .automobile), ("automobile", .automobile), ("foot", .walking),
                             ("walking", .walking), ("WALK", .walking), ("transit", .transit), ("bus", .transit)] {
            XCTAssertEqual(TransportType(name: name), type, name)
        }
        XCTAssertNil(TransportType(name: "boat"))
        XCTAssertEqual(TransportType.automobile.acceptedNames, ["car", "driving", "automobile"])
        XCTAssertEqual(try Coordinate(parsing: " 43.7393 , 7.4277"), Coordinate(latitude: 43.7393, longitude: 7.4277))
        for (text, reason) in [("95,7", "latitude 95, outside ±90"), ("43,181", "longitude 181, outside ±180"), ("nan,7", "is not lat,lon"),
                               ("0x10,7", "is not lat,lon"), ("43.7", "is not lat,lon"), ("1,2,3", "is not lat,lon")] {
            XCTAssertThrowsError(try Coordinate(parsing: text)) { XCTAssertTrue("\($0)".contains(reason), "\(text): \($0)") }
        }
    }

    /// The stops' spaces are trimmed without `CharacterSet` (cheaper at start-up) but exactly as `.whitespaces` trims.
    func testCoordinateSpacesAreCharacterSetWhitespaces() throws {
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            XCTAssertEqual(Coordinate.isTrimmedSpace(scalar), CharacterSet.whitespaces.contains(scalar), "U+\(String(value, radix: 16))")
        }
        for scalar in ["\t", "\u{A0}", "\u{200B}", "\u{3000}", "\u{301}", "\n", "\u{FEFF}", "x"] as [Unicode.Scalar] {
            let text = Substring("\(scalar)4\(scalar)2\(scalar)")
            XCTAssertEqual(Coordinate.trimmingSpaces(text), text.trimmingCharacters(in: .whitespaces), "U+\(String(scalar.value, radix: 16))")
        }
        XCTAssertEqual(try Coordinate(parsing: "\u{00A0}43.7393\u{2003},\t7.4277 "), Coordinate(latitude: 43.7393, longitude: 7.4277))
        XCTAssertThrowsError(try Coordinate(parsing: "43.7393\n,7.4277"))
        XCTAssertEqual(Coordinate.trimmingSpaces(" \t "), "")
    }

    func testPlacesFiles() throws {
        let text = "\u{FEFF}name,lat,lon\r\nPort,43.7312,7.4197\r\n\r\n\"Stade, Louis II\",43.7275,7.4150\r\n43.70,7.45\r\n43.71,7.46,Sea\r\n"
        let places = try PlacesFile.parse(text, file: "p.csv")
        XCTAssertEqual(places.map(\.name), ["Port", "Stade, Louis II", "", "Sea"])
        XCTAssertEqual(places[3].coordinate, Coordinate(latitude: 43.71, longitude: 7.46))
        XCTAssertEqual(places.map(\.subtitle), ["", "", "", ""])
        // The optional fourth column, a subtitle (the map page's favourites export it).
        let described = try PlacesFile.parse("name,lat,lon,subtitle\nPort,43.7312,7.4197,\"harbour, Quai Albert 1er\"\n43.71,7.46,Sea,\n", file: "f.csv")
        XCTAssertEqual(described, [ETAPlace(name: "Port", coordinate: Coordinate(latitude: 43.7312, longitude: 7.4197), subtitle: "harbour, Quai Albert 1er"),
                                   ETAPlace(name: "Sea", coordinate: Coordinate(latitude: 43.71, longitude: 7.46))])
        // A header fixes the column order: a name that is a number stays a name.
        XCTAssertEqual(try PlacesFile.parse("name,lat,lon,subtitle\n12,43.7,7.4,house\n", file: "f.csv").first?.name, "12")
        XCTAssertThrowsError(try PlacesFile.parse("a,1,2,b,c\n", file: "p.csv")) { XCTAssertTrue("\($0)".contains("got 5 fields"), "\($0)") }
        XCTAssertThrowsError(try PlacesFile.parse("a,1,2,\(String(repeating: "x", count: 40))\n", file: "p.csv", maxNameBytes: 32)) {
            XCTAssertTrue("\($0)".contains("the subtitle is 40 bytes long"), "\($0)")
        }
        XCTAssertThrowsError(try PlacesFile.parse("name,lat,lon\nPort,95,7\n", file: "p.csv")) { XCTAssertEqual("\($0)", "p.csv:2: 95,7 is not a coordinate (latitude within ±90, longitude within ±180)") }
        XCTAssertThrowsError(try PlacesFile.parse("x,1\n", file: "p.csv")) { XCTAssertTrue("\($0)".hasPrefix("p.csv:1: latitude and longitude must be numbers"), "\($0)") }
        XCTAssertThrowsError(try PlacesFile.parse("\"open,1,2\n", file: "p.csv")) { XCTAssertTrue("\($0)".hasPrefix("p.csv:1: bad CSV quoting"), "\($0)") }
        XCTAssertThrowsError(try PlacesFile.parse("\(String(repeating: "x", count: 40)),1,2\n", file: "p.csv", maxNameBytes: 32)) {
            XCTAssertTrue("\($0)".contains("the name is 40 bytes long, more than the 32"), "\($0)")
        }
    }
}

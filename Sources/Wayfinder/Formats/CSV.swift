/// RFC 4180 CSV, the one reader and writer of the CLI's places files and tables and of batch job and result files:
/// commas separate fields, double quotes enclose fields holding commas, quotes (doubled: `""`) or line breaks;
/// records end with LF, CRLF or a lone CR; a UTF-8 byte-order mark is skipped; spaces around a quoted field are
/// dropped. Rows are written with LF line ends, fields quoted only when they need it.
///
/// GTFS feeds are read by Transit's `CSVTable` (a columnar, limit-checked reader for large files, below this module).
public enum CSV {
    /// Why a text is not CSV: a quote out of place or never closed, with the line and column.
    public struct QuoteError: Error, Equatable, Sendable, CustomStringConvertible {
        /// 1-based line (within the text read) and field.
        public let line: Int
        public let column: Int
        public let reason: String
        public var description: String { "bad CSV quoting: \(reason) (column \(column))" }
    }

    /// One record of a text: its fields and the line it starts on (1-based).
    public struct Record: Equatable, Sendable {
        public var fields: [String]
        public var line: Int
    }

    /// The records of a whole text in order; blank lines are no records. A quoted field may span lines.
    public static func records(_ text: String) throws(QuoteError) -> [Record] {
        var records: [Record] = []
        var bytes = Array(text.utf8)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        var line = 1
        while !bytes.isEmpty {
            let start = line
            let fields = try record(&bytes, line: &line)
            if !(fields.count == 1 && fields[0].isEmpty) { records.append(Record(fields: fields, line: start)) }
        }
        return records
    }

    /// The fields of one record (a final CR or LF is allowed; a line break inside quotes belongs to the field).
    public static func fields(_ record: String) throws(QuoteError) -> [String] {
        var bytes = Array(record.utf8)[...]
        var line = 1
        let fields = try Self.record(&bytes, line: &line)
        guard bytes.isEmpty else { throw QuoteError(line: line, column: fields.count, reason: "a line break outside quotes inside one record") }
        return fields
    }

    /// Reads one record from the front of `bytes`, through its line end.
    static func record(_ bytes: inout ArraySlice<UInt8>, line: inout Int) throws(QuoteError) -> [String] {
        var fields: [String] = []
        var field: [UInt8] = []
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), space = UInt8(ascii: " ")
        while true {
            field.removeAll(keepingCapacity: true)
            let column = fields.count + 1
            let spaces = bytes.prefix { $0 == space }.count
            if bytes.dropFirst(spaces).first == quote {
                bytes = bytes.dropFirst(spaces + 1)
                let openedOn = line
                var closed = false
                while let c = bytes.first {
                    bytes = bytes.dropFirst()
                    if c == quote {
                        if bytes.first == quote { field.append(quote); bytes = bytes.dropFirst() } else { closed = true; break }
                    } else {
                        if c == 0x0A || (c == 0x0D && bytes.first != 0x0A) { line += 1 }
                        field.append(c)
                    }
                }
                guard closed else { throw QuoteError(line: openedOn, column: column, reason: "a quoted field is not closed") }
                while bytes.first == space { bytes = bytes.dropFirst() }
                if let c = bytes.first, c != comma, c != 0x0A, c != 0x0D {
                    throw QuoteError(line: line, column: column, reason: "text after a closing quote")
                }
            } else {
                while let c = bytes.first, c != comma, c != 0x0A, c != 0x0D {
                    if c == quote { throw QuoteError(line: line, column: column, reason: "a quote inside an unquoted field") }
                    field.append(c)
                    bytes = bytes.dropFirst()
                }
            }
            fields.append(String(decoding: field, as: UTF8.self))
            guard let c = bytes.first else { return fields }
            bytes = bytes.dropFirst()
            if c == comma { continue }
            if c == 0x0D && bytes.first == 0x0A { bytes = bytes.dropFirst() }
            line += 1
            return fields
        }
    }

    /// Whether a record's text leaves a quoted field open (it continues on the next line).
    public static func isOpen(_ record: String) -> Bool {
        var count = 0
        for u in record.utf8 where u == UInt8(ascii: "\"") { count += 1 }
        return count % 2 == 1
    }

    /// A field, quoted when it holds a comma, quote or line break (quotes doubled).
    public static func quote(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { return field }
        var out: [UInt8] = []
        append(field, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends a field, quoted when needed, to `out`.
    public static func append(_ field: String, to out: inout [UInt8]) {
        guard field.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) else { out.append(contentsOf: field.utf8); return }
        out.append(0x22)
        for byte in field.utf8 { out.append(byte); if byte == 0x22 { out.append(0x22) } }
        out.append(0x22)
    }

    /// One row: the fields quoted as needed, joined by commas, ended by LF.
    public static func row(_ fields: [String]) -> String {
        var out: [UInt8] = []
        for (i, field) in fields.enumerated() {
            if i > 0 { out.append(0x2C) }
            append(field, to: &out)
        }
        out.append(0x0A)
        return String(decoding: out, as: UTF8.self)
    }
}

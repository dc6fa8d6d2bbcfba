/// One GTFS file parsed as RFC 4180 CSV: a header row naming the columns, then records. Quoted fields with
/// embedded commas, quotes ("") and line breaks, a UTF-8 byte-order mark, CRLF, LF or CR line ends and blank
/// lines are handled; fields are kept unescaped in one byte buffer (no string per field until asked).
public struct CSVTable {
    public let feed: String
    public let file: String
    /// Column positions by header name (the first, when a name is given twice).
    public let columns: [String: Int]
    /// Header names given more than once: the name and the 0-based positions of its first and repeated column.
    public let repeatedColumns: [(name: String, first: Int, repeated: Int)]
    private let values: [UInt8]
    private let fieldStart: [UInt32]
    private let recordFieldStart: [UInt32]
    private let recordLine: [UInt32]

    /// Number of records (the header row not counted).
    public var count: Int { recordLine.count }

    /// Parses `bytes`; `feed` and `file` name the source in errors. Throws when there are more than `maxRows`
    /// records, more than `GTFSLimits.maxColumns` header columns or more than 4 GiB − 1 bytes. Fields past the
    /// header's last column are dropped (no column name reaches them).
    public init(bytes: [UInt8], feed: String, file: String, maxRows: Int = GTFSLimits().maxRows) throws(GTFSError) {
        self.feed = feed
        self.file = file
        guard bytes.count <= Int(UInt32.max) else {
            throw .limitExceeded(feed: feed, file: file, message: "it has \(bytes.count) bytes, more than the 4 GiB − 1 the CSV reader takes")
        }
        var values: [UInt8] = [], fieldStart: [UInt32] = [0], recordFieldStart: [UInt32] = [0], recordLine: [UInt32] = []
        values.reserveCapacity(bytes.count)
        var header: [String] = []
        var headerDone = false
        var i = 0
        let n = bytes.count
        if n >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
        var line = 1
        var fieldsInRecord = 0
        var recordStartLine = 1
        var recordEmpty = true
        /// Fields kept per record once the header is read (its column count).
        var width = GTFSLimits.maxColumns + 1
        func endField() {
            if fieldsInRecord < width {
                fieldStart.append(UInt32(values.count))
                fieldsInRecord += 1
            } else {
                values.removeSubrange(Int(fieldStart.last!)...)
            }
        }
        func endRecord() throws(GTFSError) {
            // A blank line (one empty field) is no record.
            if fieldsInRecord == 1 && recordEmpty {
                fieldStart.removeLast()
                values.removeSubrange(Int(fieldStart.last!)...)
            } else if !headerDone {
                guard fieldsInRecord <= GTFSLimits.maxColumns else {
                    throw .limitExceeded(feed: feed, file: file, message: "its header has more than \(GTFSLimits.maxColumns) columns")
                }
                let first = Int(recordFieldStart.last!)
                for f in first..<(first + fieldsInRecord) {
                    let text = String(decoding: values[Int(fieldStart[f])..<Int(fieldStart[f + 1])], as: UTF8.self)
                    header.append(text.trimmingSpaces)
                }
                fieldStart.removeLast(fieldsInRecord)
                values.removeAll(keepingCapacity: true)
                headerDone = true
                width = fieldsInRecord
            } else {
                guard recordLine.count < maxRows else {
                    throw .limitExceeded(feed: feed, file: file, message: "it has more than \(maxRows) rows (raise the limit with import --gtfs-max-rows)")
                }
                recordFieldStart.append(UInt32(fieldStart.count - 1))
                recordLine.append(UInt32(clamping: recordStartLine))
            }
            fieldsInRecord = 0
            recordEmpty = true
        }
        while i < n {
            // One field.
            if bytes[i] == UInt8(ascii: "\"") {
                let openedOn = line
                recordEmpty = false
                i += 1
                var closed = false
                while i < n {
                    let c = bytes[i]
                    if c == UInt8(ascii: "\"") {
                        if i + 1 < n && bytes[i + 1] == UInt8(ascii: "\"") { values.append(c); i += 2; continue }
                        i += 1
                        closed = true
                        break
                    }
                    if c == 0x0A { line += 1 }
                    values.append(c)
                    i += 1
                }
                guard closed else { throw .malformedCSV(feed: feed, file: file, line: openedOn, message: "a quoted field is never closed") }
                // Anything between the closing quote and the separator is kept (lenient, as most readers are).
                while i < n && bytes[i] != UInt8(ascii: ",") && bytes[i] != 0x0A && bytes[i] != 0x0D { values.append(bytes[i]); i += 1 }
            } else {
                while i < n {
                    let c = bytes[i]
                    if c == UInt8(ascii: ",") || c == 0x0A || c == 0x0D { break }
                    values.append(c)
                    recordEmpty = false
                    i += 1
                }
            }
            endField()
            if i >= n { try endRecord(); break }
            let c = bytes[i]
            i += 1
            if c == UInt8(ascii: ",") { recordEmpty = false; if i >= n { endField(); try endRecord() }; continue }
            if c == 0x0D && i < n && bytes[i] == 0x0A { i += 1 }
            try endRecord()
            line += 1
            recordStartLine = line
        }
        var columns: [String: Int] = [:]
        var repeated: [(name: String, first: Int, repeated: Int)] = []
        for (index, name) in header.enumerated() {
            if let first = columns[name] { if !name.isEmpty { repeated.append((name, first, index)) } } else { columns[name] = index }
        }
        self.columns = columns
        self.repeatedColumns = repeated
        self.values = values
        self.fieldStart = fieldStart
        self.recordFieldStart = recordFieldStart
        self.recordLine = recordLine
    }

    /// The position of a required column; throws naming the file and column when the header lacks it.
    public func require(_ column: String) throws(GTFSError) -> Int {
        guard let index = columns[column] else { throw .missingColumn(feed: feed, file: file, column: column) }
        return index
    }

    /// The file line on which record r starts (the header is line 1).
    public func line(_ r: Int) -> Int { Int(recordLine[r]) }

    /// The raw bytes of field `column` of record r (empty when the record is shorter or the column is nil).
    @inline(__always)
    public func bytes(_ r: Int, _ column: Int?) -> ArraySlice<UInt8> {
        guard let column else { return [] }
        let first = Int(recordFieldStart[r]), last = Int(recordFieldStart[r + 1])
        guard column < last - first else { return [] }
        return values[Int(fieldStart[first + column])..<Int(fieldStart[first + column + 1])]
    }

    /// Field `column` of record r as a string, surrounding spaces removed ("" when absent).
    public func string(_ r: Int, _ column: Int?) -> String {
        String(decoding: bytes(r, column), as: UTF8.self).trimmingSpaces
    }

    /// Field `column` of record r as a whole number, nil when empty or not a number.
    public func int(_ r: Int, _ column: Int?) -> Int? {
        var value = 0, digits = 0, negative = false
        for c in bytes(r, column) {
            if c >= 48 && c <= 57 { value = value &* 10 &+ Int(c - 48); digits += 1; if digits > 18 { return nil } }
            else if c == UInt8(ascii: "-") && digits == 0 && !negative { negative = true }
            else if c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") { if digits > 0 { break } }
            else { return nil }
        }
        return digits > 0 ? (negative ? -value : value) : nil
    }

    /// Field `column` of record r as a decimal number, nil when empty or not a number.
    public func double(_ r: Int, _ column: Int?) -> Double? {
        let text = string(r, column)
        return text.isEmpty ? nil : Double(text)
    }

    /// Whether field `column` of record r is empty or blank.
    public func isBlank(_ r: Int, _ column: Int?) -> Bool {
        bytes(r, column).allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        guard let first = firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        let last = lastIndex(where: { $0 != " " && $0 != "\t" })!
        return String(self[first...last])
    }
}

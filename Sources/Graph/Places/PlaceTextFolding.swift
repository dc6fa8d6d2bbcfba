/// Case and accent folding of place names and queries into search tokens: "Bismarckplatz" and "BISMARCKPLATZ" and
/// "Bísmarckplatz" all fold to `bismarckplatz`; "Café Müller" to `cafe`, `muller`; "Straße" to `strasse`.
///
/// ASCII is lowercased; Latin letters with diacritics (U+00C0–U+024F) lose them (ß → ss, æ → ae, œ → oe, ø → o,
/// ł → l, đ/ð → d, þ → th); combining marks (U+0300–U+036F) are dropped; other scripts are lowercased and kept.
/// Tokens are the runs of letters and digits; everything else separates them.
public enum PlaceTextFolding {
    /// Longest token kept, in bytes (longer runs are cut): bounds the typo comparison's work.
    public static let maximumTokenLength = 48

    /// Folded replacements for U+00C0 ..< U+0250 (empty: not a letter, separates tokens).
    private static let latinTable: [[UInt8]] = {
        var table: [[UInt8]] = []
        for code in 0xC0..<0x250 {
            table.append(fold(latin: UInt32(code)))
        }
        return table
    }()

    /// The ASCII base of a Latin letter with diacritics, from its Unicode decomposition-free name.
    private static func fold(latin code: UInt32) -> [UInt8] {
        switch code {
        case 0xDF: return Array("ss".utf8)
        case 0xC6, 0xE6, 0x1E2, 0x1E3, 0x1FC, 0x1FD: return Array("ae".utf8)
        case 0x152, 0x153: return Array("oe".utf8)
        case 0xD8, 0xF8, 0x1FE, 0x1FF: return Array("o".utf8)
        case 0x141, 0x142: return Array("l".utf8)
        case 0x110, 0x111, 0xD0, 0xF0: return Array("d".utf8)
        case 0xDE, 0xFE: return Array("th".utf8)
        case 0x131: return Array("i".utf8)
        case 0x132, 0x133: return Array("ij".utf8)
        case 0xD7, 0xF7: return []
        default: break
        }
        guard let scalar = Unicode.Scalar(code), scalar.properties.isAlphabetic else { return [] }
        // The scalar's name says which base letter it carries: "LATIN SMALL LETTER U WITH DIAERESIS" → u.
        if let name = scalar.properties.name, name.hasPrefix("LATIN ") {
            let words = name.split(separator: " ")
            if let letter = words.firstIndex(of: "LETTER"), letter + 1 < words.count {
                let base = words[letter + 1]
                if base.count == 1, let ascii = base.utf8.first, ascii >= 65, ascii <= 90 { return [ascii + 32] }
                if base.count == 2, base.utf8.allSatisfy({ $0 >= 65 && $0 <= 90 }) { return base.utf8.map { $0 + 32 } }
            }
        }
        return Array(String(scalar).lowercased().utf8)
    }

    /// Calls `body` with each folded token of `text`, in order (bytes valid only during the call).
    public static func forEachToken(in text: some StringProtocol, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumTokenLength + 4) { buffer in
            var length = 0
            func flush() {
                if length > 0 { body(UnsafeBufferPointer(rebasing: buffer[0..<length])) }
                length = 0
            }
            func append(_ byte: UInt8) {
                if length < maximumTokenLength { buffer[length] = byte; length += 1 }
            }
            for scalar in text.unicodeScalars {
                let code = scalar.value
                if code < 0x80 {
                    let byte = UInt8(code)
                    if byte >= 65 && byte <= 90 { append(byte + 32) }
                    else if (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57) { append(byte) }
                    else { flush() }
                } else if code >= 0xC0 && code < 0x250 {
                    let folded = latinTable[Int(code - 0xC0)]
                    if folded.isEmpty { flush() } else { for byte in folded { append(byte) } }
                } else if code >= 0x300 && code < 0x370 {
                    continue  // combining marks of decomposed text
                } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                    // Other scripts: lowercased, kept whole (a scalar is never cut in the middle).
                    for lower in scalar.properties.lowercaseMapping.unicodeScalars {
                        let utf8 = UTF8.encode(lower)!
                        if length + utf8.count > maximumTokenLength { break }
                        for byte in utf8 { append(byte) }
                    }
                } else {
                    flush()
                }
            }
            flush()
        }
    }

    /// The folded tokens of `text`, as byte arrays.
    public static func tokens(of text: some StringProtocol) -> [[UInt8]] {
        var result: [[UInt8]] = []
        forEachToken(in: text) { result.append(Array($0)) }
        return result
    }

    /// The folded form of `text`: its tokens joined by single spaces.
    public static func folded(_ text: some StringProtocol) -> String {
        String(decoding: Array(tokens(of: text).joined(separator: [32])), as: UTF8.self)
    }

    /// A 64-bit set of the token's characters (bits 0–35: a–z and 0–9; 36–63: other bytes, hashed), for a quick
    /// test that two tokens cannot be within a few edits of each other.
    @inline(__always)
    public static func signature(_ token: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var bits: UInt64 = 0
        for byte in token { bits |= 1 << UInt64(signatureBit(byte)) }
        return bits
    }

    @inline(__always) static func signatureBit(_ byte: UInt8) -> UInt8 {
        if byte >= 97 && byte <= 122 { return byte - 97 }
        if byte >= 48 && byte <= 57 { return 26 + byte - 48 }
        return 36 + byte % 28
    }
}

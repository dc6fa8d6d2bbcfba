/// Case and accent folding of place names and queries into search tokens: "Bismarckplatz" and "BISMARCKPLATZ" and
/// "Bísmarckplatz" all fold to `bismarckplatz`; "Café Müller" to `cafe`, `muller`; "Straße" to `strasse`.
///
/// ASCII is lowercased; Latin letters with diacritics (U+00C0–U+024F, U+1E00–U+1EFF) lose them (ß → ss, æ → ae,
/// œ → oe, ø → o, ł → l, đ/ð → d, þ → th); combining marks (U+0300–U+036F) are dropped; Greek and Cyrillic are
/// lowercased, other scripts kept as they are. Tokens are the runs of letters and digits; ASCII and Latin-1
/// punctuation, spacing modifiers, general punctuation, symbols, CJK punctuation and emoji separate them. No
/// Unicode tables are consulted per character (so folding costs about as much as copying).
public enum PlaceTextFolding {
    /// Longest token kept, in bytes (longer runs are cut): bounds the typo comparison's work.
    public static let maximumTokenLength = 48

    /// Folded replacements for U+00C0 ..< U+0250 (empty: not a letter, separates tokens).
    private static let latinTable: [[UInt8]] = (0xC0..<0x250).map { fold(latin: UInt32($0)) }
    /// The same for Latin Extended Additional, U+1E00 ..< U+1F00 (Vietnamese and others).
    private static let latinAdditionalTable: [[UInt8]] = (0x1E00..<0x1F00).map { fold(latin: UInt32($0)) }

    /// Whether a scalar of U+0370 and above separates tokens: punctuation, symbols, spaces and emoji blocks.
    @inline(__always) static func isSeparator(_ code: UInt32) -> Bool {
        (code >= 0x2000 && code < 0x2C00) || (code >= 0x3000 && code < 0x3040) || (code >= 0xFE10 && code < 0xFE70)
            || (code >= 0xFF00 && code < 0xFF10) || code >= 0x1F000 || code == 0x37E || code == 0x387 || code == 0x589
            || code == 0x5BE || code == 0x60C || code == 0x61B || code == 0x61F || code == 0x6D4 || code == 0xFEFF
    }

    /// Lowercase of Greek and Cyrillic capitals (other scripts of U+0370 and above are kept as they are).
    @inline(__always) static func lowercase(_ code: UInt32) -> UInt32 {
        switch code {
        case 0x391...0x3A9 where code != 0x3A2: return code + 0x20
        case 0x386: return 0x3AC
        case 0x388...0x38A: return code + 0x25
        case 0x38C: return 0x3CC
        case 0x38E, 0x38F: return code + 0x3F
        case 0x410...0x42F: return code + 0x20
        case 0x400...0x40F: return code + 0x50
        case 0x460...0x4FF where code & 1 == 0 && !(code >= 0x482 && code < 0x48A): return code + 1
        default: return code
        }
    }

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
                } else if code >= 0x1E00 && code < 0x1F00 {
                    let folded = latinAdditionalTable[Int(code - 0x1E00)]
                    if folded.isEmpty { flush() } else { for byte in folded { append(byte) } }
                } else if code < 0xC0 || (code >= 0x250 && code < 0x370) {
                    // Latin-1 punctuation and symbols, spacing modifiers, combining marks (dropped: decomposed accents).
                    if code < 0x300 { flush() }
                } else if isSeparator(code) {
                    flush()
                } else {
                    // Other scripts: lowercased (Greek, Cyrillic), kept whole (a scalar is never cut in the middle).
                    let utf8 = UTF8.encode(Unicode.Scalar(lowercase(code)) ?? scalar)!
                    if length + utf8.count <= maximumTokenLength { for byte in utf8 { append(byte) } }
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

/// Parsers for the numeric attributes of OSM XML, working on C strings without building Swift strings.
public enum OSMNumberParsing {
    /// Parses a decimal integer with optional sign ("123", "-5"), the whole Int64 range included
    /// (-9223372036854775808); nil if anything else is present or the value is out of range.
    @inlinable
    public static func parseInt64(_ text: UnsafePointer<CChar>) -> Int64? {
        var p = text
        var negative = false
        if p.pointee == 45 /* - */ { negative = true; p += 1 } else if p.pointee == 43 /* + */ { p += 1 }
        // The magnitude, up to 2^63 for a negative value (Int64.min has no positive counterpart).
        let limit: UInt64 = negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
        var value: UInt64 = 0
        var digits = 0
        while p.pointee >= 48 && p.pointee <= 57 {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(UInt64(p.pointee - 48))
            if o1 || o2 || a > limit { return nil }
            value = a
            digits += 1
            p += 1
        }
        if digits == 0 || p.pointee != 0 { return nil }
        return negative ? Int64(truncatingIfNeeded: 0 &- value) : Int64(value)
    }

    /// Parses a decimal degree value ("49.4123456", "-8.1", "1e-3") into units of 1e-7 degree, rounding half away from zero.
    @inlinable
    public static func parseFixed7(_ text: UnsafePointer<CChar>) -> Int64? {
        var p = text
        var negative = false
        if p.pointee == 45 { negative = true; p += 1 } else if p.pointee == 43 { p += 1 }
        var whole: Int64 = 0
        var digits = 0
        while p.pointee >= 48 && p.pointee <= 57 {
            whole = whole &* 10 &+ Int64(p.pointee - 48)
            digits += 1
            if digits > 11 { return nil } // 11 whole digits keep whole * 10_000_000 inside Int64
            p += 1
        }
        var fraction: Int64 = 0
        var fractionDigits = 0
        var roundUp = false
        if p.pointee == 46 /* . */ {
            p += 1
            while p.pointee >= 48 && p.pointee <= 57 {
                if fractionDigits < 7 {
                    fraction = fraction * 10 + Int64(p.pointee - 48)
                } else if fractionDigits == 7 {
                    roundUp = p.pointee >= 53
                }
                fractionDigits += 1
                digits += 1
                p += 1
            }
        }
        if digits == 0 { return nil }
        if p.pointee != 0 {
            // Rare forms (exponents): fall back to the C library.
            guard p.pointee == 101 || p.pointee == 69 else { return nil }
            var end: UnsafeMutablePointer<CChar>? = nil
            let value = strtod(text, &end)
            guard let end, end.pointee == 0, value.isFinite, abs(value) < 1e5 else { return nil }
            return Int64((value * 1e7).rounded())
        }
        var scaled = fraction
        for _ in fractionDigits..<max(fractionDigits, 7) { scaled *= 10 }
        var result = whole * 10_000_000 + scaled + (roundUp ? 1 : 0)
        if negative { result = -result }
        return result
    }
}

#if canImport(Glibc)
import Glibc
#endif

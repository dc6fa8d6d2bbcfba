/// Numbers in plain decimal notation rounded to a fixed number of places, written straight into bytes without
/// Foundation's formatters: `12.3`, `-75`, `0.0000001`; never an exponent below 9 × 10¹⁵ (at 0 decimals).
/// The one rounding every output of Wayfinder uses (JSON, CSV, text tables).
public enum FixedDecimal {
    private static let powersOfTen: [Int64] = (0...15).map { p in (0..<p).reduce(Int64(1)) { acc, _ in acc * 10 } }

    /// Appends `value` rounded half away from zero to `decimals` places (0...15); with `trimmingZeros` (the default)
    /// trailing zeros of the fraction and a bare point are left out, else all decimals are kept ("-75.000000").
    /// Returns false, writing nothing, when `value` is not finite.
    @discardableResult
    public static func append(_ value: Double, decimals: Int, trimmingZeros: Bool = true, to out: inout [UInt8]) -> Bool {
        guard value.isFinite else { return false }
        var d = min(max(decimals, 0), 15)
        var scaled = (value * Double(powersOfTen[d])).rounded()
        // Too many digits for 64 bits at this precision: keep fewer decimals rather than write an exponent.
        while abs(scaled) >= 9.0e15 && d > 0 { d -= 1; scaled = (value * Double(powersOfTen[d])).rounded() }
        guard abs(scaled) < 9.0e18 else {
            out.append(contentsOf: "\(value.rounded())".utf8)
            return true
        }
        var k = Int64(scaled)
        if k == 0 && (trimmingZeros || d == 0) { out.append(UInt8(ascii: "0")); return true }
        if k < 0 { out.append(UInt8(ascii: "-")); k = -k }
        let scale = powersOfTen[d]
        appendDigits(UInt64(k / scale), width: 1, to: &out)
        var fraction = k % scale, width = d
        if trimmingZeros { while width > 0 && fraction % 10 == 0 { fraction /= 10; width -= 1 } }
        if width > 0 {
            out.append(UInt8(ascii: "."))
            appendDigits(UInt64(fraction), width: width, to: &out)
        }
        return true
    }

    /// `value` as `append` writes it, or "null" when it is not finite.
    public static func string(_ value: Double, decimals: Int, trimmingZeros: Bool = true) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(24)
        if !append(value, decimals: decimals, trimmingZeros: trimmingZeros, to: &out) { return "null" }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends a whole number in decimal.
    public static func append(_ value: Int, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        appendDigits(UInt64(value.magnitude), width: 1, to: &out)
    }

    /// The decimal digits of `value`, left-padded with zeros to `width`.
    static func appendDigits(_ value: UInt64, width: Int, to out: inout [UInt8]) {
        var count = 1, t = value
        while t >= 10 { t /= 10; count += 1 }
        let total = max(count, width)
        let start = out.count
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: total))
        var n = value, i = start + total - 1
        repeat { out[i] = UInt8(truncatingIfNeeded: 48 + n % 10); n /= 10; i -= 1 } while n > 0
    }
}

import Wayfinder

/// Numbers given to options, checked against their range; errors name the option, the value and the range (exit 2).
enum OptionValue {
    /// A whole number within `range`.
    static func integer(_ text: String, option: String, range: ClosedRange<Int>) throws -> Int {
        guard let n = Int(text), range.contains(n) else {
            throw CommandError.usage("\(option) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return n
    }

    /// A number of bytes within `range`: a whole number, or one with a binary suffix K, M or G (KiB, MiB, GiB),
    /// e.g. 512M or 4G.
    static func bytes(_ text: String, option: String, range: ClosedRange<Int>) throws -> Int {
        var digits = Substring(text)
        var shift = 0
        if let last = digits.last, let s = ["K": 10, "k": 10, "M": 20, "m": 20, "G": 30, "g": 30][last] { shift = s; digits = digits.dropLast() }
        guard let n = Int(digits), n >= 0, n <= Int.max >> shift, range.contains(n << shift) else {
            throw CommandError.usage("\(option) must be a number of bytes from \(size(range.lowerBound)) to \(size(range.upperBound)) (a whole number, or with K, M or G: 512M, 4G), not '\(text)'")
        }
        return n << shift
    }

    /// A decimal number within `range` (finite).
    static func decimal(_ text: String, option: String, unit: String, above lower: Double, upTo upper: Double) throws -> Double {
        guard let x = Double(text), x.isFinite, x > lower, x <= upper else {
            throw CommandError.usage("\(option) must be a number of \(unit) greater than \(format(lower)) and at most \(format(upper)), not '\(text)'")
        }
        return x
    }

    /// A byte count the way `bytes` reads it: 4G, 64M, 1K, or plain bytes.
    static func size(_ n: Int) -> String {
        for (suffix, shift) in [("G", 30), ("M", 20), ("K", 10)] where n >= 1 << shift && n % (1 << shift) == 0 { return "\(n >> shift)\(suffix)" }
        return "\(n)"
    }

    private static func format(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x) }
}

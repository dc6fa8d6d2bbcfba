import Graph

/// The tests' seeded random numbers: Graph's SplitMix64, so a seed gives the same values on every run and machine.
public typealias SeededRandom = SplitMix64

extension SplitMix64 {
    /// A double in [0, 1) from the next 53 random bits.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    /// An integer in 0..<n (0 when n < 1), by remainder: slightly uneven for huge n, which tests do not mind.
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
}

/// SplitMix64, a small seeded random number generator: the same seed gives the same numbers on every run and
/// machine, for reproducible random places in tests and benchmarks.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    /// A generator starting from `state`.
    public init(state: UInt64) { self.state = state }
    /// A generator starting from `seed` (the same as `init(state:)`).
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

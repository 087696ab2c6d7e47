/// SplitMix64: a small, fast, seedable generator, so that a randomised test's failing seed
/// reproduces exactly. The one generator of every randomised test.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    /// The generator's state: the seed, advanced with each number drawn.
    public var state: UInt64

    /// A generator starting from `seed`: the same seed draws the same numbers.
    public init(seed: UInt64) { state = seed }

    /// The next number of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

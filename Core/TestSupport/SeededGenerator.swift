/// SplitMix64: a small, fast generator whose whole sequence follows from its seed, so a seed's
/// workload — a simulation, a load, a benchmark's data, a property test — is the same on every run
/// and every machine, and a failure replays exactly.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with probability `percent` / 100.
    public mutating func chance(_ percent: Int) -> Bool {
        Int.random(in: 0..<100, using: &self) < percent
    }

    /// A number in `0 ..< bound` (`bound` above 0).
    public mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// One of `items` (not empty).
    public mutating func pick<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }
}

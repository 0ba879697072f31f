/// A small, fast, seedable random number generator (SplitMix64, Steele, Lea and Flood 2014),
/// so that a randomized test run can be replayed exactly from its seed.
///
/// It draws bounded numbers with its own `below(_:)` rather than the standard library's
/// `random(in:using:)`, whose algorithm may change between toolchains: a seed printed by a
/// failing run must replay the same sequence on any toolchain.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    return Self.mix(state)
  }

  /// A number in `0..<bound`. The modulo bias is below 2⁻⁵⁰ for the small bounds tests use.
  mutating func below(_ bound: Int) -> Int {
    precondition(bound > 0)
    return Int(next() % UInt64(bound))
  }

  /// `true` with the given probability in percent.
  mutating func percent(_ chance: Int) -> Bool { below(100) < chance }

  /// One element of a non-empty array.
  mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

  /// SplitMix64's finaliser: a bijective scramble of 64 bits, used to derive independent seeds.
  static func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

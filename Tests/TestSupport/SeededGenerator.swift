/// SplitMix64: a random number generator with a fixed seed, so a random-input test sends the same
/// inputs on every run and a failure can be replayed.
public struct SeededGenerator: RandomNumberGenerator {
    public var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `n` random bytes.
    public mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8.random(in: 0...255, using: &self) } }

    /// `input` with one to four random edits: bytes flipped, inserted, deleted, duplicated, or a cut.
    public mutating func mutate(_ input: [UInt8]) -> [UInt8] {
        var b = input
        for _ in 0..<Int.random(in: 1...4, using: &self) {
            let at = b.isEmpty ? 0 : Int.random(in: 0..<b.count, using: &self)
            switch Int.random(in: 0..<6, using: &self) {
            case 0 where !b.isEmpty: b[at] = UInt8.random(in: 0...255, using: &self)
            case 1: b.insert(contentsOf: bytes(Int.random(in: 1...8, using: &self)), at: at)
            case 2 where !b.isEmpty: b.removeSubrange(at..<min(b.count, at + Int.random(in: 1...8, using: &self)))
            case 3 where !b.isEmpty: b.insert(contentsOf: b[at..<min(b.count, at + 16)], at: at)
            case 4: b = Array(b.prefix(at))
            default:
                // A byte the protocol gives meaning to, where it does not belong.
                let special: [UInt8] = [0x0D, 0x0A, 0x00, 0x3A, 0x20, 0x09, 0x7F, 0xFF]
                b.insert(special.randomElement(using: &self)!, at: at)
            }
        }
        return b
    }
}

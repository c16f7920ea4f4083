import Testing

@testable import Conformance

/// `containsBytes(of:)`, the byte search the secret rules run on every captured push: it must find a value
/// wherever it sits (first byte, last byte, after a false start) and nothing that is not there.
@Suite struct ByteSearchTests {
    @Test(arguments: [
        ("MHcCAQEEIBvY1r7n", "MHcCAQEEIBvY1r7n", true), ("{\"k\":\"secret\"}", "{\"k", true),
        ("{\"k\":\"secret\"}", "secret\"}", true), ("aaab", "aab", true), ("abababc", "ababc", true),
        ("café-crème", "é-cr", true), ("", "", true), ("abc", "", true),
        ("", "a", false), ("ab", "abc", false), ("aaa", "aab", false), ("secre", "secret", false),
        ("cafe", "é", false), ("SECRET", "secret", false),
    ])
    func findsExactlyTheBytesThatAreThere(haystack: String, needle: String, found: Bool) {
        #expect(haystack.containsBytes(of: needle) == found)
    }

    /// Against the plain definition (some offset where every byte matches) on many short strings over a small
    /// alphabet, where false starts and overlaps are common.
    @Test func agreesWithTheDefinition() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abé")
        for _ in 0..<2_000 {
            let haystack = String(
                (0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement()! })
            let needle = String((0..<Int.random(in: 1...4, using: &generator)).map { _ in alphabet.randomElement()! })
            let h = Array(haystack.utf8)
            let n = Array(needle.utf8)
            let expected =
                n.count <= h.count && (0...(h.count - n.count)).contains { Array(h[$0..<($0 + n.count)]) == n }
            #expect(haystack.containsBytes(of: needle) == expected, "\(haystack) / \(needle)")
        }
    }
}

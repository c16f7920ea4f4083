import Signing
import Testing

@Suite struct SecureRandomTests {
    @Test func bytesHaveRequestedLengthAndDiffer() {
        #expect(SecureRandom.bytes(0).isEmpty)
        #expect(SecureRandom.bytes(32).count == 32)
        #expect(SecureRandom.bytes(32) != SecureRandom.bytes(32))
    }

    @Test func uuidIsLowercaseVersion4() {
        for _ in 0..<100 {
            let u = SecureRandom.uuid()
            let chars = Array(u)
            #expect(chars.count == 36)
            #expect([8, 13, 18, 23].allSatisfy { chars[$0] == "-" })
            #expect(chars[14] == "4")
            #expect("89ab".contains(chars[19]))
            #expect(u.allSatisfy { "0123456789abcdef-".contains($0) })
        }
        #expect(SecureRandom.uuid() != SecureRandom.uuid())
    }

    @Test func alphanumeric() {
        let upper = SecureRandom.alphanumeric(1000)
        #expect(upper.count == 1000)
        #expect(upper.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) })
        let mixed = SecureRandom.alphanumeric(1000, uppercaseOnly: false)
        #expect(mixed.count == 1000)
        #expect(mixed.contains { ("a"..."z").contains($0) })
        #expect(SecureRandom.alphanumeric(0).isEmpty)
    }
}

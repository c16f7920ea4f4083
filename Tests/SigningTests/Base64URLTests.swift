import Signing
import Testing

@Suite struct Base64URLTests {
    @Test func rfc4648Vectors() {
        // RFC 4648 §10 vectors, without padding.
        let vectors = [
            "": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy",
        ]
        for (plain, encoded) in vectors {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(Base64URL.decode(encoded) == Array(plain.utf8))
        }
    }

    @Test func urlAlphabetAndPadding() {
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
        #expect(Base64URL.decode("-_-_") == [0xFB, 0xFF, 0xBF])
        #expect(Base64URL.decode("Zg==") == Array("f".utf8))
        #expect(Base64URL.decode("Zm8=") == Array("fo".utf8))
    }

    @Test func rejectsInvalidInput() {
        #expect(Base64URL.decode("+/+/") == nil)  // standard alphabet
        #expect(Base64URL.decode("Zm9v!") == nil)
        #expect(Base64URL.decode("Z") == nil)  // impossible length
        #expect(Base64URL.decode("Zg=") == nil)  // wrong padding
        #expect(Base64URL.decode("Zg===") == nil)
        #expect(Base64URL.decode("Zm 9v") == nil)
    }

    @Test func roundTripsAllLengths() {
        for n in 0..<70 {
            let bytes = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }
}

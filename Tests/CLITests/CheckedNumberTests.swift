import InputLimits
import Testing

/// `CheckedNumber`, the one conversion every number from a peer or the command line goes through.
@Suite struct CheckedNumberTests {
    @Test func decimalTextInRangeIsRead() throws {
        let seconds = NumberRange.seconds(upTo: 60)
        #expect(try CheckedNumber.value("1.5", in: seconds) == 1.5)
        #expect(try CheckedNumber.value("6e1", in: seconds) == 60)
        #expect(try CheckedNumber.value("-0", in: seconds) == 0)
        #expect(try CheckedNumber.value("443", in: .port) == 443)
        #expect(try CheckedNumber.int64("-5", in: -10...10) == -5)
    }

    @Test func everythingElseIsATypedErrorNamingTheRange() {
        let seconds = NumberRange.seconds(upTo: 60, positive: true)
        for text in [
            "", "0", "61", "inf", "-inf", "nan", "infinity", "0x10", " 1", "1 ", "1e", "e5", "--1", "1..2",
            "1e400", String(repeating: "1", count: 400),
        ] {
            #expect(throws: NumberError.self, "\(text.prefix(20))") { try CheckedNumber.value(text, in: seconds) }
        }
        for text in ["1.0", "1e3", "65536", "-1", "+-1"] {
            #expect(throws: NumberError.self, "\(text)") { try CheckedNumber.value(text, in: .port) }
        }
        let error = NumberError(text: String(repeating: "9", count: 400), range: .port)
        #expect(
            error.description == "takes a whole number from 0 to 65535, not '\(String(repeating: "9", count: 37))...'")
    }

    @Test func convertingADoubleNeverTraps() {
        #expect(CheckedNumber.int64(1e30, in: Int64.min...Int64.max) == nil)
        #expect(CheckedNumber.int64(9.3e18, in: Int64.min...Int64.max) == nil)
        #expect(CheckedNumber.int64(.nan, in: 0...10) == nil)
        #expect(CheckedNumber.int64(-.infinity, in: 0...10) == nil)
        #expect(CheckedNumber.int64(7.9, in: 0...10) == 7)
        #expect(CheckedNumber.milliseconds(seconds: 1e19) == nil)
        #expect(CheckedNumber.milliseconds(seconds: 1.2345) == 1235)
    }
}

import Conformance
import JSON

/// How the Callx rules read an FCM invitation's `android.ttl`: whole seconds, never zero, between the seconds
/// left at arrival (rounded down) and the seconds left when the invitation was issued (rounded up) — a backend may
/// round either way and builds the message somewhere between issuing and arrival.
enum FCMTTL {
    static let path = "message.android.ttl"

    /// What is wrong with the ttl, if anything; `zero` for a ttl of `0s` (CALLX-FCM-7), every other finding is
    /// CALLX-FCM-6.
    static func finding(_ push: PushDocument, android: JSONValue?, callx: JSONValue, call: CallTimeline?)
        -> (zero: Bool, expected: String, actual: String)?
    {
        guard let raw = android?["ttl"] else {
            return (false, "the whole seconds left until expiresAtMs", "absent (FCM then keeps it 4 weeks)")
        }
        guard let text = raw.stringValue, let ttl = seconds(text) else {
            return (false, "a duration in whole seconds such as \"30s\"", Describe.value(raw))
        }
        if ttl.whole == 0 && !ttl.fractional { return (true, "more than 0s", Describe.quoted(text)) }
        if ttl.fractional { return (false, "whole seconds", Describe.quoted(text)) }
        guard let expires = ValueRules.millis(callx["expiresAtMs"]) ?? call?.expiresAtMs else { return nil }
        let issued = ValueRules.millis(callx["issuedAtMs"]) ?? call?.createdAtMs
        var low = push.arrivalMs.map { ValueRules.floorSeconds(expires - $0) }
        var high = issued.map { ValueRules.ceilSeconds(expires - $0) }
        if let l = low, let h = high, l > h { (low, high) = (h, l) }  // clocks disagree: judge the union
        let tooLow = low.map { ttl.whole < $0 } ?? false
        let tooHigh = high.map { ttl.whole > $0 } ?? false
        guard tooLow || tooHigh else { return nil }
        var bounds: [String] = []
        if let low { bounds.append("at least \(low)s (floor((expiresAtMs − arrival)/1000))") }
        if let high {
            let from = ValueRules.millis(callx["issuedAtMs"]) != nil ? "issuedAtMs" : "createdAtMs"
            bounds.append("at most \(high)s (ceil((expiresAtMs − \(from))/1000))")
        }
        return (false, bounds.joined(separator: " and "), Describe.quoted(text))
    }

    /// `android.ttl` as protobuf Duration JSON: seconds with up to nine fraction digits and an `s`.
    static func seconds(_ text: String) -> (whole: Int64, fractional: Bool)? {
        guard text.hasSuffix("s") else { return nil }
        let number = text.dropLast()
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let intPart = parts.first, !intPart.isEmpty, intPart.utf8.count <= 12,
            intPart.allSatisfy({ $0.isASCII && $0.isNumber }), let whole = Int64(intPart)
        else { return nil }
        var fractional = false
        if parts.count == 2 {
            let frac = parts[1]
            guard !frac.isEmpty, frac.count <= 9, frac.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            fractional = frac.contains { $0 != "0" }
        }
        return (whole, fractional)
    }
}

import HTTP

/// The header fields the APNs mock reads, each the first of its name as `HTTPHeaders`' subscript
/// gives it, found in one pass: looking each up by name compared every field's name every time.
///
/// Not copyable, so the checks borrow it: copies of its strings (a retain and a release of each)
/// cost about 25 reference-count operations per push. The numeric fields are kept as what the checks
/// make of them, not as strings: the mock records neither string, and parsing a `String` into an
/// integer retained and released it.
struct APNsRequestHeaders: ~Copyable {
    var authorization: String?
    var apnsID: String?
    var topic: String?
    var pushType: String?
    /// `apns-priority`: 10, 5 or 1, `.malformed` for any other value.
    var priority: Number = .absent
    /// `apns-expiration`: UNIX seconds, `.malformed` unless 1 to 18 ASCII digits.
    var expiration: Number = .absent
    var collapseID: String?

    /// A numeric field: absent, a value the mock accepts, or one it rejects.
    enum Number: Equatable {
        case absent
        case malformed
        case value(Int64)
    }

    init(_ headers: HTTPHeaders) {
        // Names are stored lower-case; the byte count picks the one candidate to compare with.
        for (name, value) in headers.fields {
            switch name.utf8.count {
            case 7: if apnsID == nil && name == "apns-id" { apnsID = value }
            case 10: if topic == nil && name == "apns-topic" { topic = value }
            case 13:
                if name == "authorization" {
                    if authorization == nil { authorization = value }
                } else if priority == .absent && name == "apns-priority" {
                    priority = Self.priority(value)
                }
            case 14: if pushType == nil && name == "apns-push-type" { pushType = value }
            case 15: if expiration == .absent && name == "apns-expiration" { expiration = Self.expiration(value) }
            case 16: if collapseID == nil && name == "apns-collapse-id" { collapseID = value }
            default: break
            }
        }
    }

    /// `apns-priority` `value`: APNs knows 10, 5 and 1.
    static func priority(_ value: String) -> Number {
        if value == "10" { return .value(10) }
        if value == "5" { return .value(5) }
        if value == "1" { return .value(1) }
        return .malformed
    }

    /// `apns-expiration` `value`: 1 to 18 ASCII digits (which always fit an `Int64`).
    static func expiration(_ value: String) -> Number {
        value.utf8.withContiguousStorageIfAvailable(expiration(bytes:)) ?? expiration(bytes: Array(value.utf8))
    }

    private static func expiration<Bytes: Collection<UInt8>>(bytes: Bytes) -> Number {
        guard !bytes.isEmpty, bytes.count <= 18 else { return .malformed }
        var seconds: Int64 = 0
        for b in bytes {
            guard b >= 0x30 && b <= 0x39 else { return .malformed }
            seconds = seconds &* 10 &+ Int64(b &- 0x30)
        }
        return .value(seconds)
    }
}

/// How a conformance run signs one webhook delivery: correctly, or in one of the ways a receiver must refuse.
public enum WebhookSignatureVariant: Sendable, Equatable, Hashable {
    /// Signed now with the endpoint's secret.
    case valid
    /// Signed now with a different secret (same length, every byte changed).
    case wrongSecret
    /// No signature header at all.
    case none
    /// `v1=` only: the correct digest without its timestamp.
    case missingTimestamp
    /// `t=` only: no digest.
    case missingV1
    /// A header that is neither pairs nor a digest.
    case garbage
    /// Correctly signed, but `seconds` before now (a replay: the seed refuses |now − t| > 300 s).
    case stale(seconds: Int64)
    /// Correctly signed, but `seconds` after now.
    case future(seconds: Int64)
    /// Correctly signed, then one byte of the body changed (the JSON stays valid).
    case bodyChanged

    /// The scenario names: `valid`, `wrong-secret`, `none`, `missing-t`, `missing-v1`, `garbage`, `stale`,
    /// `future`, `body-changed`.
    public static let names = [
        "valid", "wrong-secret", "none", "missing-t", "missing-v1", "garbage", "stale", "future", "body-changed",
    ]

    /// How far a `stale` signature lies in the past by default: one second beyond the seed's 300 s tolerance (a
    /// slow delivery only makes it staler).
    public static let defaultStaleSeconds: Int64 = 301
    /// How far a `future` signature lies ahead by default: 300 s plus 30 s for the request's travel, since every
    /// second the delivery takes brings it closer to the receiver's clock; on a loaded machine a +301 s signature
    /// could arrive inside the tolerance and a conforming receiver would rightly accept it.
    public static let defaultFutureSeconds: Int64 = 330

    /// The variant for a scenario name (`stale`/`future` with `seconds`, else the defaults above); nil for an
    /// unknown name.
    public init?(name: String, seconds: Int64? = nil) {
        switch name {
        case "valid": self = .valid
        case "wrong-secret": self = .wrongSecret
        case "none": self = .none
        case "missing-t": self = .missingTimestamp
        case "missing-v1": self = .missingV1
        case "garbage": self = .garbage
        case "stale": self = .stale(seconds: seconds ?? Self.defaultStaleSeconds)
        case "future": self = .future(seconds: seconds ?? Self.defaultFutureSeconds)
        case "body-changed": self = .bodyChanged
        default: return nil
        }
    }

    /// The scenario name (without the seconds).
    public var name: String {
        switch self {
        case .valid: "valid"
        case .wrongSecret: "wrong-secret"
        case .none: "none"
        case .missingTimestamp: "missing-t"
        case .missingV1: "missing-v1"
        case .garbage: "garbage"
        case .stale: "stale"
        case .future: "future"
        case .bodyChanged: "body-changed"
        }
    }

    /// True for the one variant a receiver must accept.
    public var isValid: Bool { self == .valid }

    /// The body and header to send for `body`, signed (or not) with `secret` as this variant says, `now` being
    /// the current Unix time in seconds.
    public func sign(_ body: [UInt8], secret: [UInt8], now: Int64) -> SignedWebhook {
        switch self {
        case .valid:
            return SignedWebhook(
                body: body, header: WebhookSignatureHeader(signing: body, secret: secret, timestamp: now))
        case .wrongSecret:
            let other = secret.isEmpty ? [0x5A] : secret.map { $0 ^ 0x5A }
            return SignedWebhook(
                body: body, header: WebhookSignatureHeader(signing: body, secret: other, timestamp: now))
        case .none:
            return SignedWebhook(body: body, headerValue: nil, signedAt: nil)
        case .missingTimestamp:
            let v1 = WebhookSignatureHeader(signing: body, secret: secret, timestamp: now).v1
            return SignedWebhook(body: body, headerValue: "v1=\(v1)", signedAt: now)
        case .missingV1:
            return SignedWebhook(body: body, headerValue: "t=\(now)", signedAt: now)
        case .garbage:
            return SignedWebhook(body: body, headerValue: "not a signature", signedAt: nil)
        case .stale(let seconds):
            let t = now - seconds
            return SignedWebhook(
                body: body, header: WebhookSignatureHeader(signing: body, secret: secret, timestamp: t))
        case .future(let seconds):
            let t = now + seconds
            return SignedWebhook(
                body: body, header: WebhookSignatureHeader(signing: body, secret: secret, timestamp: t))
        case .bodyChanged:
            let signature = WebhookSignatureHeader(signing: body, secret: secret, timestamp: now)
            return SignedWebhook(body: Self.changingOneByte(body), header: signature)
        }
    }

    /// `body` with one byte changed so that valid JSON stays valid JSON: the last ASCII digit becomes another digit
    /// (digits only occur inside strings and numbers), or failing that the last ASCII letter another letter.
    static func changingOneByte(_ body: [UInt8]) -> [UInt8] {
        var changed = body
        if let i = changed.lastIndex(where: { $0 >= 0x30 && $0 <= 0x39 }) {
            changed[i] = changed[i] == 0x30 ? 0x31 : 0x30
        } else if let i = changed.lastIndex(where: { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) {
            changed[i] = (changed[i] | 0x20) == 0x61 ? changed[i] + 1 : changed[i] - 1
        } else if !changed.isEmpty {
            changed[changed.count - 1] ^= 0x01
        }
        return changed
    }
}

/// One webhook delivery as it goes on the wire: the body bytes and the signature header's value (nil: no header).
public struct SignedWebhook: Sendable, Equatable {
    /// The exact request body.
    public var body: [UInt8]
    /// The `x-dialstack-signature` value, or nil to send none.
    public var headerValue: String?
    /// The `t` the header carries, when it carries one.
    public var signedAt: Int64?

    /// A delivery with an arbitrary header value.
    public init(body: [UInt8], headerValue: String?, signedAt: Int64?) {
        self.body = body
        self.headerValue = headerValue
        self.signedAt = signedAt
    }

    /// A delivery carrying `header`.
    public init(body: [UInt8], header: WebhookSignatureHeader) {
        self.init(body: body, headerValue: header.header, signedAt: header.timestamp)
    }
}

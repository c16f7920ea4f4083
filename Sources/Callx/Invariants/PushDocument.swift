import Conformance
import HTTP
import JSON
import PushMocks

/// One push as the profile checks see it, however it was obtained: a capture of the mocks, a capture
/// rendered as JSON by the control API, or a bare APNs body or FCM message. Fields a source lacks are
/// nil, and the rules that need them are skipped.
public struct PushDocument: Sendable {
    /// Which provider the push was for (`apns`, `fcm`).
    public typealias Kind = MockProviderID

    public var kind: Kind
    /// The capture's sequence number, when the push was captured.
    public var sequence: Int?
    /// When the push arrived at the mock (ms since the UNIX epoch).
    public var arrivalMs: Int64?
    /// Whether the mock accepted it; nil when not a capture.
    public var accepted: Bool?
    /// The APNs mock (environment) that received it.
    public var environment: APNsEnvironment?
    public var method: String?
    /// The request path without the query.
    public var path: String?
    /// `HTTP/2` or `HTTP/1.1`.
    public var httpVersion: String?
    /// Request headers (lower-case names); nil when only a body was given.
    public var headers: HTTPHeaders?
    /// The APNs token from the path, or the FCM `message.token` (or `message.fid`).
    public var deviceToken: String?
    /// The body as JSON; nil when it was not JSON (see `bodyError`).
    public var body: JSONValue?
    /// The body as text, for searching secrets.
    public var bodyText: String
    /// Why the body is not JSON, when it is not.
    public var bodyError: String?

    /// Creates a value from its parts.
    public init(
        kind: Kind, sequence: Int? = nil, arrivalMs: Int64? = nil, accepted: Bool? = nil,
        environment: APNsEnvironment? = nil, method: String? = nil, path: String? = nil, httpVersion: String? = nil,
        headers: HTTPHeaders? = nil, deviceToken: String? = nil, body: JSONValue?, bodyText: String? = nil,
        bodyError: String? = nil
    ) {
        self.kind = kind
        self.sequence = sequence
        self.arrivalMs = arrivalMs
        self.accepted = accepted
        self.environment = environment
        self.method = method
        self.path = path
        self.httpVersion = httpVersion
        self.headers = headers
        self.deviceToken = deviceToken
        self.body = body
        self.bodyText = bodyText ?? body?.serialized() ?? ""
        self.bodyError = bodyError
    }

    /// The push a mock captured; nil for OAuth captures (not pushes).
    public init?(capture: Capture) {
        guard PushChannel.allCases.contains(where: { $0.provider == capture.mock }) else { return nil }
        kind = capture.mock
        sequence = capture.sequence
        arrivalMs = capture.arrivalMs
        accepted = capture.outcome.isAccepted
        environment = capture.environment
        method = capture.method
        path = capture.path
        httpVersion = capture.httpVersion.rawValue
        headers = capture.headers
        bodyText = String(decoding: capture.body, as: UTF8.self)
        if let json = capture.json {
            body = json
        } else {
            do {
                body = try JSONValue.parse(capture.body)
            } catch {
                body = nil
                bodyError = error.description
            }
        }
        deviceToken =
            capture.deviceToken ?? capture.fcmTarget.flatMap {
                Self.addressesInstallation($0.kind.rawValue) ? $0.value : nil
            }
            ?? Self.installationAddress(ofMessage: body?["message"])
    }

    /// Whether an FCM target field addresses one installation: `token`, or `fid` (firebase-admin 7.x
    /// deprecates `token` for it); both are judged alike.
    public static func addressesInstallation(_ field: String) -> Bool { field == "token" || field == "fid" }

    /// The installation an FCM message is sent to: its `token`, or its `fid`.
    public static func installationAddress(ofMessage message: JSONValue?) -> String? {
        message?["token"]?.stringValue ?? message?["fid"]?.stringValue
    }

    // MARK: Reading

    /// The `callx` object an APNs body carries, or the JSON decoded from the `callx` string of the data an FCM
    /// message gives the app (`FCMAppData`: `android.data` when set, else `data`); nil when absent or unreadable.
    public var callx: JSONValue? {
        switch kind {
        case .apns: return body?["callx"]
        case .fcm:
            guard let text = FCMAppData(message: message).value["callx"]?.stringValue else { return nil }
            return try? JSONValue.parse(text)
        default: return nil
        }
    }

    /// The callx `type`, e.g. `call.invited`.
    public var callxType: String? { callx?["type"]?.stringValue }

    /// True when the push carries an invitation.
    public var isInvitation: Bool { callxType == "call.invited" }

    /// An FCM request's `message`.
    public var message: JSONValue? { kind == .fcm ? body?["message"] : nil }

    /// A short name for messages: `capture #3 (apns sandbox)`.
    public var label: String {
        var out = sequence.map { "capture #\($0)" } ?? "the \(kind.rawValue) push"
        if let environment { out += " (\(environment.rawValue))" }
        return out
    }
}

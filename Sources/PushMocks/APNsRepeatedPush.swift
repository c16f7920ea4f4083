import Glibc
import HTTP

/// A push that passed every check reading the request alone, with what those checks found: the next
/// request with the same header list, method, target and body skips them.
///
/// A client sends the same fields request after request, often to one device with one payload, and
/// the HTTP/2 server hands such requests one shared header list; judging each anew cost about a tenth of
/// the APNs mock's CPU per push. The checks that read anything else (the provider token's age and
/// refresh rules, the device registry) run for every request all the same.
///
/// Immutable, so handing it out of the mock's lock costs one retain.
final class APNsRepeatedPush: Sendable {
    /// The header list, kept so that its storage (compared by address) stays this list's.
    let headers: HTTPHeaders
    let method: String
    let target: String
    let body: [UInt8]
    let fields: APNsRequestHeaders
    let credential: APNsMock.ProviderCredential?
    let secrets: [CaptureSecret]
    /// What the checks read, with the provider token's key ID (`apnsID` is filled in per request);
    /// boxed, for the captures of accepted repeats to share.
    let info: CaptureBox<APNsPushInfo>

    init(
        request: HTTPRequest, fields: APNsRequestHeaders, credential: APNsMock.ProviderCredential?,
        secrets: [CaptureSecret], info: APNsPushInfo
    ) {
        headers = request.headers
        method = request.method
        target = request.target
        body = request.body
        self.fields = fields
        self.credential = credential
        self.secrets = secrets
        var info = info
        info.apnsID = ""
        self.info = CaptureBox(info)
    }

    /// Whether `request` is this push again: the same header list in memory, method, target and body bytes.
    func isRepeated(by request: HTTPRequest) -> Bool {
        guard headers.sharesStorage(with: request.headers), body.count == request.body.count,
            method == request.method, target == request.target
        else { return false }
        return body.withUnsafeBytes { mine in
            request.body.withUnsafeBytes { theirs in
                mine.count == 0 || memcmp(mine.baseAddress!, theirs.baseAddress!, mine.count) == 0
            }
        }
    }
}

/// The pushes `APNsRepeatedPush` remembers: one per connection or so, the oldest replaced first.
struct APNsRepeatedPushes {
    static let limit = 16
    private var entries: [APNsRepeatedPush] = []
    private var next = 0

    /// The remembered push `request` repeats, if any.
    func find(_ request: HTTPRequest) -> APNsRepeatedPush? {
        // By index: `first(where:)` retained and released every entry it passed.
        entries.withUnsafeBufferPointer { entries in
            for i in entries.indices where entries[i].isRepeated(by: request) { return entries[i] }
            return nil
        }
    }

    mutating func remember(_ push: APNsRepeatedPush) {
        if entries.count < Self.limit {
            entries.append(push)
        } else {
            entries[next] = push
            next = (next + 1) % Self.limit
        }
    }
}

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
    /// The request, kept so that its head and header list (compared by address) stay its own.
    let request: HTTPRequest
    let fields: APNsRequestHeaders
    let credential: APNsMock.ProviderCredential?
    let secrets: [CaptureSecret]
    /// What the checks read, with the provider token's key ID (no `apnsID`: each capture has its own);
    /// boxed, for the captures of accepted repeats to share.
    let info: CaptureBox<APNsPushInfo>

    init(
        request: HTTPRequest, fields: APNsRequestHeaders, credential: APNsMock.ProviderCredential?,
        secrets: [CaptureSecret], info: APNsPushInfo
    ) {
        self.request = request
        self.fields = fields
        self.credential = credential
        self.secrets = secrets
        self.info = CaptureBox(info)
    }

    /// Whether `other`, whose head is not this push's (`APNsRepeatedPushes.find` compares heads
    /// first), is this push again: the same header list in memory, method, target and body bytes. Heads
    /// differ for equal requests on different connections, or when the server did not compare them.
    func isRepeated(by other: HTTPRequest) -> Bool {
        guard request.headers.sharesStorage(with: other.headers), request.body.count == other.body.count,
            request.method == other.method, request.target == other.target
        else { return false }
        return request.body.withUnsafeBytes { mine in
            other.body.withUnsafeBytes { theirs in
                mine.count == 0 || memcmp(mine.baseAddress!, theirs.baseAddress!, mine.count) == 0
            }
        }
    }
}

/// The pushes `APNsRepeatedPush` remembers: one per connection or so, the oldest replaced first.
struct APNsRepeatedPushes {
    static let limit = 16
    private var entries: [APNsRepeatedPush] = []
    /// The `headID` of each entry's request, alongside: comparing them touches no entry (reading an
    /// entry's request retained and released it).
    private var heads: [ObjectIdentifier] = []
    private var next = 0

    /// The remembered push `request` repeats, if any.
    func find(_ request: HTTPRequest) -> APNsRepeatedPush? {
        // Heads first: a repeat on a connection mostly shares its head with a remembered push.
        // By index: `first(where:)` retained and released every entry it passed.
        let head = request.headID
        if let i = heads.firstIndex(of: head) { return entries[i] }
        return entries.withUnsafeBufferPointer { entries in
            for i in entries.indices where entries[i].isRepeated(by: request) { return entries[i] }
            return nil
        }
    }

    mutating func remember(_ push: APNsRepeatedPush) {
        if entries.count < Self.limit {
            entries.append(push)
            heads.append(push.request.headID)
        } else {
            entries[next] = push
            heads[next] = push.request.headID
            next = (next + 1) % Self.limit
        }
    }
}

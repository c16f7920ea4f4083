/// One HTTP/2 request stream as it is received and answered.
final class HTTP2Stream {
    @exclusivity(unchecked) private(set) var id: Int32
    @exclusivity(unchecked) var method = ""
    @exclusivity(unchecked) var path = ""
    @exclusivity(unchecked) var authority: String?
    @exclusivity(unchecked) var headers = HTTPHeaders()
    /// The request header block is complete (later fields are trailers).
    @exclusivity(unchecked) var headerBlockFinished = false
    @exclusivity(unchecked) var body: [UInt8] = []
    @exclusivity(unchecked) var headerBytes = 0
    /// How many fields (pseudo-headers included) the header block had so far.
    @exclusivity(unchecked) var fieldCount = 0
    /// HTTP/2's rules for the request, applied as its frames arrive.
    @exclusivity(unchecked) var rules = HTTP2RequestRules()
    /// The request broke HTTP/2's rules and the stream is being reset: nothing more of it is taken.
    @exclusivity(unchecked) var rejected = false
    @exclusivity(unchecked) var headersTooLarge = false
    @exclusivity(unchecked) var bodyTooLarge = false
    /// Set once a request went to the handler or an error response was submitted.
    @exclusivity(unchecked) var dispatched = false
    /// Handed to the handler and not yet answered.
    @exclusivity(unchecked) var awaitingHandler = false
    @exclusivity(unchecked) var responded = false
    @exclusivity(unchecked) var responseBody: [UInt8] = []
    @exclusivity(unchecked) var responseOffset = 0
    /// What to do to the connection when this stream closes.
    @exclusivity(unchecked) var directive: ConnectionDirective = .none

    /// While the request body is being read: when all of it must be in, and when its next bytes must
    /// arrive (monotonic ms; 0 when no body is being read).
    @exclusivity(unchecked) var bodyDeadline: Int64 = 0
    @exclusivity(unchecked) var bodyReadDeadline: Int64 = 0

    /// Where the stream is in `HTTP2Session.streams`.
    @exclusivity(unchecked) var slot = 0

    init(id: Int32) { self.id = id }

    /// Makes this stream a new one with ID `id`, as `init(id:)` would (see `HTTP2Session.newStream`).
    func reset(id: Int32) {
        self.id = id
        method = ""
        path = ""
        authority = nil
        if !headers.isEmpty { headers = HTTPHeaders() }
        headerBlockFinished = false
        if !body.isEmpty { body = [] }
        headerBytes = 0
        fieldCount = 0
        rules = HTTP2RequestRules()
        rejected = false
        headersTooLarge = false
        bodyTooLarge = false
        dispatched = false
        awaitingHandler = false
        responded = false
        if !responseBody.isEmpty { responseBody = [] }
        responseOffset = 0
        directive = .none
        bodyDeadline = 0
        bodyReadDeadline = 0
        slot = 0
    }
}

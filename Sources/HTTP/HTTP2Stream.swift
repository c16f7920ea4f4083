/// One HTTP/2 request stream as it is received and answered.
final class HTTP2Stream {
    let id: Int32
    @exclusivity(unchecked) var method = ""
    @exclusivity(unchecked) var path = ""
    @exclusivity(unchecked) var authority: String?
    @exclusivity(unchecked) var headers = HTTPHeaders()
    /// While true, the regular fields so far are the first `sharedFieldCount` of the previous request's
    /// (`HTTP2RequestFields.previousHeaders`) and `headers` is still empty.
    @exclusivity(unchecked) var sharesPreviousHeaders = true
    @exclusivity(unchecked) var sharedFieldCount = 0
    /// The request header block is complete (later fields are trailers).
    @exclusivity(unchecked) var headerBlockFinished = false
    /// The body once the stream ended; until then only the bytes that differ from `bodyBase` (see
    /// `HTTP2Session.dataChunk`).
    @exclusivity(unchecked) var body: [UInt8] = []
    /// The previous request's body when this stream began; while `sharesBodyBase`, the body so far is
    /// its first `sharedBodyCount` bytes and `body` is still empty.
    @exclusivity(unchecked) var bodyBase: [UInt8] = []
    @exclusivity(unchecked) var sharesBodyBase = true
    @exclusivity(unchecked) var sharedBodyCount = 0
    @exclusivity(unchecked) var headerBytes = 0
    /// How many fields (pseudo-headers included) the header block had so far, not counting those
    /// still matched against the previous block (`matchesPreviousBlock`).
    @exclusivity(unchecked) var fieldCount = 0
    /// While true, the header block so far is the first `matchedBlockFields` fields of the previous
    /// block (`HTTP2RequestFields.previousBlock`), and nothing else was made of them yet.
    @exclusivity(unchecked) var matchesPreviousBlock = false
    @exclusivity(unchecked) var matchedBlockFields = 0
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

    /// Where the stream is in `HTTP2Session.streams`.
    @exclusivity(unchecked) var slot = 0

    init(id: Int32) { self.id = id }
}

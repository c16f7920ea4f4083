/// How many streams an HTTP/2 client may reset while the server still works on them: the defence
/// against "rapid reset" (CVE-2023-44487: open a stream, reset it at once, again and again, so the
/// server starts work it never finishes and the concurrent-stream limit never holds).
///
/// A token bucket with nghttp2's numbers for its own defence (1,000 at once, 33 more each second), but
/// charged only for resets of streams still open at the server. nghttp2's own bucket charges every
/// RST_STREAM, also one for a stream already answered and closed, which costs the server nothing:
/// curl 7.88 (libcurl, so the backends built on it and ringcheck's own client) sends one after every
/// response, so nghttp2 ended every long curl connection after about 1,000 requests, with a GOAWAY
/// whose last-stream-id disowned requests the handler had already taken (duplicated captures).
struct HTTP2ResetBudget {
    /// Resets allowed at once (and the most the bucket holds).
    static let burst = 1000
    /// Resets the bucket regains per second.
    static let perSecond = 33

    private var tokens = Self.burst
    /// When `tokens` was last topped up, in milliseconds of the monotonic clock; nil before the first reset.
    private var toppedUpMs: Int64?

    /// Charges one reset at `nowMs` (monotonic milliseconds); false when none is left.
    mutating func spend(nowMs: Int64) -> Bool {
        if let last = toppedUpMs {
            // Whole tokens only: the remainder of a second waits for the next top-up.
            let gained = max(0, nowMs - last) * Int64(Self.perSecond) / 1000
            if gained > 0 {
                tokens = Int(min(Int64(Self.burst), Int64(tokens) + gained))
                toppedUpMs = last + gained * 1000 / Int64(Self.perSecond)
            }
        } else {
            toppedUpMs = nowMs
        }
        guard tokens > 0 else { return false }
        tokens -= 1
        return true
    }
}

/// HTTP/2's rules for a request as a whole (RFC 9113 §8.1–8.3), applied as its frames arrive, as
/// nghttp2 1.52's HTTP messaging applies them to a server's streams (`nghttp2_http_on_header`,
/// `…_on_request_headers`, `…_on_trailer_headers`, `…_on_data_chunk`, `…_on_remote_end_stream`): each
/// pseudo-header once, before any regular field and never in trailers; `:method`, `:scheme` and `:path`
/// (or, for CONNECT, `:authority` alone); `:authority` or host; an http(s) path starting with "/"; one
/// content-length, which the body must match; trailers ending the stream.
///
/// Each method returns false when the request breaks a rule: the stream is then reset with
/// PROTOCOL_ERROR, as nghttp2 resets it. nghttp2 keeps checking framing itself (stream states, frame
/// sizes, flow control, HPACK), which no rule here repeats.
struct HTTP2RequestRules {
    /// What the fields so far have shown.
    struct Marks: OptionSet {
        let rawValue: UInt16
        static let authority = Marks(rawValue: 1 << 0)
        static let method = Marks(rawValue: 1 << 1)
        static let path = Marks(rawValue: 1 << 2)
        static let scheme = Marks(rawValue: 1 << 3)
        static let host = Marks(rawValue: 1 << 4)
        /// A regular field came: no pseudo-header may follow.
        static let regularField = Marks(rawValue: 1 << 5)
        static let connect = Marks(rawValue: 1 << 6)
        static let options = Marks(rawValue: 1 << 7)
        /// `:path` starts with "/".
        static let regularPath = Marks(rawValue: 1 << 8)
        /// `:path` is "*".
        static let asteriskPath = Marks(rawValue: 1 << 9)
        /// `:scheme` is http or https (in any case).
        static let httpScheme = Marks(rawValue: 1 << 10)
    }

    private var marks: Marks = []
    /// The content-length field's value; -1 when none (or for CONNECT, whose body is a tunnel's bytes).
    private var contentLength: Int64 = -1
    /// DATA payload received so far (padding excluded).
    private var receivedLength: Int64 = 0

    /// One field of the header block (`trailer` false) or of the trailers.
    mutating func accept(_ field: HTTP2FieldFacts, trailer: Bool) -> Bool {
        guard field.valid else { return false }
        let mark: Marks
        switch field.kind {
        case .authority: mark = .authority
        case .method: mark = .method
        case .path: mark = .path
        case .scheme: mark = .scheme
        case .host:
            if marks.contains(.host) { return false }
            marks.formUnion([.host, .regularField])
            return true
        case .contentLength:
            if contentLength != -1 { return false }
            contentLength = field.contentLength
            marks.insert(.regularField)
            return true
        case .te, .regular:
            marks.insert(.regularField)
            return true
        case .forbidden:
            return false
        }
        if trailer || marks.contains(.regularField) || marks.contains(mark) { return false }
        marks.formUnion([mark, field.marks])
        return true
    }

    /// The request's header block is complete; `endStream`: its HEADERS frame ended the stream.
    mutating func headerBlockEnded(endStream: Bool) -> Bool {
        if marks.contains(.connect) {
            guard marks.isDisjoint(with: [.scheme, .path]) && marks.contains(.authority) else { return false }
            contentLength = -1
        } else {
            guard marks.isSuperset(of: [.method, .path, .scheme]) && !marks.isDisjoint(with: [.authority, .host])
            else { return false }
            if marks.contains(.httpScheme) && !marks.contains(.regularPath)
                && !marks.isSuperset(of: [.options, .asteriskPath])
            {
                return false
            }
        }
        return !endStream || streamEnded()
    }

    /// The trailers are complete; they must end the stream.
    func trailersEnded(endStream: Bool) -> Bool { endStream && streamEnded() }

    /// `count` bytes of body arrived: no more than content-length says.
    mutating func received(_ count: Int) -> Bool {
        receivedLength += Int64(count)
        return contentLength == -1 || receivedLength <= contentLength
    }

    /// The stream ended (END_STREAM on DATA or HEADERS): the body is as long as content-length says.
    func streamEnded() -> Bool { contentLength == -1 || contentLength == receivedLength }
}

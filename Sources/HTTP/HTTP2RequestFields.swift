import Glibc

/// What an HTTP/2 session makes of the request header fields it receives: each stream's method, path,
/// authority and header list, made as little as possible anew.
///
/// A client sends much the same header block on every request of a connection. The previous block is
/// kept as bytes; a stream whose fields match it to the end takes what the previous stream made of it
/// (strings and list) without making anything per field. Otherwise fields are taken in one by one,
/// reusing the strings made for the same bytes at the same place before and the previous request's
/// header list while the regular fields repeat it.
final class HTTP2RequestFields {
    /// `stream`'s header block begins.
    func begin(_ stream: HTTP2Stream) {
        stream.matchesPreviousBlock = hasPreviousBlock
        recordedBlock.removeAll()
    }

    /// Takes in one field of `stream`'s header block, or of its trailers once the block is finished.
    func take(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>, of stream: HTTP2Stream) {
        if stream.matchesPreviousBlock {
            if previousBlock.matches(stream.matchedBlockFields, name: name, value: value) {
                stream.matchedBlockFields += 1
                return
            }
            leavePreviousBlock(stream)
        }
        field(of: stream, name: name, value: value)
    }

    /// Takes in one field of `stream`'s header block (or its trailers).
    private func field(of stream: HTTP2Stream, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        if !stream.headerBlockFinished { recordedBlock.append(name: name, value: value) }
        let position = stream.fieldCount
        stream.fieldCount += 1
        // A regular field equal to the previous request's at the same place: nothing to look up or build.
        if stream.sharesPreviousHeaders && name.first != UInt8(ascii: ":")
            && previousBlock.matchesRegular(stream.sharedFieldCount, name: name, value: value)
        {
            stream.sharedFieldCount += 1
            return
        }
        let (n, v) = strings(ofField: position, name: name, value: value)
        if name.first == UInt8(ascii: ":") {
            // By the bytes: a switch on the string compared it with each case in turn.
            if Self.equal(name, ":path") {
                stream.path = v
            } else if Self.equal(name, ":method") {
                stream.method = v
            } else if Self.equal(name, ":authority") {
                stream.authority = v
            }
        } else if stream.sharesPreviousHeaders {
            // The bytes differ from the previous request's field (compared above; never as Strings,
            // whose equality is canonical equivalence): from here on the stream keeps its own list.
            materializeHeaders(stream)
            stream.headers.addLowercased(n, v)
        } else {
            stream.headers.addLowercased(n, v)
        }
    }

    /// The regular fields of the last request header block on this connection.
    ///
    /// A client sends the same fields on request after request; a stream whose fields turn out equal
    /// takes this list instead of building its own: one array allocation fewer per request, no string
    /// lookups, and none of the retains and releases of its strings, for the request and for the
    /// capture that keeps it.
    ///
    /// Its fields are the regular fields of `previousBlock`, whose bytes they are compared with as they
    /// arrive: the strings themselves were slower to compare (a short string is copied out of line first).
    private var previousHeaders = HTTPHeaders()

    /// Gives `stream` its own header list with the fields it shared so far.
    private func materializeHeaders(_ stream: HTTP2Stream) {
        guard stream.sharesPreviousHeaders else { return }
        stream.sharesPreviousHeaders = false
        stream.headers = previousHeaders.prefix(stream.sharedFieldCount, reservingCapacity: recentFields.count)
    }

    /// The header block of `stream` is complete: settles its header list and remembers it for the next.
    func finish(_ stream: HTTP2Stream) {
        guard !stream.headerBlockFinished else { return }
        if stream.headersTooLarge {
            stream.matchesPreviousBlock = false
            stream.headerBlockFinished = true
            materializeHeaders(stream)
            return
        }
        if stream.matchesPreviousBlock {
            if stream.matchedBlockFields == previousBlock.count {
                // The previous block again, field for field: what the stream that sent it made of it.
                stream.matchesPreviousBlock = false
                stream.headerBlockFinished = true
                stream.method = previousBlock.method
                stream.path = previousBlock.path
                stream.authority = previousBlock.authority
                stream.sharesPreviousHeaders = false
                stream.headers = previousHeaders
                return
            }
            leavePreviousBlock(stream)
        }
        stream.headerBlockFinished = true
        defer { rememberBlock(of: stream) }
        if stream.sharesPreviousHeaders && stream.sharedFieldCount == previousHeaders.count {
            stream.sharesPreviousHeaders = false
            stream.headers = previousHeaders
            return
        }
        materializeHeaders(stream)
        previousHeaders = stream.headers
    }

    /// The last complete request header block on this connection, as bytes, with what its stream made
    /// of its pseudo-headers (its regular fields are `previousHeaders`).
    ///
    /// A client pushing one request again and again sends the same block every time: a stream whose
    /// fields match it (compared as they arrive, without making anything of them) takes the previous
    /// stream's strings and list whole, and makes nothing of its own.
    private var previousBlock = HeaderBlockBytes()
    private var hasPreviousBlock = false
    /// The fields of the header block being received, once it no longer matches `previousBlock`.
    private var recordedBlock = HeaderBlockBytes()

    /// `stream`'s fields stop matching `previousBlock`: the fields matched so far are taken in as if
    /// they had just arrived.
    private func leavePreviousBlock(_ stream: HTTP2Stream) {
        stream.matchesPreviousBlock = false
        let block = previousBlock
        for k in 0..<stream.matchedBlockFields {
            block.withField(k) { name, value in field(of: stream, name: name, value: value) }
        }
    }

    /// Makes `stream`'s complete header block the one the next stream is compared with.
    private func rememberBlock(of stream: HTTP2Stream) {
        swap(&previousBlock, &recordedBlock)
        previousBlock.method = stream.method
        previousBlock.path = stream.path
        previousBlock.authority = stream.authority
        hasPreviousBlock = true
    }

    /// The fields of recent requests on this connection by position in the header block, as bytes
    /// and as the strings made from them.
    ///
    /// A client sends much the same fields in the same order on every request (the same provider token,
    /// topic and content type), so most fields reuse strings made before instead of allocating and
    /// validating new ones, and captures that keep requests share them.
    private var recentFields: [RecentField] = []
    private static let maxRecentFields = 32

    private struct RecentField {
        var name: [UInt8]
        var value: [UInt8]
        var nameString: String
        var valueString: String
    }

    private func strings(
        ofField position: Int, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>
    ) -> (String, String) {
        if position < recentFields.count {
            let hit = recentFields.withUnsafeBufferPointer { fields in
                Self.equal(fields[position].name, name) && Self.equal(fields[position].value, value)
            }
            if hit { return (recentFields[position].nameString, recentFields[position].valueString) }
        }
        let field = RecentField(
            name: Array(name), value: Array(value), nameString: String(decoding: name, as: UTF8.self),
            valueString: String(decoding: value, as: UTF8.self))
        if position < recentFields.count {
            recentFields[position] = field
        } else if position == recentFields.count && position < Self.maxRecentFields {
            recentFields.append(field)
        }
        return (field.nameString, field.valueString)
    }

    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        bytes.count == literal.utf8CodeUnitCount && memcmp(bytes.baseAddress!, literal.utf8Start, bytes.count) == 0
    }

    private static func equal(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard a.count > 0, let bBase = b.baseAddress else { return true }
        return a.withUnsafeBufferPointer { memcmp($0.baseAddress!, bBase, b.count) == 0 }
    }
}

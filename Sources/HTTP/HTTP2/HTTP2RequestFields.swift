import Glibc

/// What an HTTP/2 session makes of the request header fields it receives: each stream's method, path,
/// authority and header list, made and checked against HTTP/2's rules as little as possible anew.
///
/// A client sends much the same header fields on every request of a connection (the same provider
/// token, topic and content type; a new path for each device). Fields are taken in one by one, reusing
/// the strings made for the same bytes at the same place before.
///
/// Used by one session on its event loop only, so its properties skip the runtime's exclusivity checks
/// (about 1% of the APNs mock's CPU per push, from the dozen accesses each field makes).
final class HTTP2RequestFields {
    /// Takes in one field of `stream`'s header block, or of its trailers once the block is finished, after
    /// checking it against HTTP/2's rules; false when the request breaks them (the stream is to be reset).
    /// `keep` false: only checks it (the request is answered already, or its header block is too large).
    func take(
        name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>, of stream: HTTP2Stream, keep: Bool
    ) -> Bool {
        let trailer = stream.headerBlockFinished
        guard keep else { return stream.rules.accept(HTTP2FieldFacts(name: name, value: value), trailer: trailer) }
        let position = stream.fieldCount
        stream.fieldCount += 1
        guard let (facts, n, v) = judge(field: position, name: name, value: value),
            stream.rules.accept(facts, trailer: trailer)
        else { return false }
        if name.first == UInt8(ascii: ":") {
            switch facts.kind {
            case .path: stream.path = v
            case .method: stream.method = v
            case .authority: stream.authority = v
            default: break
            }
        } else {
            if stream.headers.isEmpty { stream.headers.reserveCapacity(recentFields.count) }
            stream.headers.addLowercased(n, v)
        }
        return true
    }

    /// The header block of `stream` is complete (later fields are trailers).
    func finish(_ stream: HTTP2Stream) {
        stream.headerBlockFinished = true
    }

    /// The fields of recent requests on this connection by position in the header block, as bytes, as
    /// the strings made from them, and as judged under HTTP/2's rules.
    ///
    /// A client sends much the same fields in the same order on every request (the same provider token,
    /// topic and content type), so most fields reuse strings made and bytes judged before instead of
    /// allocating new strings and scanning the bytes again (scanning the 250-byte provider token on every
    /// push cost about 1.4% of the APNs mock's CPU), and captures that keep requests share them. Only fields
    /// whose bytes passed are kept.
    @exclusivity(unchecked) private var recentFields: [RecentField] = []
    private static let maxRecentFields = 32

    private struct RecentField {
        var name: [UInt8]
        var value: [UInt8]
        var nameString: String
        var valueString: String
        var facts: HTTP2FieldFacts
    }

    /// The field at `position` judged and as strings: those of the recent field at that place when its
    /// bytes are the same, made anew (and remembered) otherwise. Nil when its bytes break HTTP/2's rules.
    private func judge(
        field position: Int, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>
    ) -> (HTTP2FieldFacts, String, String)? {
        if position < recentFields.count {
            let sameName = recentFields.withUnsafeBufferPointer { sameBytes($0[position].name, name) }
            if sameName && recentFields.withUnsafeBufferPointer({ sameBytes($0[position].value, value) }) {
                let hit = recentFields[position]
                return (hit.facts, hit.nameString, hit.valueString)
            }
            // The field at this place changed (a new path for every push, mostly): judge only what changed,
            // and remember the new field in the buffers of the old, without allocating new ones for its bytes.
            let facts =
                sameName
                ? HTTP2FieldFacts(kind: recentFields[position].facts.kind, value: value)
                : HTTP2FieldFacts(name: name, value: value)
            guard facts.valid else { return nil }
            recentFields[position].facts = facts
            if !sameName {
                recentFields[position].name.removeAll(keepingCapacity: true)
                recentFields[position].name.append(contentsOf: name)
                recentFields[position].nameString = String(decoding: name, as: UTF8.self)
            }
            recentFields[position].value.removeAll(keepingCapacity: true)
            recentFields[position].value.append(contentsOf: value)
            let valueString = String(decoding: value, as: UTF8.self)
            recentFields[position].valueString = valueString
            return (facts, recentFields[position].nameString, valueString)
        }
        let facts = HTTP2FieldFacts(name: name, value: value)
        guard facts.valid else { return nil }
        let field = RecentField(
            name: Array(name), value: Array(value), nameString: String(decoding: name, as: UTF8.self),
            valueString: String(decoding: value, as: UTF8.self), facts: facts)
        if position == recentFields.count && position < Self.maxRecentFields { recentFields.append(field) }
        return (facts, field.nameString, field.valueString)
    }

}

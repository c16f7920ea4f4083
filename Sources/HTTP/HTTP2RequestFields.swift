import Glibc

/// What an HTTP/2 session makes of the request header fields it receives: each stream's method, path,
/// authority and header list, made as little as possible anew.
///
/// A client sends much the same header fields on every request of a connection (the same provider
/// token, topic and content type; a new path for each device). Fields are taken in one by one, reusing
/// the strings made for the same bytes at the same place before.
///
/// Used by one session on its event loop only, so its properties skip the runtime's exclusivity checks
/// (about 1% of the APNs mock's CPU per push, from the dozen accesses each field makes).
final class HTTP2RequestFields {
    /// Takes in one field of `stream`'s header block, or of its trailers once the block is finished.
    func take(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>, of stream: HTTP2Stream) {
        let position = stream.fieldCount
        stream.fieldCount += 1
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
        } else {
            if stream.headers.isEmpty { stream.headers.reserveCapacity(recentFields.count) }
            stream.headers.addLowercased(n, v)
        }
    }

    /// The header block of `stream` is complete (later fields are trailers).
    func finish(_ stream: HTTP2Stream) {
        stream.headerBlockFinished = true
    }

    /// The fields of recent requests on this connection by position in the header block, as bytes
    /// and as the strings made from them.
    ///
    /// A client sends much the same fields in the same order on every request (the same provider token,
    /// topic and content type), so most fields reuse strings made before instead of allocating and
    /// validating new ones, and captures that keep requests share them.
    @exclusivity(unchecked) private var recentFields: [RecentField] = []
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
        if position < recentFields.count {
            // The field at this place changed (a new path for every push, mostly): remember the new one in
            // the buffers of the old, without allocating new ones for its bytes.
            let sameName = recentFields.withUnsafeBufferPointer { Self.equal($0[position].name, name) }
            if !sameName {
                recentFields[position].name.removeAll(keepingCapacity: true)
                recentFields[position].name.append(contentsOf: name)
                recentFields[position].nameString = String(decoding: name, as: UTF8.self)
            }
            recentFields[position].value.removeAll(keepingCapacity: true)
            recentFields[position].value.append(contentsOf: value)
            let valueString = String(decoding: value, as: UTF8.self)
            recentFields[position].valueString = valueString
            return (recentFields[position].nameString, valueString)
        }
        let field = RecentField(
            name: Array(name), value: Array(value), nameString: String(decoding: name, as: UTF8.self),
            valueString: String(decoding: value, as: UTF8.self))
        if position == recentFields.count && position < Self.maxRecentFields { recentFields.append(field) }
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

import CNghttp2

/// The header list of an HTTP/2 response as nghttp2 takes it, built in buffers reused from one
/// response to the next on a connection.
final class HTTP2ResponseFields {
    /// Calls `body` with `response`'s fields: `:status` first, connection-specific fields dropped,
    /// `content-length` added when missing (but for 1xx, 204 and 304). nghttp2 copies them during
    /// `body`; they are not valid after it.
    func withFields(of response: HTTPResponse, _ body: (UnsafeBufferPointer<nghttp2_nv>) -> Int32) -> Int32 {
        // Names and values in one reused buffer.
        nvBytes.removeAll(keepingCapacity: true)
        nvSpans.removeAll(keepingCapacity: true)
        appendField(":status", Self.decimal(response.status))
        var hasLength = false
        // Walked in place: iterating the list copied each field, a retain and a release of both strings.
        response.headers.fields.withUnsafeBufferPointer { fields in
            for i in fields.indices {
                // The names below start with these letters; comparing strings costs more than a byte.
                switch fields[i].name.utf8.first {
                case UInt8(ascii: ":"): continue
                case UInt8(ascii: "c"), UInt8(ascii: "t"), UInt8(ascii: "k"), UInt8(ascii: "u"), UInt8(ascii: "p"):
                    switch fields[i].name {
                    case "connection", "transfer-encoding", "keep-alive", "upgrade", "proxy-connection": continue
                    case "content-length": hasLength = true
                    default: break
                    }
                default: break
                }
                appendField(fields[i].name, fields[i].value)
            }
        }
        if !hasLength && response.status != 204 && response.status != 304 && response.status >= 200 {
            appendField("content-length", Self.decimal(response.body.count))
        }
        return nvBytes.withUnsafeMutableBufferPointer { base -> Int32 in
            nva.removeAll(keepingCapacity: true)
            for s in nvSpans {
                nva.append(
                    nghttp2_nv(
                        name: base.baseAddress! + s.name, value: base.baseAddress! + s.value, namelen: s.nameLength,
                        valuelen: s.valueLength, flags: s.flags))
            }
            return nva.withUnsafeBufferPointer(body)
        }
    }

    /// `String(n)`, made once for the small numbers every response carries (status, content-length).
    private static func decimal(_ n: Int) -> String {
        n >= 0 && n < smallDecimals.count ? smallDecimals[n] : String(n)
    }
    private static let smallDecimals = (0..<1024).map { String($0) }

    // Scratch space for building header lists, reused across responses.
    @exclusivity(unchecked) private var nvBytes: [UInt8] = []
    @exclusivity(unchecked) private var nvSpans:
        [(name: Int, nameLength: Int, value: Int, valueLength: Int, flags: UInt8)] = []
    @exclusivity(unchecked) private var nva: [nghttp2_nv] = []

    /// The value each response field name had last on this connection (a few names at most), as bytes:
    /// kept as strings, each comparison and update retained and released them.
    @exclusivity(unchecked) private var sentFields: [(name: [UInt8], value: [UInt8])] = []

    /// Whether HPACK should index the field whose bytes were just appended: only once it repeats. A
    /// value that differs on every response (`apns-id`) would otherwise be added to the dynamic table
    /// each time, evicting others, for nothing: that cost about 5% of the APNs mock's CPU per request.
    private func shouldIndex(name: Range<Int>, value: Range<Int>) -> Bool {
        nvBytes.withUnsafeBufferPointer { bytes in
            let name = UnsafeBufferPointer(rebasing: bytes[name])
            let value = UnsafeBufferPointer(rebasing: bytes[value])
            for i in sentFields.indices where sameBytes(sentFields[i].name, name) {
                if sameBytes(sentFields[i].value, value) { return true }
                sentFields[i].value.removeAll(keepingCapacity: true)
                sentFields[i].value.append(contentsOf: value)
                return false
            }
            if sentFields.count < 16 { sentFields.append((Array(name), Array(value))) }
            return false
        }
    }

    /// Appends the UTF-8 of `string` to `nvBytes`, from its storage when it has one (faster than its view).
    private func appendBytes(of string: String) {
        let appended: Void? = string.utf8.withContiguousStorageIfAvailable { nvBytes.append(contentsOf: $0) }
        if appended == nil { nvBytes.append(contentsOf: string.utf8) }
    }

    private func appendField(_ name: String, _ value: String) {
        let n = nvBytes.count
        appendBytes(of: name)
        let v = nvBytes.count
        appendBytes(of: value)
        let end = nvBytes.count
        let index = shouldIndex(name: n..<v, value: v..<end)
        let flags = UInt8((index ? NGHTTP2_NV_FLAG_NONE : NGHTTP2_NV_FLAG_NO_INDEX).rawValue)
        nvSpans.append((n, v - n, v, end - v, flags))
    }
}

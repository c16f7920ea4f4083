/// HTTP/2 frames written by hand, for tests that need bytes no well-behaved client library sends
/// (streams abandoned by the hundred, mutated frames).
public enum H2Frames {
    /// The client connection preface (RFC 9113 §3.4) without the SETTINGS frame that must follow it.
    public static let preface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// Frame types used by the tests.
    public static let data: UInt8 = 0x0
    public static let headers: UInt8 = 0x1
    public static let rstStream: UInt8 = 0x3
    public static let settings: UInt8 = 0x4
    public static let ping: UInt8 = 0x6
    public static let goaway: UInt8 = 0x7
    public static let windowUpdate: UInt8 = 0x8
    public static let continuation: UInt8 = 0x9

    /// END_STREAM and END_HEADERS.
    public static let endStreamAndHeaders: UInt8 = 0x5

    /// One frame: the 9-byte header and `payload`.
    public static func frame(type: UInt8, flags: UInt8 = 0, stream: UInt32 = 0, _ payload: [UInt8] = []) -> [UInt8] {
        let n = payload.count
        let id = stream & 0x7FFF_FFFF
        return [
            UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF), type, flags,
            UInt8(id >> 24), UInt8(id >> 16 & 0xFF), UInt8(id >> 8 & 0xFF), UInt8(id & 0xFF),
        ] + payload
    }

    /// The preface and an empty SETTINGS frame: what a client sends before its first request.
    public static var clientStart: [UInt8] { preface + frame(type: settings) }

    /// An HPACK block for `method path` on an h2c connection (`:scheme http`), literals without
    /// indexing so blocks can be sent in any order.
    public static func requestBlock(method: String = "GET", path: String, authority: String = "localhost") -> [UInt8] {
        var block: [UInt8] = method == "GET" ? [0x82] : literal(nameIndex: 2, method)
        block += [0x86]  // :scheme http
        block += literal(nameIndex: 4, path)
        block += literal(nameIndex: 1, authority)
        return block
    }

    /// A HEADERS frame ending the stream: a complete bodyless request.
    public static func request(stream: UInt32, method: String = "GET", path: String) -> [UInt8] {
        frame(type: headers, flags: endStreamAndHeaders, stream: stream, requestBlock(method: method, path: path))
    }

    /// A literal header field without indexing whose name is static-table entry `nameIndex` (< 15),
    /// with a value under 127 bytes.
    static func literal(nameIndex: UInt8, _ value: String) -> [UInt8] {
        let bytes = Array(value.utf8.prefix(126))
        return [nameIndex, UInt8(bytes.count)] + bytes
    }

    /// A literal header field without indexing with a new name (RFC 7541 §6.2.2), neither string
    /// Huffman-coded: any bytes, of any length, as a broken client might send them.
    public static func literalField(_ name: [UInt8], _ value: [UInt8]) -> [UInt8] {
        [0x00] + hpackInteger(name.count) + name + hpackInteger(value.count) + value
    }

    /// `n` as an HPACK integer with a 7-bit prefix (RFC 7541 §5.1), the string-length form.
    static func hpackInteger(_ n: Int) -> [UInt8] {
        if n < 127 { return [UInt8(n)] }
        var out: [UInt8] = [127]
        var rest = n - 127
        while rest >= 128 {
            out.append(UInt8(rest % 128 + 128))
            rest /= 128
        }
        return out + [UInt8(rest)]
    }

    /// The frames in `bytes` as (type, flags, stream), up to the first incomplete one.
    public static func frames(in bytes: [UInt8]) -> [(type: UInt8, flags: UInt8, stream: UInt32)] {
        var out: [(type: UInt8, flags: UInt8, stream: UInt32)] = []
        var i = 0
        while i + 9 <= bytes.count {
            let n = Int(bytes[i]) << 16 | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2])
            guard i + 9 + n <= bytes.count else { break }
            let stream =
                (UInt32(bytes[i + 5]) << 24 | UInt32(bytes[i + 6]) << 16 | UInt32(bytes[i + 7]) << 8
                    | UInt32(bytes[i + 8])) & 0x7FFF_FFFF
            out.append((bytes[i + 3], bytes[i + 4], stream))
            i += 9 + n
        }
        return out
    }

    /// The last-stream-id and error code of the first GOAWAY frame in `bytes` (from the server), if any.
    public static func goaway(in bytes: [UInt8]) -> (lastStream: UInt32, code: UInt32)? {
        var i = 0
        while i + 9 <= bytes.count {
            let n = Int(bytes[i]) << 16 | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2])
            guard i + 9 + n <= bytes.count else { return nil }
            if bytes[i + 3] == goaway && n >= 8 {
                let word = { (p: Int) in
                    UInt32(bytes[p]) << 24 | UInt32(bytes[p + 1]) << 16 | UInt32(bytes[p + 2]) << 8
                        | UInt32(bytes[p + 3])
                }
                return (word(i + 9) & 0x7FFF_FFFF, word(i + 13))
            }
            i += 9 + n
        }
        return nil
    }

    /// The 8-byte payload of the first PING in `bytes` (from the server) that is not an ACK, if any: what the
    /// client's ACK must echo (`frame(type: ping, flags: 0x1, payload)`).
    public static func pingPayload(in bytes: [UInt8]) -> [UInt8]? {
        var i = 0
        while i + 9 <= bytes.count {
            let n = Int(bytes[i]) << 16 | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2])
            guard i + 9 + n <= bytes.count else { return nil }
            if bytes[i + 3] == ping && bytes[i + 4] & 0x1 == 0 && n == 8 { return Array(bytes[(i + 9)..<(i + 17)]) }
            i += 9 + n
        }
        return nil
    }

    /// Whether `bytes` (from the server) hold a frame of `type` on `stream`.
    public static func contains(_ bytes: [UInt8], type: UInt8, stream: UInt32) -> Bool {
        frames(in: bytes).contains { $0.type == type && $0.stream == stream }
    }
}

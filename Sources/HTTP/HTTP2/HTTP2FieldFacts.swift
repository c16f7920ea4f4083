/// What one request header field is under HTTP/2's rules for fields (RFC 9113 §8.2, §8.3), judged from
/// its bytes alone as nghttp2 1.52's HTTP messaging judges them (`nghttp2_http_on_header` and the
/// `nghttp2_check_*` functions it calls): which field it is, whether its bytes may be sent at all, and
/// what its value says of the request.
///
/// A pure function of the bytes, so a field repeated byte for byte (the provider token on every push of
/// a connection) is judged once; the rules that depend on the rest of the request (`HTTP2RequestRules`)
/// are applied to every field of every request.
struct HTTP2FieldFacts {
    /// The fields HTTP/2's rules name; every other name is `.regular` (or `.forbidden`).
    enum Kind: UInt8 {
        case authority, method, path, scheme, host, contentLength, te, regular
        /// A field no request may carry: a name with bytes no field name may hold (upper case, space,
        /// …), an unknown pseudo-header (`:status` too), `:protocol` (extended CONNECT is never enabled:
        /// the server sends no SETTINGS_ENABLE_CONNECT_PROTOCOL), or a connection-specific field
        /// (`connection`, `keep-alive`, `proxy-connection`, `transfer-encoding`, `upgrade`).
        case forbidden
    }

    let kind: Kind
    /// The bytes pass: the name's and the value's characters, a pseudo-header's value not empty, `te`
    /// only "trailers", a content-length a decimal number.
    let valid: Bool
    /// What a pseudo-header's value says (CONNECT, OPTIONS, a path starting with "/", …).
    let marks: HTTP2RequestRules.Marks
    /// A valid content-length's value; -1 for other fields.
    let contentLength: Int64

    /// Judges a field from its name and value.
    init(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        self.init(kind: Self.kind(ofName: name), value: value)
    }

    /// Judges a field named as one judged before (of this `kind`) with a new value.
    init(kind: Kind, value: UnsafeBufferPointer<UInt8>) {
        self.kind = kind
        var marks: HTTP2RequestRules.Marks = []
        var contentLength: Int64 = -1
        switch kind {
        case .method:
            valid = !value.isEmpty && Self.all(value, .methodByte)
            if Self.equal(value, "CONNECT") {
                marks = .connect
            } else if Self.equal(value, "OPTIONS") {
                marks = .options
            }
        case .path:
            valid = !value.isEmpty && Self.all(value, .pathByte)
            if value.first == UInt8(ascii: "/") {
                marks = .regularPath
            } else if value.count == 1 && value.first == UInt8(ascii: "*") {
                marks = .asteriskPath
            }
        case .authority, .host:
            valid = !value.isEmpty && Self.all(value, .authorityByte)
        case .scheme:
            valid = Self.isScheme(value)
            if Self.equalIgnoringCase(value, "http") || Self.equalIgnoringCase(value, "https") { marks = .httpScheme }
        case .contentLength:
            // Only digits pass, so the value check below is implied.
            contentLength = Self.decimal(value)
            valid = contentLength >= 0
        case .te:
            valid = Self.equalIgnoringCase(value, "trailers")
        case .regular:
            valid = Self.isRegularValue(value)
        case .forbidden:
            valid = false
        }
        self.marks = marks
        self.contentLength = contentLength
    }

    // MARK: Names

    /// Which field `name` is (`nghttp2_check_header_name`, then nghttp2's token lookup).
    static func kind(ofName name: UnsafeBufferPointer<UInt8>) -> Kind {
        guard let first = name.first else { return .forbidden }
        if first == UInt8(ascii: ":") {
            guard name.count > 1, all(UnsafeBufferPointer(rebasing: name.dropFirst()), .nameByte) else {
                return .forbidden
            }
            // By the bytes: a switch on a string compares it with each case in turn.
            if equal(name, ":path") { return .path }
            if equal(name, ":method") { return .method }
            if equal(name, ":scheme") { return .scheme }
            if equal(name, ":authority") { return .authority }
            return .forbidden
        }
        guard all(name, .nameByte) else { return .forbidden }
        switch name.count {
        case 2: return equal(name, "te") ? .te : .regular
        case 4: return equal(name, "host") ? .host : .regular
        case 7: return equal(name, "upgrade") ? .forbidden : .regular
        case 10: return equal(name, "connection") || equal(name, "keep-alive") ? .forbidden : .regular
        case 14: return equal(name, "content-length") ? .contentLength : .regular
        case 16: return equal(name, "proxy-connection") ? .forbidden : .regular
        case 17: return equal(name, "transfer-encoding") ? .forbidden : .regular
        default: return .regular
        }
    }

    // MARK: Values

    /// A regular field's value (`nghttp2_check_header_value_rfc9113`): no control characters but HT, no
    /// DEL, and no space or HT first or last.
    static func isRegularValue(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = value.first, let last = value.last else { return true }
        if first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09 { return false }
        return all(value, .valueByte)
    }

    /// `:scheme`'s value (nghttp2's `check_scheme`): a letter, then letters, digits, "+", "-" or ".".
    private static func isScheme(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = value.first, (first | 0x20) >= UInt8(ascii: "a") && (first | 0x20) <= UInt8(ascii: "z")
        else { return false }
        return all(UnsafeBufferPointer(rebasing: value.dropFirst()), .schemeByte)
    }

    /// A content-length's value as nghttp2's `parse_uint` reads it: decimal digits only, not empty, at
    /// most `Int64.max`; -1 otherwise.
    private static func decimal(_ value: UnsafeBufferPointer<UInt8>) -> Int64 {
        guard !value.isEmpty else { return -1 }
        var n: Int64 = 0
        for byte in value {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return -1 }
            let (times10, o1) = n.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            if o1 || o2 { return -1 }
            n = sum
        }
        return n
    }

    // MARK: Bytes

    /// The classes of bytes each part of a field may hold, one bit each in `byteClasses`.
    struct ByteClass: OptionSet {
        let rawValue: UInt8
        /// A field name's (RFC 9110 tchar, lower case only).
        static let nameByte = ByteClass(rawValue: 1 << 0)
        /// A field value's: not a control character but HT, not DEL.
        static let valueByte = ByteClass(rawValue: 1 << 1)
        /// `:path`'s (`nghttp2_check_path`): a value byte but SP and HT.
        static let pathByte = ByteClass(rawValue: 1 << 2)
        /// `:method`'s (`nghttp2_check_method`): tchar, either case.
        static let methodByte = ByteClass(rawValue: 1 << 3)
        /// `:authority`'s and host's (`nghttp2_check_authority`): RFC 3986 authority characters.
        static let authorityByte = ByteClass(rawValue: 1 << 4)
        /// `:scheme`'s after its first letter (RFC 3986 §3.1).
        static let schemeByte = ByteClass(rawValue: 1 << 5)
    }

    /// Each byte's classes, by byte value.
    private static let byteClasses: [ByteClass] = (0..<256).map { b in
        let byte = UInt8(b)
        let isLower = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
        let isUpper = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
        let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        let isTchar = isLower || isUpper || isDigit || "!#$%&'*+-.^_`|~".utf8.contains(byte)
        var classes: ByteClass = []
        if isTchar && !isUpper { classes.insert(.nameByte) }
        if isTchar { classes.insert(.methodByte) }
        if (byte >= 0x20 && byte != 0x7F) || byte == 0x09 { classes.insert(.valueByte) }
        if byte > 0x20 && byte != 0x7F { classes.insert(.pathByte) }
        if isLower || isUpper || isDigit || "-._~%!$&'()*+,;=:@[]".utf8.contains(byte) {
            classes.insert(.authorityByte)
        }
        if isLower || isUpper || isDigit || "+-.".utf8.contains(byte) { classes.insert(.schemeByte) }
        return classes
    }

    /// Whether every byte of `bytes` is of `byteClass`.
    private static func all(_ bytes: UnsafeBufferPointer<UInt8>, _ byteClass: ByteClass) -> Bool {
        byteClasses.withUnsafeBufferPointer { table in
            for byte in bytes where !table[Int(byte)].contains(byteClass) { return false }
            return true
        }
    }

    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        let l = literal.utf8Start
        for i in 0..<bytes.count where bytes[i] != l[i] { return false }
        return true
    }

    /// ASCII case-insensitive equality with a lower-case literal.
    private static func equalIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        let l = literal.utf8Start
        for i in 0..<bytes.count {
            let b = bytes[i]
            let lower = b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b | 0x20 : b
            if lower != l[i] { return false }
        }
        return true
    }
}

import HTTP
import JSON

/// The members of a users-update body, from JSON or a form (`config[mobile_push_wakeup]=true`), as
/// `DialStackUserUpdate` reads them.
struct DialStackRequestFields {
    /// The JSON object, when the body was one.
    var json: JSONValue?
    /// The form's fields, when the body was a form.
    var form: [String: String]

    static let empty = DialStackRequestFields(json: nil, form: [:])

    /// Reads `body`: JSON when the content type says so or the body starts with `{`/`[`, a form when it says
    /// `form` or looks like `a=b`; an empty body has no fields.
    init(body: [UInt8], contentType: String?) throws(DialStackAPIError) {
        let type = (contentType ?? "").lowercased()
        let first = body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        guard let first else {
            self = .empty
            return
        }
        if type.contains("form") && first != UInt8(ascii: "{") {
            self.init(json: nil, form: Self.formFields(String(decoding: body, as: UTF8.self)))
            return
        }
        if type.contains("json") || first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || type.isEmpty {
            let value: JSONValue
            do { value = try JSONValue.parse(body) } catch {
                if type.isEmpty, !body.contains(UInt8(ascii: "{")), body.contains(UInt8(ascii: "=")) {
                    self.init(json: nil, form: Self.formFields(String(decoding: body, as: UTF8.self)))
                    return
                }
                throw DialStackAPIError(400, "invalid_request_error", "the body is not valid JSON: \(error)")
            }
            guard case .object = value else {
                throw DialStackAPIError(400, "invalid_request_error", "the body must be a JSON object")
            }
            self.init(json: value, form: [:])
            return
        }
        self.init(json: nil, form: Self.formFields(String(decoding: body, as: UTF8.self)))
    }

    private init(json: JSONValue?, form: [String: String]) {
        self.json = json
        self.form = form
    }

    /// `a=b&c=d`, percent-decoded (a form body or a query); later duplicates win.
    static func formFields(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            out[percentDecode(String(parts[0]))] = parts.count > 1 ? percentDecode(String(parts[1])) : ""
        }
        return out
    }

    /// `config.mobile_push_wakeup` (or a top-level `mobile_push_wakeup`, the only place on a `…/config` path);
    /// nil when absent. A value other than a boolean or its string is a 400.
    func flag(configPath: Bool) throws(DialStackAPIError) -> Bool? {
        let name = "mobile_push_wakeup"
        let raw: JSONValue? =
            json.flatMap { json in configPath ? json[name] : (json["config"]?[name] ?? json[name]) }
            ?? (form["config[\(name)]"] ?? form["config.\(name)"] ?? form[name]).map { JSONValue.string($0) }
        guard let raw else { return nil }
        switch raw {
        case .bool(let b): return b
        case .string(let s) where ["true", "false"].contains(s.lowercased()): return s.lowercased() == "true"
        default:
            throw DialStackAPIError(
                400, "invalid_request_error", "config.mobile_push_wakeup must be a boolean, got \(raw.serialized())")
        }
    }

    /// The account a body names, under any of `DialStackUserUpdate.accountNames`.
    var account: String? {
        for name in DialStackUserUpdate.accountNames {
            if let s = json?[name]?.stringValue ?? form[name], !s.isEmpty { return s }
        }
        return nil
    }
}

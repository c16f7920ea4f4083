import JSON

extension ServiceNotification {
    /// The `app_id` of a JSON object body, or the 400 for a body that has none.
    static func appId(of body: JSONValue) throws(ServiceErrors) -> String {
        guard case .object = body else { throw ServiceErrors("the body must be a JSON object") }
        guard let id = body["app_id"]?.stringValue, !id.isEmpty else {
            throw ServiceErrors("app_id is required: the App ID of your app")
        }
        return id
    }

    /// Reads `body` (whose `app_id` was checked); every problem found is one entry of the 400's list.
    init(json body: JSONValue) throws(ServiceErrors) {
        var errors: [String] = []
        appId = try Self.appId(of: body)
        if let channel = body["target_channel"], channel.stringValue != "push" {
            errors.append("target_channel must be \"push\"")
        }
        externalIds = []
        if let ids = body["include_aliases"]?["external_id"]?.arrayValue, !ids.isEmpty, ids.count <= 2_000,
            ids.allSatisfy({ !($0.stringValue ?? "").isEmpty })
        {
            externalIds = ids.compactMap(\.stringValue)
        } else {
            errors.append("include_aliases.external_id must be a list of 1–2000 external IDs")
        }
        headings = Self.languages(body, "headings", &errors)
        contents = Self.languages(body, "contents", &errors)
        data = []
        if let value = body["data"], !value.isNull {
            if let members = value.objectValue { data = members } else { errors.append("data must be an object") }
        }
        bigPicture = Self.string(body, "big_picture", &errors)
        badgeType = Self.string(body, "ios_badgeType", &errors)
        if let type = badgeType, !["None", "SetTo", "Increase"].contains(type) {
            errors.append("ios_badgeType must be None, SetTo or Increase")
        }
        badgeCount = Self.integer(body, "ios_badgeCount", in: 0...99_999, &errors)
        channelId = Self.string(body, "android_channel_id", &errors)
        ttl = Self.integer(body, "ttl", in: 0...Self.maxTTL, &errors)
        collapseId = Self.string(body, "collapse_id", &errors)
        if let id = collapseId, id.utf8.count > 64 { errors.append("collapse_id must be at most 64 bytes") }
        call = nil
        if let value = body["call"], !value.isNull {
            call = Self.call(value, &errors)
        } else if contents.isEmpty && data.isEmpty {
            errors.append("contents is required (or data, or call)")
        }
        guard errors.isEmpty else { throw ServiceErrors(errors) }
    }

    // MARK: Members

    private static func call(_ value: JSONValue, _ errors: inout [String]) -> Call? {
        guard case .object = value else {
            errors.append("call must be an object")
            return nil
        }
        let action = value["action"]?.stringValue.flatMap(Call.Action.init(rawValue:))
        if action == nil { errors.append("call.action must be \"incoming\" or \"ended\"") }
        var id = ""
        if let given = value["id"], !given.isNull {
            if let text = given.stringValue { id = text } else { errors.append("call.id must be a string") }
        }
        // The app hands the id to CallKit as a UUID (`UUID(uuidString:)!`): anything else would crash it.
        if !id.isEmpty && !isUUID(id) { errors.append("call.id must be a UUID (or empty to generate one)") }
        if action == .ended && id.isEmpty { errors.append("call.id is required to end a call") }
        let callerName = string(value, "caller_name", &errors, prefix: "call.") ?? ""
        let handle = string(value, "handle", &errors, prefix: "call.") ?? ""
        let avatar = string(value, "avatar", &errors, prefix: "call.") ?? ""
        var isVideo = false
        if let flag = value["is_video"], !flag.isNull {
            if let bool = flag.boolValue {
                isVideo = bool
            } else {
                errors.append("call.is_video must be true or false")
            }
        }
        let timeout = integer(value, "timeout", in: 1...3_600, &errors, prefix: "call.")
        guard let action else { return nil }
        return Call(
            action: action, id: id, callerName: callerName, handle: handle, avatar: avatar, isVideo: isVideo,
            timeout: timeout)
    }

    private static func languages(_ body: JSONValue, _ name: String, _ errors: inout [String])
        -> [(key: String, value: JSONValue)]
    {
        guard let value = body[name], !value.isNull else { return [] }
        guard let members = value.objectValue, members.allSatisfy({ $0.value.stringValue != nil }) else {
            errors.append("\(name) must be an object of language codes to strings, e.g. {\"en\": \"…\"}")
            return []
        }
        return members
    }

    private static func string(_ body: JSONValue, _ name: String, _ errors: inout [String], prefix: String = "")
        -> String?
    {
        guard let value = body[name], !value.isNull else { return nil }
        guard let text = value.stringValue else {
            errors.append("\(prefix)\(name) must be a string")
            return nil
        }
        return text
    }

    private static func integer(
        _ body: JSONValue, _ name: String, in range: ClosedRange<Int64>, _ errors: inout [String], prefix: String = ""
    ) -> Int64? {
        guard let value = body[name], !value.isNull else { return nil }
        guard value.isIntegerLiteral, let n = value.int64Value, range.contains(n) else {
            errors.append("\(prefix)\(name) must be an integer in \(range.lowerBound)–\(range.upperBound)")
            return nil
        }
        return n
    }

    static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (i, b) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(i) {
                guard b == UInt8(ascii: "-") else { return false }
            } else {
                let hex = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
                guard hex else { return false }
            }
        }
        return true
    }
}

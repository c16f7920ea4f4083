import JSON

/// The syntax of one operation of a target file's `operations:` (method, path, body, headers,
/// `installation:`, `response:`, `statuses`), read alike for the engine's token operations and a
/// profile's own (`OperationSyntax`).
extension TargetFileDecoder {
    /// Every operation `operations:` may name: the engine's token operations, then each registered
    /// profile's (`Profile.targetFileOperations`) in registry order.
    var operationSyntax: [OperationSyntax] {
        TokenAPIMapping.syntax + profiles.all.flatMap(\.targetFileOperations)
    }

    /// The keys of one operation's mapping.
    static let operationKeys = [
        "method", "path", "body", "bodyByKind", "headers", "installation", "response", "statuses", "gapStatus",
    ]
    /// The keys of an operation's `response:`.
    static let responseKeys = [
        "snapshot", "snapshotFromGet", "media", "winner", "error", "events", "nextCursor", "gap", "fields", "save",
    ]

    /// One operation's mapping (`operations.<name>:`, the engine's token operations and a profile's
    /// alike); `saved` are the names registerToken's answer gives (deleteToken's extra placeholders).
    mutating func decodeOperation(
        _ node: YAMLNode, _ operation: OperationSyntax, saved: [String] = [], into m: inout OperationMapping
    ) {
        let path = "operations.\(operation.name)"
        guard let f = d.mapping(node, path, known: Self.operationKeys) else { return }
        let known = operation.placeholders + saved
        if let e = f["method"], let s = d.choice(e.value, path + ".method", Self.methods) { m.method = s }
        if let e = f["path"], let s = d.nonEmptyString(e.value, path + ".path") {
            if !s.hasPrefix("/") { d.error(e.value.mark, path + ".path", "'\(s)' must start with '/'") }
            checkPlaceholders(RequestTemplate.placeholders(in: s), operation, known, e.value.mark, path + ".path")
            m.path = s
        }
        if let e = f["body"] {
            let template = e.value.json
            checkPlaceholders(Self.bodyPlaceholders(template), operation, known, e.value.mark, path + ".body")
            m.body = template
        }
        if let e = f["bodyByKind"] { m.bodyByKind = decodeBodyByKind(e, operation, known, path + ".bodyByKind") }
        if let e = f["headers"], let headers = stringMap(e.value, path + ".headers") {
            for (name, value) in headers {
                checkPlaceholders(
                    RequestTemplate.placeholders(in: value), operation, known, e.value.mark, path + ".headers.\(name)")
            }
            m.headers = headers
        }
        if let e = f["installation"], let placement = decodeInstallation(e.value, path + ".installation") {
            m.installation = placement
        }
        if let e = f["response"] {
            decodeResponse(e.value, path + ".response", media: operation.readsMedia, into: &m.response)
            if let save = e.value.entries?.first(where: { $0.key == "save" }) {
                m.response.save = decodeSave(save, operation, path + ".response.save")
            }
        }
        if let e = f["statuses"] { m.response.statuses = decodeStatuses(e.value, path + ".statuses") }
        if let e = f["gapStatus"] {
            guard operation.readsGapStatus else {
                let feeds = operationSyntax.filter(\.readsGapStatus).map(\.name).joined(separator: " and ")
                d.error(
                    e.keyMark, path,
                    "'gapStatus' applies only to \(feeds) (the status a feed answers a lost cursor with)")
                return
            }
            m.response.gapStatuses = decodeGapStatuses(e.value, path + ".gapStatus")
            for status in m.response.gapStatuses.sorted() where m.response.statuses[status] != nil {
                d.error(
                    e.value.mark, path + ".gapStatus",
                    "\(status) is also mapped in 'statuses': a \(status) answer is either a gap or another status")
            }
        }
    }

    /// An installation placed in the path needs `{installationId}` in it.
    mutating func checkInstallation(_ m: OperationMapping, _ operation: String, mark: YAMLMark) {
        if m.installation == .path, !RequestTemplate.placeholders(in: m.path).contains("installationId") {
            d.error(
                mark, "operations.\(operation)",
                "the installation goes in the path, but the path '\(m.path)' has no {installationId} (installation: {in: none} sends none)"
            )
        }
    }

    /// `response:`; for the media operation (`media`) `fields` name the media session's members,
    /// each a dotted path or `{jwtExp: PATH}` (a JWT whose `exp` claim gives milliseconds).
    mutating func decodeResponse(_ node: YAMLNode, _ path: String, media: Bool, into r: inout ResponseMapping) {
        guard let f = d.mapping(node, path, known: Self.responseKeys) else { return }
        // `save` is registerToken's (decodeSave); the other keys are read here.
        func text(_ key: String) -> String? { f[key].flatMap { d.string($0.value, path + "." + key) } }
        if f["snapshot"] != nil { r.snapshot = text("snapshot").flatMap { $0.isEmpty ? nil : $0 } }
        if let e = f["snapshotFromGet"], let on = d.bool(e.value, path + ".snapshotFromGet") { r.snapshotByGet = on }
        if f["media"] != nil { r.media = text("media") }
        let named = [
            "winner": "answeredByInstallationId", "error": "error", "events": "events",
            "nextCursor": "nextCursor", "gap": "gap",
        ]
        for (key, canonical) in named.sorted(by: { $0.key < $1.key }) {
            if let s = text(key) { r.fields[canonical] = s }
        }
        if let e = f["fields"] {
            if media {
                for (k, v) in decodeFieldSources(e.value, path + ".fields") { r.mediaFields[k] = v }
            } else if let map = stringMap(e.value, path + ".fields") {
                for (k, v) in map { r.fields[k] = v }
            }
        }
    }

    /// The media operation's `fields`: canonical name → a dotted path or `{jwtExp: PATH}`.
    mutating func decodeFieldSources(_ node: YAMLNode, _ path: String) -> [String: FieldSource] {
        guard let entries = node.entries else {
            d.error(node.mark, path, "expected a mapping of names to paths, got \(node.kindName)")
            return [:]
        }
        var out: [String: FieldSource] = [:]
        for entry in entries {
            let field = "\(path).\(entry.key)"
            if entry.value.entries != nil {
                guard let g = d.mapping(entry.value, field, known: ["jwtExp"], required: ["jwtExp"]),
                    let p = g["jwtExp"].flatMap({ d.nonEmptyString($0.value, field + ".jwtExp") })
                else { continue }
                out[entry.key] = .jwtExpiry(p)
            } else if let p = d.nonEmptyString(entry.value, field) {
                out[entry.key] = .path(p)
            }
        }
        return out
    }

    mutating func decodeStatuses(_ node: YAMLNode, _ path: String) -> [Int: Int] {
        guard let entries = node.entries else {
            d.error(node.mark, path, "expected a mapping of the target's status to the reference's, such as {412: 409}")
            return [:]
        }
        var out: [Int: Int] = [:]
        for entry in entries {
            guard let from = Int(entry.key), (100...599).contains(from) else {
                d.error(entry.keyMark, path, "'\(entry.key)' is not an HTTP status")
                continue
            }
            if let to = d.int(entry.value, "\(path).\(entry.key)", min: 100) { out[from] = to }
        }
        return out
    }

    /// Every placeholder of `names` must be one of `known` (the operation's own, and for deleteToken what
    /// registerToken saved).
    mutating func checkPlaceholders(
        _ names: [String], _ operation: OperationSyntax, _ known: [String], _ mark: YAMLMark, _ path: String
    ) {
        for name in names where !known.contains(name) {
            d.error(
                mark, path,
                "unknown placeholder '{\(name)}'\(Diagnostics.suggestion(name, known)); \(operation.name) has \(known.map { "{\($0)}" }.joined(separator: ", "))"
            )
        }
    }

    static func bodyPlaceholders(_ v: JSONValue) -> [String] {
        switch v {
        case .string(let s): return RequestTemplate.placeholders(in: s)
        case .object(let members): return members.flatMap { bodyPlaceholders($0.value) }
        case .array(let items): return items.flatMap(bodyPlaceholders)
        default: return []
        }
    }
}

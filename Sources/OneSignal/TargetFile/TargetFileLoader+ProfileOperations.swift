import Conformance
import JSON

extension TargetFileDecoder {
    /// The keys of one operation's mapping form.
    static let profileOperationKeys = ["method", "path", "body", "auth", "response"]

    /// `profileOperations: {NAME: /path | {method, path, body, auth, response: {delivered}}, auth?}` (a profile's
    /// own operations, e.g. the onesignal profile's `pushToUser`, `pushBroadcast`, `voipPush`; an `auth` beside
    /// them applies to each that gives none) and `unconfigured: {baseURL}` (a second instance of the backend
    /// started without its push provider's settings; it gives the target the `unconfigured` capability).
    mutating func decodeProfileOperations(
        _ operations: YAMLMapEntry?, _ unconfigured: YAMLMapEntry?, into file: inout TargetFile
    ) -> OneSignalTargetConfiguration? {
        var out = OneSignalTargetConfiguration()
        if let e = operations, let entries = e.value.entries {
            let names = OneSignalOperation.Kind.allCases.map(\.rawValue)
            let shared = entries.first { $0.key == "auth" }.flatMap { decodeAuth($0.value, "profileOperations.auth") }
            for entry in entries where entry.key != "auth" {
                guard let kind = OneSignalOperation.Kind(rawValue: entry.key) else {
                    d.error(
                        entry.keyMark, "profileOperations",
                        "unknown operation '\(entry.key)'\(Diagnostics.suggestion(entry.key, names + ["auth"])) (known: \(names.joined(separator: ", ")), and auth)"
                    )
                    continue
                }
                if var m = decodeProfileOperation(entry.value, kind) {
                    if m.auth == nil { m.auth = shared }
                    out.operations[entry.key] = m
                }
            }
        } else if let e = operations {
            d.error(e.value.mark, "profileOperations", "expected a mapping of operation names to paths")
        }
        if let e = unconfigured, let lifecycle = e.value.entries?.first(where: { $0.key == "lifecycle" }) {
            // The twin is the same server started differently: the target's one lifecycle starts both.
            d.error(
                lifecycle.keyMark, "unconfigured",
                "'lifecycle' is not read here: start the unconfigured instance from the top-level lifecycle.start (serve it under a path prefix of the same port, as serve-reference's --unconfigured-prefix does, or start a second process on another port without the ONESIGNAL_* settings)"
            )
        }
        if let e = unconfigured,
            let f = d.mapping(e.value, "unconfigured", known: ["baseURL", "lifecycle"], required: ["baseURL"]),
            let url = f["baseURL"].flatMap({ d.nonEmptyString($0.value, "unconfigured.baseURL") })
        {
            if !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
                d.error(f["baseURL"]!.value.mark, "unconfigured.baseURL", "'\(url)' is not an http:// or https:// URL")
            } else {
                var trimmed = url
                while trimmed.hasSuffix("/") { trimmed.removeLast() }
                out.unconfiguredBaseURL = trimmed
                file.capabilities.insert(.unconfigured)
            }
        }
        return out.operations.isEmpty && out.unconfiguredBaseURL == nil ? nil : out
    }

    /// One operation: a path (`/v1/push`), or `{method, path, body, auth, response: {delivered: PATH}}`.
    mutating func decodeProfileOperation(_ node: YAMLNode, _ kind: OneSignalOperation.Kind) -> ProfileOperationMapping?
    {
        let field = "profileOperations.\(kind.rawValue)"
        if node.scalarText != nil {
            guard let path = decodeProfileOperationPath(node, kind, field) else { return nil }
            return ProfileOperationMapping(path: path)
        }
        guard node.entries != nil else {
            d.error(node.mark, field, "expected a path (/…) or a mapping with method, path, body, auth and response")
            return nil
        }
        guard let f = d.mapping(node, field, known: Self.profileOperationKeys, required: ["path"]),
            let path = f["path"].flatMap({ decodeProfileOperationPath($0.value, kind, field + ".path") })
        else { return nil }
        var m = ProfileOperationMapping(path: path)
        if let e = f["method"], let s = d.choice(e.value, field + ".method", Self.methods) { m.method = s }
        if let e = f["body"] {
            let template = e.value.json
            checkProfilePlaceholders(Self.bodyPlaceholders(template), kind, e.value.mark, field + ".body")
            m.body = template
        }
        if let e = f["auth"] { m.auth = decodeAuth(e.value, field + ".auth") }
        if let e = f["response"], let r = d.mapping(e.value, field + ".response", known: ["delivered"]),
            let s = r["delivered"].flatMap({ d.nonEmptyString($0.value, field + ".response.delivered") })
        {
            m.delivered = s
        }
        return m
    }

    /// A path under baseURL whose placeholders are the operation's.
    mutating func decodeProfileOperationPath(_ node: YAMLNode, _ kind: OneSignalOperation.Kind, _ field: String)
        -> String?
    {
        guard let path = d.nonEmptyString(node, field) else { return nil }
        guard path.hasPrefix("/") else {
            d.error(node.mark, field, "'\(path)' is not a path under baseURL (/…)")
            return nil
        }
        checkProfilePlaceholders(RequestTemplate.placeholders(in: path), kind, node.mark, field)
        return path
    }

    /// A placeholder the operation cannot fill would be sent literally (a 404 that says nothing): refused here.
    mutating func checkProfilePlaceholders(
        _ names: [String], _ kind: OneSignalOperation.Kind, _ mark: YAMLMark, _ field: String
    ) {
        for name in names where !kind.placeholders.contains(name) {
            d.error(
                mark, field,
                "unknown placeholder '{\(name)}'\(Diagnostics.suggestion(name, kind.placeholders)); \(kind.rawValue) has \(kind.placeholders.map { "{\($0)}" }.joined(separator: ", "))"
            )
        }
    }
}

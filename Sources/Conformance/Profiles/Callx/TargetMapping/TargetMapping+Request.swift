import HTTP
import JSON

extension TargetMapping {
    /// The target's request for the canonical request `p` (a raw request's: `applyRaw`).
    func apply(_ p: PreparedRequest) -> PreparedRequest {
        guard let operation = p.operation else { return applyRaw(p) }
        let m = self[operation]
        var values = p.values
        for member in p.body?.objectValue ?? [] { values[member.key] = member.value }
        values = outgoing(values)
        var used: Set<String> = []
        var out = p
        out.method = m.method
        var body: JSONValue?
        // The kind is read before renaming: bodyByKind is keyed by the reference design's kinds.
        if let template = p.values["kind"]?.stringValue.flatMap({ m.bodyByKind[$0] }) ?? m.body {
            body = Self.render(template, values, used: &used) ?? .object([])
            // Fields a scenario added or replaced go along unless the template already placed them.
            for key in p.extraKeys where !used.contains(key) {
                if let v = values[key] { body = body?.setting(key, to: v) }
            }
        } else if case .object(let members) = p.body {
            body = .object(members.filter { $0.key != "installationId" }.map { ($0.key, values[$0.key] ?? $0.value) })
        } else {
            body = p.body
        }
        var (path, query) = Self.splitQuery(m.path)
        path = Self.fillPath(path, values, used: &used)
        var params = Self.fillQuery(query, values, used: &used)
        var headers = p.headers
        for (name, template) in m.headers.sorted(by: { $0.key < $1.key }) {
            headers.append((name.lowercased(), Self.interpolate(template, values, used: &used) ?? ""))
        }
        if let installation = carriedInstallation(p, operation, values) {
            Self.place(installation, m.installation, &headers, &body, &params, used: used)
        }
        out.path = path + (params.isEmpty ? "" : "?" + params.joined(separator: "&"))
        out.headers = headers
        out.body = body
        return out
    }

    // MARK: The installation

    /// The installation `p`, a request for `operation` with `values`, carries: the canonical one (a
    /// device's), else the actor's own where the target places one and the reference design sends none
    /// (create and get; the caller's is its event feed's).
    func carriedInstallation(_ p: PreparedRequest, _ operation: TargetOperation, _ values: [String: JSONValue])
        -> String?
    {
        let placedElsewhere =
            OperationMapping.reference(operation).installation == .none
            && self[operation].installation != .none
        let canonical = p.values["installationId"] != nil || p.body?["installationId"] != nil
        return canonical ? values["installationId"].map(Self.text) : placedElsewhere ? p.actorInstallation : nil
    }

    /// Puts `installation` where `placement` says (a path placement is the path template's own).
    static func place(
        _ installation: String, _ placement: InstallationPlacement, _ headers: inout [(String, String)],
        _ body: inout JSONValue?, _ params: inout [String], used: Set<String>
    ) {
        switch placement {
        case .path, .none: break
        case .header(let name): headers.append((name.lowercased(), installation))
        case .body(let name):
            if !used.contains("installationId") {
                body = (body ?? .object([])).setting(name, to: .string(installation))
            }
        case .query(let name): params.append(name + "=" + TargetRoutes.percentEncode(installation))
        }
    }

    /// A raw request (no operation) as the target wants it: where the target places the installation of
    /// the operation whose reference route it names elsewhere than the reference design does, it gets the
    /// one a mapped request would carry (`carriedInstallation`); its method, path and body stay as written.
    func applyRaw(_ p: PreparedRequest) -> PreparedRequest {
        guard let operation = Self.referenceOperation(method: p.method, path: p.path),
            self[operation].installation != OperationMapping.reference(operation).installation
        else { return p }
        var values = p.values
        for member in p.body?.objectValue ?? [] { values[member.key] = member.value }
        guard let installation = carriedInstallation(p, operation, values) else { return p }
        var out = p
        let (path, query) = Self.splitQuery(p.path)
        var params = (query ?? "").split(separator: "&").map(String.init)
        Self.place(installation, self[operation].installation, &out.headers, &out.body, &params, used: [])
        out.path = path + (params.isEmpty ? "" : "?" + params.joined(separator: "&"))
        return out
    }

    // MARK: Templates

    /// The text of a value as it goes into a path, a query or a header.
    static func text(_ v: JSONValue) -> String {
        switch v {
        case .string(let s): return s
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        case .null: return ""
        default: return v.serialized()
        }
    }

    /// The `{name}` placeholders of `template`, in order.
    public static func placeholders(in template: String) -> [String] {
        var out: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            out.append(String(after[..<close]))
            rest = after[after.index(after: close)...]
        }
        return out
    }

    /// `template` with its placeholders replaced by text; nil when one has no value.
    static func interpolate(
        _ template: String, _ values: [String: JSONValue], encode: Bool = false, used: inout Set<String>
    ) -> String? {
        var out = template
        for name in placeholders(in: template) {
            guard let v = values[name] else { return nil }
            used.insert(name)
            let t = text(v)
            out = out.replacingOccurrences(of: "{\(name)}", with: encode ? TargetRoutes.percentEncode(t) : t)
        }
        return out
    }

    /// A body template with values in; nil when the whole value names a missing placeholder.
    static func render(_ template: JSONValue, _ values: [String: JSONValue], used: inout Set<String>) -> JSONValue? {
        switch template {
        case .string(let s):
            let names = placeholders(in: s)
            if names.count == 1, s == "{\(names[0])}" {
                guard let v = values[names[0]] else { return nil }
                used.insert(names[0])
                return v
            }
            return interpolate(s, values, used: &used).map(JSONValue.string)
        case .object(let members):
            return .object(members.compactMap { m in render(m.value, values, used: &used).map { (m.key, $0) } })
        case .array(let items):
            return .array(items.compactMap { render($0, values, used: &used) })
        default:
            return template
        }
    }

    static func splitQuery(_ template: String) -> (String, String?) {
        guard let q = template.firstIndex(of: "?") else { return (template, nil) }
        return (String(template[..<q]), String(template[template.index(after: q)...]))
    }

    static func fillPath(_ template: String, _ values: [String: JSONValue], used: inout Set<String>) -> String {
        var out = template
        for name in placeholders(in: template) {
            used.insert(name)
            out = out.replacingOccurrences(
                of: "{\(name)}", with: TargetRoutes.percentEncode(values[name].map(text) ?? ""))
        }
        return out
    }

    /// The query's parameters with values in; a parameter whose placeholder has no value is left out.
    static func fillQuery(_ query: String?, _ values: [String: JSONValue], used: inout Set<String>) -> [String] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&").compactMap { part in
            interpolate(String(part), values, encode: true, used: &used)
        }
    }
}

extension Target {
    /// The request as the target wants it (its mapping applied).
    func wire(_ p: PreparedRequest) -> PreparedRequest { mapping?.apply(p) ?? p }

    /// The HTTP request for `p` (already wired): its credentials, a JSON body, its own headers.
    func clientRequest(_ p: PreparedRequest) -> ClientRequest {
        var headers = HTTPHeaders()
        for (n, v) in (p.credentials ?? [:]).sorted(by: { $0.key < $1.key }) { headers.add(n, v) }
        if p.body != nil { headers.add("content-type", "application/json") }
        for (n, v) in p.headers { headers.set(n, v) }
        return ClientRequest(
            method: p.method, url: baseURL + p.path, headers: headers,
            body: p.body.map { Array($0.serialized().utf8) } ?? [])
    }
}

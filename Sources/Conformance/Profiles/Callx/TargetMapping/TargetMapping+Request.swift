import HTTP
import JSON

extension TargetMapping {
    /// The target's request for the canonical request `p` (a raw request's: `applyRaw`).
    func apply(_ p: PreparedRequest) -> PreparedRequest {
        guard let operation = p.operation.flatMap(TargetOperation.init) else { return applyRaw(p) }
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
            body = RequestTemplate.render(template, values, used: &used) ?? .object([])
            // Fields a scenario added or replaced go along unless the template already placed them.
            for key in p.extraKeys where !used.contains(key) {
                if let v = values[key] { body = body?.setting(key, to: v) }
            }
        } else if case .object(let members) = p.body {
            body = .object(members.filter { $0.key != "installationId" }.map { ($0.key, values[$0.key] ?? $0.value) })
        } else {
            body = p.body
        }
        let installation = carriedInstallation(p, operation, values)
        // A path placement is the path template's `{installationId}`: a user's own request (an `end` by
        // `as: a`) names none in its values, so the acting user's installation fills it.
        if m.installation == .path, values["installationId"] == nil, let installation {
            values["installationId"] = .string(installation)
        }
        var (path, query) = RequestTemplate.splitQuery(m.path)
        path = RequestTemplate.fillPath(path, values, used: &used)
        var params = RequestTemplate.fillQuery(query, values, used: &used)
        var headers = p.headers
        for (name, template) in m.headers.sorted(by: { $0.key < $1.key }) {
            headers.append((name.lowercased(), RequestTemplate.interpolate(template, values, used: &used) ?? ""))
        }
        if let installation {
            Self.place(installation, m.installation, &headers, &body, &params, used: used)
        }
        out.path = path + (params.isEmpty ? "" : "?" + params.joined(separator: "&"))
        out.headers = headers
        out.body = body
        return out
    }

    // MARK: The installation

    /// The installation `p`, a request for `operation` with `values`, carries: the canonical one (a
    /// device's), else the actor's own where `carriesActorInstallation(operation)` (a user's create, get,
    /// end or mediaSession, which the reference design sends without one).
    func carriedInstallation(_ p: PreparedRequest, _ operation: TargetOperation, _ values: [String: JSONValue])
        -> String?
    {
        let canonical = p.values["installationId"] != nil || p.body?["installationId"] != nil
        return canonical
            ? values["installationId"].map(RequestTemplate.text)
            : carriesActorInstallation(operation) ? p.actorInstallation : nil
    }

    /// Whether a request for `operation` that names no installation (a user's, not a device's) carries the
    /// acting user's own app installation: where the target places the installation, and places it
    /// otherwise than the reference design does. The reference design sends a user's end and
    /// mediaSession without one and create and get never with one; a target that wants an installation
    /// on every request (in a header, say) gets the user's, which `registerUserInstallations` registers
    /// before the first step, so a backend that refuses installations it never saw accepts it.
    public func carriesActorInstallation(_ operation: TargetOperation) -> Bool {
        let placement = self[operation].installation
        return placement != .none && placement != OperationMapping.reference(operation).installation
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
        case .query(let name): params.append(name + "=" + RequestTemplate.percentEncode(installation))
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
        let (path, query) = RequestTemplate.splitQuery(p.path)
        var params = (query ?? "").split(separator: "&").map(String.init)
        Self.place(installation, self[operation].installation, &out.headers, &out.body, &params, used: [])
        out.path = path + (params.isEmpty ? "" : "?" + params.joined(separator: "&"))
        return out
    }
}

import JSON

extension OperationMapping {
    /// Canonical request `p` as this mapping sends it: `values` are the request's values already in the
    /// target's names and types, `kind` (the reference design's token kind, if the request has one) picks
    /// a `bodyByKind` template, and `installation` is placed where `installation` says.
    ///
    /// ```swift
    /// let m = OperationMapping(method: "POST", path: "/me/devices", installation: .header("X-Device-Id"))
    /// let out = m.request(for: p, values: p.values, kind: "fcm", installation: "inst-1")
    /// // out.method == "POST", out.path == "/me/devices", header x-device-id: inst-1
    /// ```
    func request(
        for p: PreparedRequest, values: [String: JSONValue], kind: String?, installation carried: String?
    ) -> PreparedRequest {
        var used: Set<String> = []
        var out = p
        out.method = method
        var body: JSONValue?
        // bodyByKind is keyed by the reference design's kinds, so the kind is the one before renaming.
        if let template = kind.flatMap({ bodyByKind[$0] }) ?? self.body {
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
        var (path, query) = RequestTemplate.splitQuery(path)
        path = RequestTemplate.fillPath(path, values, used: &used)
        var params = RequestTemplate.fillQuery(query, values, used: &used)
        var headers = p.headers
        for (name, template) in self.headers.sorted(by: { $0.key < $1.key }) {
            headers.append((name.lowercased(), RequestTemplate.interpolate(template, values, used: &used) ?? ""))
        }
        if let carried { Self.place(carried, installation, &headers, &body, &params, used: used) }
        out.path = path + (params.isEmpty ? "" : "?" + params.joined(separator: "&"))
        out.headers = headers
        out.body = body
        return out
    }

    /// The installation `p`, a request with `values`, carries under this mapping: the canonical one (a
    /// device's), else the acting user's own where `carriesActorInstallation(reference:)`.
    func carriedInstallation(_ p: PreparedRequest, _ values: [String: JSONValue], reference: OperationMapping)
        -> String?
    {
        let canonical = p.values["installationId"] != nil || p.body?["installationId"] != nil
        return canonical
            ? values["installationId"].map(RequestTemplate.text)
            : carriesActorInstallation(reference: reference) ? p.actorInstallation : nil
    }

    /// Whether a request that names no installation (a user's, not a device's) carries the acting user's
    /// own: where this mapping places the installation, and places it otherwise than `reference` does.
    func carriesActorInstallation(reference: OperationMapping) -> Bool {
        installation != .none && installation != reference.installation
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
}

extension ResponseMapping {
    /// `json` (an answer already in canonical values) with the snapshot's members lifted to the top level
    /// (beside the rest of the answer, less the snapshot's own member) and each of `fields` set from its
    /// dotted path.
    func lifted(_ json: JSONValue) -> JSONValue {
        var out = json
        if let path = snapshot, let snapshot = json.value(atPath: path), case .object(let members) = snapshot {
            let top = String(path.split(separator: ".").first ?? "")
            out = .object((json.objectValue ?? []).filter { $0.key != top })
            for m in members { out = out.setting(m.key, to: m.value) }
        }
        for (name, path) in fields.sorted(by: { $0.key < $1.key }) {
            if let v = json.value(atPath: path) { out = out.setting(name, to: v) }
        }
        return out
    }
}

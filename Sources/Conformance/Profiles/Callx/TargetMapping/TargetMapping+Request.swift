import HTTP
import JSON

extension TargetMapping {
    /// The target's request for the canonical request `p` (a raw request's: `applyRaw`).
    func apply(_ p: PreparedRequest) -> PreparedRequest {
        guard let operation = p.operation.flatMap(TargetOperation.init) else { return applyRaw(p) }
        var values = p.values
        for member in p.body?.objectValue ?? [] { values[member.key] = member.value }
        values = outgoing(values)
        return self[operation].request(
            for: p, values: values, kind: p.values["kind"]?.stringValue,
            installation: carriedInstallation(p, operation, values))
    }

    // MARK: The installation

    /// The installation `p`, a request for `operation` with `values`, carries: the canonical one (a
    /// device's), else the actor's own where `carriesActorInstallation(operation)` (a user's create, get,
    /// end or mediaSession, which the reference design sends without one).
    func carriedInstallation(_ p: PreparedRequest, _ operation: TargetOperation, _ values: [String: JSONValue])
        -> String?
    {
        self[operation].carriedInstallation(p, values, reference: .reference(operation))
    }

    /// Whether a request for `operation` that names no installation (a user's, not a device's) carries the
    /// acting user's own app installation: where the target places the installation, and places it
    /// otherwise than the reference design does. The reference design sends a user's end and
    /// mediaSession without one and create and get never with one; a target that wants an installation
    /// on every request (in a header, say) gets the user's, which `registerUserInstallations` registers
    /// before the first step, so a backend that refuses installations it never saw accepts it.
    public func carriesActorInstallation(_ operation: TargetOperation) -> Bool {
        self[operation].carriesActorInstallation(reference: .reference(operation))
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
        OperationMapping.place(installation, self[operation].installation, &out.headers, &out.body, &params, used: [])
        out.path = path + (params.isEmpty ? "" : "?" + params.joined(separator: "&"))
        return out
    }
}

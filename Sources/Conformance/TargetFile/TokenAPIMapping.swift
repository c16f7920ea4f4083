import JSON

/// How a target's token API differs from the reference design's token route: a target file's
/// `operations.registerToken` and `operations.deleteToken` (method, path, body or `bodyByKind`, headers,
/// `installation:`, `statuses`, `response:` with registerToken's `save`), the `kind` and `apnsEnvironment`
/// maps of `values:`, and the file-wide `installation:` placement (which a profile's own operations follow
/// too). The engine decodes it for every profile's file (`TargetFile.tokenAPI`, `Target.tokenAPI`) and
/// speaks to a target through it when no profile configuration supplies an API mapping of its own; a
/// profile's mapping (Callx's) builds on it.
///
/// ```swift
/// var tokens = TokenAPIMapping()
/// tokens.operations[.registerToken] = OperationMapping(
///     method: "POST", path: "/me/devices", installation: .body("deviceId"))
/// tokens.values["kind"] = ["apnsVoip": "voip"]
/// let wired = tokens.wire(request)  // POST /me/devices {"deviceId": …, "kind": "voip", …}
/// ```
public struct TokenAPIMapping: Sendable, Equatable {
    /// The token operations mapped otherwise than the reference design's route.
    public var operations: [RequestOperation: OperationMapping] = [:]
    /// The token operations the file's `operations:` names (an unnamed one stays on the reference route,
    /// which a backend with its own token API may not have).
    public var declared: Set<RequestOperation> = []
    /// Enumeration (`kind`, `apnsEnvironment`) → the reference design's value → the target's.
    public var values: [String: [String: JSONValue]] = [:]
    /// The file-wide `installation:` placement: where every operation (the token operations and a profile's)
    /// that does not say otherwise carries the installation; nil when the file gives none.
    public var installation: InstallationPlacement? = nil

    public init() {}

    /// The token operations' syntax: the engine's `operations:` keys.
    public static let syntax = [
        OperationSyntax(
            name: RequestOperation.registerToken.rawValue,
            placeholders: ["userId", "installationId", "kind", "token", "appId", "apnsEnvironment"]),
        // token: a backend may delete by the push token itself (`DELETE /me/devices/{token}`).
        OperationSyntax(
            name: RequestOperation.deleteToken.rawValue, placeholders: ["userId", "installationId", "kind", "token"]),
    ]

    /// The reference design's values of the enumerations `values:` may rename for tokens (for did-you-mean).
    public static let enumerations: [String: [String]] = [
        "kind": ["apnsVoip", "fcm"], "apnsEnvironment": ["production", "sandbox"],
    ]

    /// The enumerations whose target values keep their YAML type (`false` is a JSON boolean).
    static let typedEnumerations: Set<String> = ["apnsEnvironment"]

    /// The reference design's mapping of token operation `operation` (the token route, the installation in
    /// its path).
    public static func reference(_ operation: RequestOperation) -> OperationMapping {
        OperationMapping(
            method: operation == .deleteToken ? "DELETE" : "PUT", path: CanonicalAPI.tokenRoute, installation: .path)
    }

    /// How `operation` (registerToken or deleteToken) is sent and read.
    public subscript(operation: RequestOperation) -> OperationMapping {
        operations[operation] ?? Self.reference(operation)
    }

    /// The names registerToken's answer gives for deleteToken (`response.save`).
    public var savedRegistrationValues: [String] { self[.registerToken].response.save.keys.sorted() }

    /// The token maps as `EnumerationMaps`: each enumeration covers the member of its own name.
    var enumerations: EnumerationMaps {
        EnumerationMaps(members: Dictionary(uniqueKeysWithValues: values.keys.map { ($0, [$0]) }), maps: values)
    }

    /// The target's answer with every `kind` and `apnsEnvironment` member read back to the reference
    /// design's value, at any depth (a value several map to stays as the target sent it).
    func incoming(_ json: JSONValue, member: String? = nil) -> JSONValue {
        switch json {
        case .object(let members): return .object(members.map { ($0.key, incoming($0.value, member: $0.key)) })
        case .array(let items): return .array(items.map { incoming($0, member: member) })
        default:
            guard let member else { return json }
            return enumerations.incoming(member, json)
        }
    }
}

extension TokenAPIMapping: TargetAPIMapping {
    /// A token request as the target wants it; any other request, and every request to a target that maps
    /// nothing (one built in code), as it is.
    public func wire(_ p: PreparedRequest) -> PreparedRequest {
        guard let operation = p.operation, Self.syntax.contains(where: { $0.name == operation.rawValue }),
            self != TokenAPIMapping()
        else { return p }
        var values = p.values
        for member in p.body?.objectValue ?? [] { values[member.key] = member.value }
        values = values.reduce(into: [:]) { out, v in out[v.key] = enumerations.outgoing(v.key, v.value) }
        let m = self[operation]
        return m.request(
            for: p, values: values, kind: p.values["kind"]?.stringValue,
            installation: m.carriedInstallation(p, values, reference: Self.reference(operation)))
    }

    /// A token answer in the reference design's statuses, values and shape; any other answer as it is.
    public func normalize(_ operation: RequestOperation?, status: Int, json: JSONValue?) -> NormalizedResponse {
        guard let operation, Self.syntax.contains(where: { $0.name == operation.rawValue }) else {
            return NormalizedResponse(status: status, json: json)
        }
        let r = self[operation].response
        return NormalizedResponse(status: r.statuses[status] ?? status, json: json.map { r.lifted(incoming($0)) })
    }

    public func unreadableValue(_ member: String, _ value: JSONValue) -> String? {
        enumerations.unreadable(member, value)
    }

    /// Whether deleteToken names one registration (its `{token}` or a saved value) rather than the device:
    /// then each token a device registered is deleted on its own.
    public var deletesPerToken: Bool {
        let m = self[.deleteToken]
        var texts = [m.path] + Array(m.headers.values)
        texts += ([m.body].compactMap { $0 } + Array(m.bodyByKind.values)).map { $0.serialized() }
        let names = ["token"] + savedRegistrationValues
        return texts.contains { t in names.contains { t.contains("{\($0)}") } }
    }

    /// The values registerToken's `answer` gives for deleteToken, by name, and the saves whose path it lacks
    /// (name and path, in name order).
    public func savedValues(ofRegistration answer: JSONValue?) -> (
        values: [String: JSONValue], missing: [(name: String, path: String)]
    ) {
        var values: [String: JSONValue] = [:]
        var missing: [(name: String, path: String)] = []
        for (name, path) in self[.registerToken].response.save.sorted(by: { $0.key < $1.key }) {
            if let value = answer?.value(atPath: path) { values[name] = value } else { missing.append((name, path)) }
        }
        return (values, missing)
    }

    /// `METHOD /path` of a registration the file maps to its own route while it maps no delete.
    public var registrationWithoutDelete: String? {
        guard declared.contains(.registerToken), self[.registerToken] != Self.reference(.registerToken),
            !declared.contains(.deleteToken)
        else { return nil }
        let register = self[.registerToken]
        return "\(register.method) \(register.path)"
    }

    public var deleteTokenRoute: String {
        let m = self[.deleteToken]
        return "\(m.method) \(m.path)"
    }
}

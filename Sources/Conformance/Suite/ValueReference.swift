import Foundation
import JSON

/// A reference to a saved value inside a scenario value: the string `$call.callId` names the value
/// saved as `call` and the path `callId` inside it. `$$` starts a literal `$`. Inside longer text,
/// `${name.path}` is replaced by the value's text (`/v1/calls/${call.callId}`). The roots `devices`
/// (`$devices.b-phone.installationId`, `.token`, `.user`) and `users` (`$users.b.userId`) are built in.
public struct ValueReference: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    /// Dotted path inside the value; empty for the whole value.
    public var path: String

    public init(name: String, path: String = "") {
        self.name = name
        self.path = path
    }

    /// The built-in roots.
    public static let builtIns = ["devices", "users", "run"]
    /// What `$run.…` may name: the run's tag and a UUID fresh for the run (for literal-looking IDs
    /// that must not collide with an earlier run on the same backend).
    public static let runFields = ["tag", "uuid"]
    /// What `$devices.<name>.…` may name.
    public static let deviceFields = ["installationId", "token", "user", "kind", "environment"]
    /// What `$users.<name>.…` may name.
    public static let userFields = ["userId"]

    /// The reference a string denotes, or nil for plain text (including `$$…`).
    public init?(parsing text: String) {
        guard text.hasPrefix("$"), !text.hasPrefix("$$"), text.count > 1 else { return nil }
        let body = text.dropFirst()
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        guard !name.isEmpty,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
        else { return nil }
        self.name = name
        self.path = parts.count > 1 ? String(parts[1]) : ""
    }

    /// The `${name.path}` references embedded in a longer string, such as `/v1/calls/${call.callId}`.
    public static func interpolations(in text: String) -> [ValueReference] {
        var out: [ValueReference] = []
        var rest = Substring(text)
        while let open = rest.range(of: "${") {
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else { break }
            if let ref = ValueReference(parsing: "$" + rest[open.upperBound..<close]) { out.append(ref) }
            rest = rest[rest.index(after: close)...]
        }
        return out
    }

    /// Every reference in a value, depth first: whole strings `$name.path` and embedded `${name.path}`.
    public static func all(in value: JSONValue) -> [ValueReference] {
        switch value {
        case .string(let s): return ValueReference(parsing: s).map { [$0] } ?? interpolations(in: s)
        case .array(let items): return items.flatMap { all(in: $0) }
        case .object(let members): return members.flatMap { all(in: $0.value) }
        default: return []
        }
    }

    public var description: String { path.isEmpty ? "$\(name)" : "$\(name).\(path)" }
}

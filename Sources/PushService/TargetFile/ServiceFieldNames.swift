import Conformance
import JSON

/// A push service's names for the seed's body members (`serviceApp.fieldNames`), applied to every body
/// ringcheck sends and read back from every answer. A rename applies at every depth, only to the member at one
/// path, or only in one route's bodies and answers:
///
/// ```yaml
/// fieldNames:
///   external_id: externalId         # every member of that name, at any depth, on every route
///   call.id: callId                 # only the member at this path (the seed's names from the root; arrays
///                                   # are looked through)
///   devices: {id: installationId}   # only in the devices route's bodies and answers
/// ```
///
/// The most specific rename wins: the route's path, the route's name, then the file-wide path and name.
public struct ServiceFieldNames: Sendable, Equatable {
    /// Seed name → service name, at any depth.
    public var everywhere: [String: String] = [:]
    /// Seed path (`call.id`) → the service's name of the member at that path.
    public var atPath: [String: String] = [:]
    /// Route name → the renames of that route's bodies and answers (their own `byRoute` is unused).
    public var byRoute: [String: ServiceFieldNames] = [:]

    public init(
        everywhere: [String: String] = [:], atPath: [String: String] = [:], byRoute: [String: ServiceFieldNames] = [:]
    ) {
        self.everywhere = everywhere
        self.atPath = atPath
        self.byRoute = byRoute
    }

    /// Whether nothing is renamed.
    public var isEmpty: Bool { everywhere.isEmpty && atPath.isEmpty && byRoute.values.allSatisfy(\.isEmpty) }

    /// `value` (a body in the seed's names) in the service's names for route `route`.
    public func toService(_ value: JSONValue, route: String) -> JSONValue {
        guard !isEmpty else { return value }
        let scopes = self.scopes(route)
        return walk(value, parent: "") { key, parent in
            let path = parent.isEmpty ? key : parent + "." + key
            let name = scopes.lazy.compactMap { $0.atPath[path] ?? $0.everywhere[key] }.first ?? key
            return (name, path)
        }
    }

    /// `value` (an answer in the service's names) in the seed's names for route `route`.
    public func toSeed(_ value: JSONValue, route: String) -> JSONValue {
        guard !isEmpty else { return value }
        let scopes = self.scopes(route)
        return walk(value, parent: "") { key, parent in
            let seed =
                scopes.lazy.compactMap { scope in
                    scope.atPath.first { Self.parent(of: $0.key) == parent && $0.value == key }.map {
                        Self.lastName(of: $0.key)
                    } ?? scope.everywhere.first { $0.value == key }?.key
                }.first ?? key
            return (seed, parent.isEmpty ? seed : parent + "." + seed)
        }
    }

    /// The renames that apply on `route`, most specific first.
    private func scopes(_ route: String) -> [ServiceFieldNames] {
        (byRoute[route].map { [$0] } ?? []) + [self]
    }

    /// `value` with every object key replaced by `rename(key, parent seed path)`, which also gives the member's
    /// own seed path for its children.
    private func walk(
        _ value: JSONValue, parent: String, _ rename: (String, String) -> (name: String, path: String)
    ) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(
                members.map { member in
                    let (name, path) = rename(member.key, parent)
                    return (key: name, value: walk(member.value, parent: path, rename))
                })
        case .array(let items):
            return .array(items.map { walk($0, parent: parent, rename) })
        default:
            return value
        }
    }

    static func parent(of path: String) -> String {
        guard let dot = path.lastIndex(of: ".") else { return "" }
        return String(path[..<dot])
    }

    static func lastName(of path: String) -> String {
        guard let dot = path.lastIndex(of: ".") else { return path }
        return String(path[path.index(after: dot)...])
    }
}

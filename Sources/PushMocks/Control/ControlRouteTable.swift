import HTTP

/// One operation of the control API: a method on a path template and the query parameters it accepts.
///
/// The same values drive dispatch, the `Allow` header of a 405, the 400 for an unknown query
/// parameter, and the test that holds the OpenAPI document to the server, so none of them can drift.
public struct ControlEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The OpenAPI `operationId`; unique across the control API.
    public var operationID: String
    /// `GET`, `POST`, `PUT`, `PATCH` or `DELETE`.
    public var method: String
    /// The path template: literal segments and `{name}` parameters (`/v1/faults/{id}`).
    public var path: String
    /// The query parameters it accepts; any other is answered 400.
    public var query: [String]

    /// An endpoint from its parts.
    public init(_ operationID: String, _ method: String, _ path: String, query: [String] = []) {
        self.operationID = operationID
        self.method = method
        self.path = path
        self.query = query
    }

    public var description: String { "\(method) \(path)" }
}

/// The control API's routes: which endpoint a request is for, or why none is (404, 405 with the methods
/// the path has). Pure, so it is tested without sockets.
public struct ControlRouteTable: Sendable {
    /// What a request's method and path resolve to.
    public enum Match: Sendable, Equatable {
        /// The endpoint, and the decoded values of its path parameters by name.
        case endpoint(ControlEndpoint, parameters: [String: String])
        /// The path exists, not with this method: the ones it has, for `Allow`.
        case methodNotAllowed(allowed: [String])
        /// No route has this path.
        case notFound
    }

    /// Every endpoint, in the order given.
    public let endpoints: [ControlEndpoint]

    /// A table over `endpoints`; templates must not overlap (no literal segment where another has a parameter).
    public init(_ endpoints: [ControlEndpoint]) { self.endpoints = endpoints }

    /// Every path template, once each, in the order of first appearance.
    public var paths: [String] {
        var seen: Set<String> = []
        return endpoints.map(\.path).filter { seen.insert($0).inserted }
    }

    /// The methods of the path template `path`, in table order.
    public func methods(ofTemplate path: String) -> [String] {
        endpoints.filter { $0.path == path }.map(\.method)
    }

    /// Resolves a request path (without its query; a trailing slash ignored) and method.
    public func match(method: String, path rawPath: String) -> Match {
        let path = rawPath.count > 1 && rawPath.hasSuffix("/") ? String(rawPath.dropLast()) : rawPath
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for template in paths {
            guard let parameters = Self.bind(template, to: segments) else { continue }
            guard let endpoint = endpoints.first(where: { $0.path == template && $0.method == method }) else {
                return .methodNotAllowed(allowed: methods(ofTemplate: template))
            }
            return .endpoint(endpoint, parameters: parameters)
        }
        return .notFound
    }

    /// The query parameters of `query` that `endpoint` does not accept, sorted.
    public func unknownQueryParameters(_ query: [String: String], for endpoint: ControlEndpoint) -> [String] {
        query.keys.filter { !endpoint.query.contains($0) }.sorted()
    }

    /// The path parameters of `template` bound to `segments`, percent-decoded; nil when they do not fit.
    static func bind(_ template: String, to segments: [Substring]) -> [String: String]? {
        let parts = template.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (part, segment) in zip(parts, segments) {
            if part.hasPrefix("{") && part.hasSuffix("}") {
                // A parameter is one non-empty segment: `/v1/faults/` is the collection, not an empty ID.
                guard !segment.isEmpty else { return nil }
                parameters[String(part.dropFirst().dropLast())] = percentDecode(String(segment))
            } else if part != segment {
                return nil
            }
        }
        return parameters
    }
}

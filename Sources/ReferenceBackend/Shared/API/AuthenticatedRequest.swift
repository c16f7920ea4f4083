import HTTP
import JSON

// MARK: - What every API of the reference backends does the same way

/// The token of an `Authorization: Bearer <token>` header; nil without one.
func bearerToken(_ header: String?) -> String? {
    guard let header else { return nil }
    let parts = header.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    return String(parts[1].drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
}

/// Checks the method and the bearer token of `request`, then runs `body` as that user: 405 for
/// another method, 401 without a known token, an `APIError`'s own result, 500 for any other error.
func authenticatedRequest(
    _ request: HTTPRequest, users: UserDirectory, allowed: [String], _ body: (BackendUser) async throws -> APIResult
) async -> APIResult {
    await authenticatedRequest(request, user: users.user(forToken:), allowed: allowed, body)
}

/// `authenticatedRequest` with the user of a bearer token found by `user` (a directory, or a database of
/// accounts that signed up).
func authenticatedRequest(
    _ request: HTTPRequest, user lookUp: (String) -> BackendUser?, allowed: [String],
    _ body: (BackendUser) async throws -> APIResult
) async -> APIResult {
    guard allowed.contains(request.method.uppercased()) else {
        return APIError(405, "method_not_allowed", "use \(allowed.joined(separator: " or "))").result
    }
    guard let token = bearerToken(request.headers["authorization"]), let user = lookUp(token) else {
        return APIError.unauthenticated.result
    }
    do { return try await body(user) } catch let error as APIError { return error.result } catch {
        return APIError(500, "internal_error", "\(error)").result
    }
}

/// The request body as a JSON object; 400 `invalid_json` otherwise.
func jsonObjectBody(_ request: HTTPRequest) throws(APIError) -> JSONValue {
    let json: JSONValue
    do { json = try JSONValue.parse(request.body) } catch {
        throw APIError(400, "invalid_json", "the body is not valid JSON: \(error.description)")
    }
    guard case .object = json else { throw APIError(400, "invalid_json", "the body must be a JSON object") }
    return json
}

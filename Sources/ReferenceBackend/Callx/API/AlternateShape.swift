import JSON

/// Turns the reference API's outcomes into the alternate API's bodies.
enum AlternateShape {
    /// A success's body under `key` (with `status` instead of the reference's, e.g. 201 for a
    /// create); a refusal as `refusal(_:)` makes it.
    static func wrapped(_ result: APIResult, in key: String, status: Int? = nil) -> APIResult {
        guard (200..<300).contains(result.status) else { return refusal(result) }
        guard let json = try? JSONValue.parse(result.body) else { return result }
        return APIResult(status: status ?? result.status, json: [key: json])
    }

    /// A refusal: `{"error": {...}}` as it is; a conflict with the snapshot's members beside
    /// `error` becomes `{"error": {...}, "call": <snapshot>}`.
    static func refusal(_ result: APIResult) -> APIResult {
        guard result.status >= 400, let json = try? JSONValue.parse(result.body), let members = json.objectValue,
            let error = json["error"], members.count > 1
        else { return result }
        return APIResult(
            status: result.status, json: ["error": error, "call": .object(members.filter { $0.key != "error" })])
    }

    /// The reference create body for an alternate one: `id`, `to` and `requestId` renamed to
    /// `callId`, `calleeUserId` and `operationId`; other members (`video`) pass unchanged. The
    /// reference names and `installationId` are not accepted from the alternate body.
    static func createBody(_ body: JSONValue) throws(APIError) -> JSONValue {
        let fields = RequestBody(body)
        let id = try fields.string("id", maxBytes: 128)
        try validateIdentifier(id, field: "id")
        let to = try fields.string("to")
        let requestId = try fields.string("requestId")
        let replaced: Set = ["id", "to", "requestId", "callId", "calleeUserId", "operationId", "installationId"]
        let members: [(key: String, value: JSONValue)] = [
            ("callId", .string(id)), ("calleeUserId", .string(to)), ("operationId", .string(requestId)),
        ]
        return .object(members + (body.objectValue ?? []).filter { !replaced.contains($0.key) })
    }
}

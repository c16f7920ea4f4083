import HTTP
import JSON

extension AlternateAPI {
    // MARK: Create, hangup

    /// `POST /api/v2/calls`: the reference create, answered 201 `{"call": <snapshot>}` (a replay
    /// gets the stored outcome through the same translation, so the same 201 and body).
    func create(_ request: HTTPRequest, user: BackendUser) throws -> APIResult {
        let body = try reference.parseBody(request)
        let created = service.createCall(
            user: user, body: try AlternateShape.createBody(body), fingerprint: fingerprint(request, body, device: nil))
        return AlternateShape.wrapped(created, in: "call", status: created.status == 200 ? 201 : nil)
    }

    /// `POST /api/v2/calls/{id}/hangup`: the reference end; the ending device, if any, from `X-Device-Id`.
    func hangup(_ request: HTTPRequest, user: BackendUser, callId: String) throws -> APIResult {
        let device = try optionalDeviceId(request)
        let body = try reference.parseBody(request)
        var end: JSONValue = ["operationId": .string(try RequestBody(body).string("requestId"))]
        if let reason = body["reason"] { end = end.setting("reason", to: reason) }
        if let device { end = end.setting("installationId", to: .string(device)) }
        let ended = service.end(
            user: user, callId: callId, body: end, fingerprint: fingerprint(request, body, device: device))
        return AlternateShape.wrapped(ended, in: "call")
    }

    // MARK: Media token (the answer)

    /// `POST /api/v2/calls/{id}/media-token`: 200 `{"call": <snapshot>, "media": <media session>}`.
    ///
    /// From the callee's device this is first the reference answer (same arbitration, idempotency
    /// on `requestId`, same conflicts); once that answer succeeds — now, earlier, or as a replay —
    /// the device gets media credentials. The caller gets the reference media session. Refusals
    /// are the reference's; every 409 carries the call as the user may see it under `call`.
    func mediaToken(_ request: HTTPRequest, user: BackendUser, callId: String) async throws -> APIResult {
        let body = try reference.parseBody(request)
        let requestId = try RequestBody(body).string("requestId")
        let device = try optionalDeviceId(request)
        let current = service.snapshot(user: user, callId: callId)
        guard current.status == 200, let snapshot = try? JSONValue.parse(current.body) else {
            return AlternateShape.refusal(current)
        }
        if snapshot.value(atPath: "caller.userId")?.stringValue == user.userId {
            let media = service.mediaSession(user: user, callId: callId, body: .object([]))
            return withCall(media, call: nil, user: user, callId: callId)
        }
        guard let device else {
            throw APIError.badRequest("the X-Device-Id header is required: the callee answers from a device")
        }
        let answered = await service.answer(
            user: user, callId: callId,
            body: ["operationId": .string(requestId), "installationId": .string(device)],
            fingerprint: fingerprint(request, body, device: device))
        guard answered.status == 200, let call = try? JSONValue.parse(answered.body) else {
            return withCall(answered, call: nil, user: user, callId: callId)
        }
        let media = service.mediaAfterAnswer(user: user, callId: callId, installationId: device)
        return withCall(media, call: call, user: user, callId: callId)
    }

    /// The media outcome with the call: granted, `{"call", "media"}` (with `call` when given, else
    /// the call as it now is); refused, the alternate refusal, a 409 completed with the call.
    private func withCall(_ outcome: APIResult, call: JSONValue?, user: BackendUser, callId: String) -> APIResult {
        let shaped = outcome.status == 200 ? outcome : AlternateShape.refusal(outcome)
        guard let json = try? JSONValue.parse(shaped.body) else { return shaped }
        if shaped.status != 200 && (shaped.status != 409 || json["call"] != nil) { return shaped }
        var snapshot = call
        if snapshot == nil {
            let current = service.snapshot(user: user, callId: callId)
            guard current.status == 200, let parsed = try? JSONValue.parse(current.body) else {
                // The call cannot be shown (it was readable a moment ago): refuse as the read does.
                return shaped.status == 200 ? AlternateShape.refusal(current) : shaped
            }
            snapshot = parsed
        }
        guard let snapshot else { return shaped }
        if shaped.status == 200 { return APIResult(status: 200, json: ["call": snapshot, "media": json]) }
        return APIResult(status: 409, json: json.setting("call", to: snapshot))
    }
}

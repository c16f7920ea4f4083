import JSON

extension PushRegistration {
    /// The registration a `PUT /v1/installations/{installationId}/push-tokens/{kind}` body
    /// (`{"token", "appId", "apnsEnvironment"}`, the environment for `apnsVoip` only) asks for on
    /// behalf of `userId`; a 400 naming the field when one is missing or malformed.
    static func requested(
        installationId: String, kind: PushKind, body: JSONValue, userId: String, nowMs: Int64
    ) throws(APIError) -> PushRegistration {
        try validateIdentifier(installationId, field: "installationId")
        let fields = RequestBody(body)
        let token = try fields.string("token", maxBytes: 4096)
        let appId = try fields.string("appId")
        var environment: APNsEnvironment?
        if kind == .apnsVoip {
            let name = try fields.string("apnsEnvironment")
            guard let parsed = APNsEnvironment(rawValue: name) else {
                throw APIError.badRequest("apnsEnvironment must be \"sandbox\" or \"production\"")
            }
            environment = parsed
        }
        return PushRegistration(
            installationId: installationId, kind: kind, token: token, appId: appId, apnsEnvironment: environment,
            userId: userId, updatedAtMs: nowMs)
    }
}

import JSON

extension VirtualCallee {
    /// What registers this device's token on `target` (its `pushToken` route): the path, the body
    /// (`token`, `appId`, and `apnsEnvironment` for a VoIP token) and the values a mapped operation reads.
    package func registration(on target: Target) -> (path: String, body: JSONValue, values: [String: JSONValue]) {
        var body: JSONValue = ["token": .string(token), "appId": .string(target.appId)]
        if let environment { body = body.setting("apnsEnvironment", to: .string(environment.rawValue)) }
        let path = RequestTemplate.fill(
            target.tokenRoute, ["installationId": installationId, "kind": kind.rawValue])
        return (path, body, ["installationId": .string(installationId), "kind": .string(kind.rawValue)])
    }
}

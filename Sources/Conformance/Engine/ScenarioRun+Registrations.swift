import JSON

/// A token the backend accepted for a device, with the values its answer saved (`response.save`).
struct TokenRegistration: Sendable, Equatable {
    var token: String
    /// Name → value, for deleteToken's placeholders (a device ID the backend made up).
    var saved: [String: JSONValue] = [:]
}

extension ScenarioRun {
    /// Every installation the scenario registers tokens for, by name: its devices and the users' own
    /// installations (`registerInstallation(ofUser:kind:token:)`).
    var tokenHolders: [DeviceIdentity] {
        (Array(devices.values) + Array(userInstallations.values)).sorted { $0.name < $1.name }
    }

    /// Registers device `name`'s first token through the target's token registration (its
    /// `registerToken` operation), as its user: what `Profile.registerDevice` does by default. A refusal
    /// stops the scenario as a harness error.
    public func registerToken(ofDevice name: String) async throws {
        guard let d = devices[name] else { throw HarnessStop(message: "unknown device '\(name)'") }
        let request = tokenRegistration(
            d, by: try user(d.user), actor: d.name, token: .string(d.tokens.first ?? ""),
            appId: .string(engine.target.appId), environment: d.environment)
        let exchange = await send(request)
        guard exchange.isSuccess else {
            throw HarnessStop(
                message:
                    "registering \(name)'s token failed: \(exchange.status.map(String.init) ?? exchange.error ?? "?")")
        }
    }

    public func registerInstallation(ofUser name: String, kind: VirtualDevice.Kind, token: String) async -> Exchange? {
        guard let account = users[name], userInstallations[name] == nil else { return nil }
        let identity = DeviceIdentity(
            name: "\(name)'s installation", user: name, kind: kind, environment: nil,
            installationId: userInstallationId(name), tokens: [token])
        registerWithMocks(token: token, device: identity)
        // Known before the answer comes, so that the registration is tracked (and deleted at clean-up) as a device's.
        userInstallations[name] = identity
        return await send(
            tokenRegistration(
                identity, by: account, actor: name, token: .string(token), appId: .string(engine.target.appId),
                environment: nil))
    }

    /// Keeps track of the tokens the backend holds for each device: a granted registration adds one (with
    /// what its answer saved), a granted delete removes what it named. A race's requests count too.
    func noteRegistration(_ canonical: PreparedRequest, succeeded: Bool, answer: JSONValue?) {
        guard succeeded, let operation = canonical.operation,
            operation == .registerToken || operation == .deleteToken,
            let installation = canonical.values["installationId"]?.stringValue,
            let d = tokenHolders.first(where: { $0.installationId == installation })
        else { return }
        if operation == .deleteToken {
            if engine.target.apiMapping.deletesPerToken {
                registrations[d.name]?.removeAll { $0.token == canonical.values["token"]?.stringValue }
            } else {
                registrations[d.name] = []
            }
            return
        }
        guard let token = canonical.body?["token"]?.stringValue else { return }
        var registration = TokenRegistration(token: token)
        let saved = engine.target.apiMapping.savedValues(ofRegistration: answer)
        registration.saved = saved.values
        // Said once here: every later delete of this token would go to a path without it.
        for (name, path) in saved.missing {
            note("the registration's answer has no '\(path)' (response.save.\(name)): {\(name)} stays empty")
        }
        registrations[d.name, default: []].removeAll { $0.token == token }
        registrations[d.name, default: []].append(registration)
    }
}

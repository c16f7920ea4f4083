import HTTP
import JSON

extension TargetProbe {
    /// Registers a fresh APNs VoIP token for a fresh installation of the target's first user through its
    /// token route (`registerToken`), reads that installation's events feed (`events`) when `readFeed`,
    /// then deletes the token (`deleteToken`, with what the registration's answer saved): the requests
    /// every scenario makes before its first step, as the target file maps them. `read` is the profile's read
    /// of what it registered (Callx: the installation's events feed); nil when the profile reads nothing back.
    public static func tokenAPI(
        _ target: Target, client: HTTPClient, profile: String,
        read: (@Sendable (VirtualCallee, TargetUser) async -> TargetProbeLine)? = nil
    ) async -> [TargetProbeLine] {
        let (found, problem) = await firstAccount(of: target)
        guard let account = found else { return [TargetProbeLine(.failed, "registration: \(problem ?? "no account")")] }
        let environment: VirtualDevice.Environment = target.capabilities.contains(.sandbox) ? .sandbox : .production
        let device = VirtualCallee(
            name: "validate", kind: .apnsVoip, environment: environment,
            installationId: VirtualCallee.freshPrefix("ringcheck-validate"), token: RandomText.hex(bytes: 32))
        var lines: [TargetProbeLine] = []

        let registration = device.registration(on: target)
        var values = registration.values
        values["userId"] = .string(account.userId)
        let register = await send(
            PreparedRequest(
                actor: account.userId, method: "PUT", path: registration.path, credentials: account.authHeaders,
                body: registration.body, operation: .registerToken, values: values,
                actorInstallation: device.installationId),
            to: target, client: client)
        let registered = register.status.map { (200..<300).contains($0) } ?? false
        let answer = summary(status: register.status, json: register.json, error: register.error)
        lines.append(
            TargetProbeLine(
                registered ? .worked : .failed,
                "registration (registerToken) of a new \(device.kind.rawValue) token for \(account.userId): "
                    + "\(register.sent) → \(answer)"))
        guard registered else { return lines }
        let saved = target.apiMapping.savedValues(ofRegistration: register.raw)
        for (name, value) in saved.values { values[name] = value }
        for (name, path) in saved.missing {
            lines.append(
                TargetProbeLine(
                    .failed, "registration: its answer has no '\(path)' (registerToken.response.save.\(name))"))
        }

        if let read {
            lines.append(await read(device, account))
        } else {
            lines.append(
                TargetProbeLine(
                    .notApplicable,
                    "read: the \(profile) profile reads nothing back from the backend (its pushes are read at the mocks)"
                ))
        }

        values["token"] = .string(device.token)
        let delete = await send(
            PreparedRequest(
                actor: account.userId, method: "DELETE", path: registration.path, credentials: account.authHeaders,
                operation: .deleteToken, values: values, actorInstallation: device.installationId),
            to: target, client: client)
        let deleted = delete.status.map { (200..<300).contains($0) } ?? false
        lines.append(
            TargetProbeLine(
                deleted ? .worked : .failed,
                "clean-up (deleteToken) of that token: \(delete.sent) → "
                    + summary(status: delete.status, json: delete.json, error: delete.error)
                    + (deleted ? "" : "; the backend may keep it")))
        return lines
    }
}

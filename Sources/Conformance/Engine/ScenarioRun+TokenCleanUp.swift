import HTTP
import JSON

extension ScenarioRun {
    /// After a run on fixed accounts: deletes the tokens its devices (and the users' installations whose
    /// feeds it read) registered, then lets the profile leave the accounts clean (`Profile.cleanUp(with:)`:
    /// ending the calls it left unfinished), so the next scenario on the same accounts starts clean.
    /// Never judged, not on the timeline; a delete that fails is counted for the run's warning
    /// (`CleanUpTally`).
    func cleanUpBackend() async {
        await deleteTokens()
        await engine.profile.cleanUp(with: self)
    }

    /// Deletes each device's tokens: one request per registration when deleteToken names the token (or a
    /// value its answer saved), else one for the device, trying its user first and then the others (a token
    /// rebound to another user is deleted as that user).
    func deleteTokens() async {
        if engine.tokenCleanUpSkipReason != nil {
            await engine.cleanUpTally.recordSkipped(devices: registrations.values.filter { !$0.isEmpty }.count)
            return
        }
        let perToken = engine.target.apiMapping.deletesPerToken
        for d in tokenHolders {
            let registered = registrations[d.name] ?? []
            let owners = [d.user] + users.keys.sorted().filter { $0 != d.user }
            let targets: [TokenRegistration?] = perToken ? registered : [registered.last]
            for registration in targets {
                var failure: String? = "no account"
                for owner in owners {
                    guard let account = users[owner] else { continue }
                    let r = PreparedRequest(
                        actor: owner, method: "DELETE",
                        path: RequestTemplate.fill(
                            engine.target.tokenRoute,
                            ["installationId": d.installationId, "kind": d.kind.rawValue]),
                        credentials: account.authHeaders, operation: .deleteToken,
                        values: deviceValues(d, account, registration: registration))
                    failure = await quietlySend(r)
                    if failure == nil { break }
                }
                // Counted only where the backend should still hold the token: the scenario registered it
                // and did not make it gone (a delete, a provider fault, another user's registration). Of a
                // device's several tokens only the latest counts: a backend may have replaced the earlier.
                guard let latest = registered.last, registration == latest,
                    !goneTokenDevices.contains(d.name)
                else { continue }
                await engine.cleanUpTally.recordDelete(failure: failure)
            }
        }
    }

    /// Sends `canonical` without recording it; nil on a 2xx answer, else what came back (`404`, `no answer`).
    @discardableResult
    public func quietlySend(_ canonical: PreparedRequest) async -> String? {
        guard let response = try? await engine.client.send(clientRequest(wire(canonical))) else { return "no answer" }
        let status = engine.target.normalize(canonical.operation, status: response.status, json: nil).status
        return (200..<300).contains(status) ? nil : String(status)
    }
}

import Conformance
import JSON

extension RunContext {
    /// Registers, before the first step, a VoIP token for the app installation of each user whose own
    /// feed the scenario reads (`Scenario.feedReadingUsers`), then of each user whose call requests carry
    /// its installation (`actingUsersWithInstallation`): one installation per user, the one its requests
    /// and feed reads name.
    ///
    /// The seed makes installations through token registration: a real app reads its feed, and ends or
    /// joins a call, from the installation it registered. Reading with one the backend never saw made a
    /// backend that refuses unknown installations fail MUST CALLX-EVT-7 in one scenario and stop seven
    /// others as harness errors; an end sent with one made the alternate shape answer 403
    /// installation_not_yours. A VoIP installation of the caller is sent nothing by a conforming backend
    /// (VoIP pushes are invitations only, and the caller is not invited), and no step or invariant judges
    /// a user installation's pushes. A refused registration stops the scenario as a harness error, as a
    /// device's does.
    func registerUserInstallations() async throws {
        let feedReaders = scenario.feedReadingUsers
        let actors = actingUsersWithInstallation.filter { !feedReaders.contains($0) }
        for (name, why) in feedReaders.map({ ($0, "its event feed's") }) + actors.map({ ($0, "the app it acts from") })
        {
            guard
                let exchange = await registerInstallation(
                    ofUser: name, kind: .apnsVoip, token: RandomText.hex(bytes: 32))
            else { continue }
            guard exchange.isSuccess else {
                throw HarnessStop(
                    message: "registering \(name)'s installation (\(why)) failed: "
                        + (exchange.status.map(String.init) ?? exchange.error ?? "?"))
            }
        }
    }

    /// The users who make a call request (`create`, `end`, `get`, `mediaSession` with `as: a`) that the
    /// target's mapping sends with the acting user's installation (`TargetMapping.carriesActorInstallation`),
    /// in the order they first act; none against a target that places installations as the reference
    /// design does.
    var actingUsersWithInstallation: [String] {
        guard let mapping = target.mapping else { return [] }
        var out: [String] = []
        for step in scenario.allProfileSteps {
            let acting: (StepActor, TargetOperation)? =
                switch step {
                case let s as CreateCallStep: (s.actor, .create)
                case let s as EndCallStep: (s.actor, .end)
                case let s as CallRequestStep: (s.actor, s.keyword == "get" ? .get : .mediaSession)
                default: nil
                }
            guard let (actor, operation) = acting, let name = actor.userName, !out.contains(name),
                mapping.carriesActorInstallation(operation)
            else { continue }
            out.append(name)
        }
        return out
    }
}

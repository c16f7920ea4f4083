import JSON
import PushMocks

extension ScenarioRun {
    // MARK: A callee whose tokens are gone

    /// Whether a fault plan answers as its provider does for a token that is gone or malformed (the
    /// provider says which answers those are: `MockProvider.meansTokenGone`).
    static func marksTokenGone(_ plan: FaultPlan) -> Bool {
        guard let answer = plan.respond, let provider = MockProviders.registered.first(where: { $0.id == plan.mock })
        else { return false }
        return provider.meansTokenGone(answer)
    }

    /// Keeps track of the devices whose every token the scenario made gone for their user (a fault as
    /// above, a delete, a registration by another user).
    func noteTokens(of step: Step, succeeded: Bool) {
        switch step {
        case .fault(let f):
            if let name = f.device, let d = devices[name] {
                if let answer = f.plan.respond, d.kind.carrier.meansTokenGone(answer) { goneTokenDevices.insert(name) }
            }
        case .deleteToken(let r) where succeeded: goneTokenDevices.insert(r.device)
        case .registerToken(let r) where succeeded:
            // Registered by another user, the device no longer belongs to its own user: gone for it.
            if let other = r.asUser, other != devices[r.device]?.user {
                goneTokenDevices.insert(r.device)
            } else {
                goneTokenDevices.remove(r.device)
            }
        default: break
        }
    }
}

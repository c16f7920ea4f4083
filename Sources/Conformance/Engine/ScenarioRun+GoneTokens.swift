import JSON
import PushMocks

extension ScenarioRun {
    // MARK: A callee whose tokens are gone

    /// Whether a fault plan answers as the provider does for a token that is gone or malformed
    /// (APNs 410 Unregistered or 400 BadDeviceToken, FCM 404 UNREGISTERED or 400 INVALID_ARGUMENT).
    static func marksTokenGone(_ plan: FaultPlan) -> Bool {
        guard let r = plan.respond, let status = r.status else { return false }
        switch status {
        case 410: return true
        case 404: return plan.mock == .fcm
        case 400: return r.reason == "BadDeviceToken" || r.errorCode == "INVALID_ARGUMENT"
        default: return false
        }
    }

    /// Keeps track of the devices whose every token the scenario made gone for their user (a fault as
    /// above, a delete, a registration by another user).
    func noteTokens(of step: Step, succeeded: Bool) {
        switch step {
        case .fault(let f):
            if let name = f.device, let d = devices[name] {
                var plan = f.plan
                plan.mock = d.kind == .apnsVoip ? .apns : .fcm
                if Self.marksTokenGone(plan) { goneTokenDevices.insert(name) }
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

import JSON
import PushMocks

/// One of the kit's helpers ringcheck made the backend run, as the invariants need it.
struct OneSignalOperation: Sendable, Equatable {
    enum Kind: String, Sendable, CaseIterable {
        case pushToUser, pushBroadcast, voipPush

        /// The path the embedded kit server takes it on.
        var defaultPath: String {
            switch self {
            case .pushToUser: return "/push/user"
            case .pushBroadcast: return "/push/broadcast"
            case .voipPush: return "/push/voip"
            }
        }
    }

    var kind: Kind
    /// The OneSignal External ID sent as `userId` (nil for a broadcast).
    var externalId: String?
    var title: String?
    var body: String?
    var data: JSONValue?
    /// `options` as sent (the seed's `PushOptions` names).
    var options: JSONValue?
    /// Whether it went to the unconfigured instance (no OneSignal request may follow).
    var unconfigured: Bool
    /// Wall-clock ms just before the request left, and once its answer was in.
    var sentAtMs: Int64
    var answeredAtMs: Int64
    /// The backend's `delivered`, when it answered one.
    var delivered: Bool?
}

/// What the OneSignal profile keeps of one scenario run (`ScenarioRun.profileState["onesignal"]`).
struct OneSignalRunState: Sendable {
    var operations: [OneSignalOperation] = []
}

extension ScenarioRun {
    /// The OneSignal profile's state of this run.
    var oneSignal: OneSignalRunState {
        get { profileState[OneSignalProfile.profileName] as? OneSignalRunState ?? OneSignalRunState() }
        set { profileState[OneSignalProfile.profileName] = newValue }
    }

    /// The OneSignal External ID of scenario user `name` in this run: unique to the run, so scenarios running at
    /// once never share an audience.
    func oneSignalExternalId(_ name: String) -> String { "\(runTag)-\(name)" }

    /// The OneSignal requests of this run: every capture of the OneSignal mock whose body names the run's tag (its
    /// users' External IDs, the tag ringcheck puts in the data of every send and in a broadcast's title).
    func oneSignalCaptures() -> [Capture] {
        let tag = runTag
        return engine.mocks.log.captures { c in
            c.mock == .onesignal && String(decoding: c.body, as: UTF8.self).contains(tag)
        }
    }
}

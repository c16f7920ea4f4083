import Conformance
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

        /// The values a target file's path and body for it may name (`{userId}`): those of the request ringcheck
        /// makes for it.
        var placeholders: [String] {
            switch self {
            case .pushToUser: return ["userId", "title", "body", "data", "options"]
            case .pushBroadcast: return ["title", "body", "data", "options"]
            case .voipPush: return ["userId", "data", "options"]
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

/// What the OneSignal profile keeps of one scenario run (`OneSignalProfile.RunState`).
public struct OneSignalRunState: ProfileRunState {
    public init() {}

    var operations: [OneSignalOperation] = []
    /// Each scenario user's External ID in this run, made on first use.
    var externalIds: [String: String] = [:]

    /// The External ID of scenario user `name`, a fresh UUID the first time: the seed's kit sets the External ID
    /// to the account's immutable UUID, so a server may rightly refuse any other shape, and a fresh one per run
    /// keeps scenarios running at once from sharing an audience.
    mutating func externalId(_ name: String) -> String {
        if let id = externalIds[name] { return id }
        let id = RandomText.uuid()
        externalIds[name] = id
        return id
    }

    /// Whether a OneSignal request body belongs to this run: it names the run's tag (in the data of every send,
    /// in a broadcast's title) or one of its users' External IDs (a server may drop the data).
    func names(_ body: String, tag: String) -> Bool {
        body.contains(tag) || externalIds.values.contains { body.contains($0) }
    }
}

extension RunContext {
    /// The OneSignal profile's state of this run.
    var oneSignal: OneSignalRunState {
        get { profileStates[OneSignalProfile.self] }
        _modify { yield &profileStates[OneSignalProfile.self] }
    }

    /// The OneSignal External ID of scenario user `name` in this run (`OneSignalRunState.externalId`).
    func oneSignalExternalId(_ name: String) -> String { oneSignal.externalId(name) }

    /// The OneSignal requests of this run: every capture of the OneSignal mock whose body names the run's tag or
    /// one of its users' External IDs.
    func oneSignalCaptures() -> [Capture] {
        let tag = runTag
        let state = oneSignal
        return mocks.log.captures { c in
            c.mock == .onesignal && state.names(String(decoding: c.body, as: UTF8.self), tag: tag)
        }
    }
}

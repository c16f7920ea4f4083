import Synchronization

/// Who can receive a OneSignal push, set per scenario: for each app, the external IDs (the alias
/// `include_aliases.external_id` targets) with how many subscribed devices each has, and how the app
/// answers a notification that reaches nobody. Unknown external IDs have no subscription. App IDs are
/// compared without regard to case, as UUIDs are.
public final class OneSignalAudience: Sendable {
    private struct State {
        /// App ID → external ID → subscribed devices (≥ 1).
        var devices: [String: [String: Int]] = [:]
        /// App ID → the answer for an empty audience; absent: `.notSubscribed`.
        var emptyAnswers: [String: OneSignalEmptyAudienceAnswer] = [:]
        /// App IDs whose answers leave `recipients` out, as today's API does.
        var withoutRecipients: Set<String> = []
    }

    private let state = Mutex(State())

    /// An empty audience.
    public init() {}

    /// Gives `externalId` `devices` subscribed devices in `appId` (replacing what it had); 0 unsubscribes.
    public func subscribe(externalId: String, appId: String, devices: Int = 1) {
        state.withLock {
            if devices > 0 {
                $0.devices[appId.lowercased(), default: [:]][externalId] = devices
            } else {
                $0.devices[appId.lowercased()]?[externalId] = nil
            }
        }
    }

    /// Removes every subscription of `externalId` in `appId`; true when it had any.
    @discardableResult
    public func unsubscribe(externalId: String, appId: String) -> Bool {
        state.withLock { $0.devices[appId.lowercased()]?.removeValue(forKey: externalId) != nil }
    }

    /// The subscribed devices of `externalId` in `appId` (0 when none).
    public func devices(externalId: String, appId: String) -> Int {
        state.withLock { $0.devices[appId.lowercased()]?[externalId] ?? 0 }
    }

    /// Every subscribed device of `appId` (what a segment such as "All" reaches).
    public func allDevices(appId: String) -> Int {
        state.withLock { $0.devices[appId.lowercased()]?.values.reduce(0, +) ?? 0 }
    }

    /// Every subscription: (app ID, external ID, devices), sorted.
    public var subscriptions: [(appId: String, externalId: String, devices: Int)] {
        state.withLock { s in
            s.devices.flatMap { app, ids in ids.map { (appId: app, externalId: $0.key, devices: $0.value) } }
                .sorted { ($0.appId, $0.externalId) < ($1.appId, $1.externalId) }
        }
    }

    /// Chooses how `appId` answers a notification that reaches nobody.
    public func setEmptyAudienceAnswer(_ answer: OneSignalEmptyAudienceAnswer, appId: String) {
        state.withLock { $0.emptyAnswers[appId.lowercased()] = answer }
    }

    /// How `appId` answers a notification that reaches nobody.
    public func emptyAudienceAnswer(appId: String) -> OneSignalEmptyAudienceAnswer {
        state.withLock { $0.emptyAnswers[appId.lowercased()] ?? .notSubscribed }
    }

    /// Chooses whether `appId`'s answers carry `recipients` (the seed's kit reads it) or leave it out, as today's
    /// API does (the official SDKs' response models have no such member).
    public func setAnswersRecipients(_ recipients: Bool, appId: String) {
        state.withLock {
            if recipients {
                $0.withoutRecipients.remove(appId.lowercased())
            } else {
                $0.withoutRecipients.insert(appId.lowercased())
            }
        }
    }

    /// Whether `appId`'s answers carry `recipients` (the default).
    public func answersRecipients(appId: String) -> Bool {
        state.withLock { !$0.withoutRecipients.contains(appId.lowercased()) }
    }

    /// Forgets every subscription, keeping the answer choices; returns how many it removed.
    @discardableResult
    public func clearSubscriptions() -> Int {
        state.withLock {
            let n = $0.devices.values.reduce(0) { $0 + $1.count }
            $0.devices = [:]
            return n
        }
    }

    /// Forgets every subscription and answer choice (between scenarios); returns how many subscriptions it removed.
    @discardableResult
    public func reset() -> Int {
        state.withLock {
            let n = $0.devices.values.reduce(0) { $0 + $1.count }
            $0 = State()
            return n
        }
    }
}

import Conformance
import JSON

/// What the onesignal load driver makes the kit do as one unit, in a fixed rotation: a push to a user with one or
/// two subscribed devices (with the `priority` and `collapseId` options), a VoIP push (every other one with the
/// `ttl` option), a broadcast, a push to a user with no subscribed device (the kit must answer not delivered), and,
/// when the target has one, a push through the instance started without the OneSignal settings (no request may
/// follow).
public enum OneSignalLoadScript: String, Sendable, Equatable, CaseIterable, Codable {
    case pushToUser
    case voipPush
    case pushBroadcast
    case noRecipients
    case unconfigured

    /// The script of unit number `index`; `unconfigured` only when the target has an unconfigured instance.
    public static func script(for index: Int, unconfigured: Bool) -> OneSignalLoadScript {
        let rotation = unconfigured ? allCases : allCases.filter { $0 != .unconfigured }
        return rotation[index % rotation.count]
    }

    /// The kit operation the script calls.
    var kind: OneSignalOperation.Kind {
        switch self {
        case .pushToUser, .noRecipients, .unconfigured: return .pushToUser
        case .voipPush: return .voipPush
        case .pushBroadcast: return .pushBroadcast
        }
    }

    /// The devices of the operation's External ID subscribed on the mock, in the operation's app (a broadcast
    /// reaches the run's standing audience instead).
    func devices(_ index: Int) -> Int {
        switch self {
        case .pushToUser, .voipPush: return 1 + (index / 5) % 2
        case .pushBroadcast, .noRecipients, .unconfigured: return 0
        }
    }

    /// The `options` the operation is given (the seed's `PushOptions` names), nil for none.
    func options(_ index: Int, marker: String) -> [(key: String, value: JSONValue)]? {
        switch self {
        case .pushToUser: return [("priority", 10), ("collapseId", .string(marker))]
        case .voipPush: return (index / 5) % 2 == 0 ? nil : [("ttl", 60)]
        case .pushBroadcast, .noRecipients, .unconfigured: return nil
        }
    }
}

extension HistoryRule {
    // MARK: The rules of a onesignal load run's history check (`OneSignalLoadJudge`)

    /// Each operation makes one OneSignal request (none through the unconfigured instance: ONESIGNAL-CONF-1).
    public static let oneRequest = HistoryRule("one-request")
    /// The request goes to the operation's app (the VoIP app for a VoIP push) with that app's REST API key.
    public static let rightApp = HistoryRule("right-app")
    /// The request's targeting, content, VoIP defaults and options are those the operation gave.
    public static let requestMapped = HistoryRule("request-mapped")
    /// The operation's `delivered` says what OneSignal answered (recipients 1 or more: true; 0 or no request: false).
    public static let deliveredAsAnswered = HistoryRule("delivered-as-answered")

    /// OneSignal's rules, in the order the report lists their violations.
    public static let oneSignal: [HistoryRule] = [.oneRequest, .rightApp, .requestMapped, .deliveredAsAnswered]
}

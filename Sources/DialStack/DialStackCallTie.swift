/// Which call a wake-up push belongs to, told by its content alone (the call ID as a string under any key,
/// `DialStackPush.carries`), never by its order or its arrival time.
enum DialStackCallTie: Sendable, Equatable {
    /// It carries the ID of this one known call.
    case call(String)
    /// It carries no known call's ID; `named` is the call it names under `call_id`/`callId`, if any.
    case none(named: String?)
    /// It carries the IDs of several known calls (sorted): it cannot be tied to one.
    case several([String])
    /// No webhook is known to tie it to (`check-payload` judges captures alone).
    case unjudged

    /// Why a push cannot be judged against a webhook while it still names a call, or nil: carrying a call no
    /// webhook announced, or several webhooks' calls, it is reported unattributed and charged to no rule (a guess
    /// could charge the wrong webhook). A push naming no call at all is DIALSTACK-PUSH-1's, not unattributed.
    var unattributedReason: String? {
        switch self {
        case .none(named: .some(let id)):
            return "it names call \(id), which no webhook announced, and carries no announced call's ID"
        case .several(let ids):
            return "it carries the call IDs of \(ids.joined(separator: " and ")) alike"
        case .call, .none(named: nil), .unjudged:
            return nil
        }
    }
}

extension DialStackPush {
    /// The call among those `isKnown` accepts whose ID the push carries (`carries`), if exactly one.
    ///
    /// ```swift
    /// push.tie(isKnown: ["call_1", "call_2"].contains)  // .call("call_1") for {"id": "call_1", …}
    /// ```
    func tie(isKnown: (String) -> Bool) -> DialStackCallTie {
        let found = strings.filter(isKnown).sorted()
        switch found.count {
        case 0: return .none(named: callId)
        case 1: return .call(found[0])
        default: return .several(found)
        }
    }
}

import Conformance
import PushMocks
import Reports

/// The history check of one webhook of a DialStack load run, as a pure function of the webhook (its
/// deliveries and answers) and the pushes the mocks captured for its `call_id`: each wake-up pushes each
/// device of its user exactly once within the seed's 30 s and no other user's device; a redelivery rings no
/// device again; an event of another type and a badly signed one push nothing; every answer is the one its
/// signature and type call for. Each finding names the webhook (its event id) and the device.
enum DialStackLoadHistory {
    /// The seed's budget from the webhook to the app waking (DIALSTACK-WAKE-1's 30 s).
    static let budgetMs: Int64 = 30_000

    /// The findings for `unit` over `pushes` (its captures with the device and user they reached, the user
    /// empty for a device the run did not register). `prior` counts each own device's accepted pushes already
    /// judged (for a push that arrives after its webhook was judged); `whole` judges the answers and the
    /// devices never pushed too (the first judgement of a webhook, with the mocks watching).
    static func check(
        _ unit: DialStackLoadUnit, pushes: [DialStackJudgedPush], prior: [String: Int] = [:], whole: Bool,
        levels: [String: RequirementLevel]
    ) -> (violations: [LoadViolation], rung: [String: Int]) {
        var out: [LoadViolation] = []
        func add(_ rule: HistoryRule, _ requirement: RequirementID, _ message: String) {
            out.append(
                LoadViolation.charge(
                    requirement, levels: levels, rule: rule,
                    callId: unit.callId, message: "\(unit.name): \(message)"))
        }
        if whole { checkAnswers(unit, add) }
        var rung = prior
        var firstArrival: [String: Int64] = [:]
        let own = Set(unit.devices.map(\.name))
        for push in pushes where push.capture.outcome.isAccepted {
            let c = push.capture
            let what = "push #\(c.sequence) to \(push.device)"
            guard unit.wakes else {
                if unit.signature.isValid {
                    add(.noPushForOtherEvent, DialStackRequirement.wakeUpOnly, "\(what): a \(unit.type) wakes nobody")
                } else {
                    let rule = DialStackAnswerRule.rule(signature: unit.signature, eventType: unit.type)
                    add(.noPushForBadSignature, rule.requirement, "\(what): a webhook signed so must be refused")
                }
                continue
            }
            guard push.user == unit.user, own.contains(push.device) else {
                add(
                    .noOtherUser, DialStackRequirement.otherUser,
                    "\(what), a device of \(push.user.isEmpty ? "no user of this run" : push.user), not of \(unit.user)"
                )
                continue
            }
            rung[push.device, default: 0] += 1
            if firstArrival[push.device] == nil { firstArrival[push.device] = c.arrivalMs }
            guard rung[push.device]! > 1 else { continue }
            if unit.redelivered {
                add(
                    .noRingOnRedelivery, DialStackRequirement.redelivery,
                    "\(what): pushed \(rung[push.device]!) times for one event delivered \(unit.deliveries.count) times"
                )
            } else {
                add(.wakeOnce, "DIALSTACK-WAKE-1", "\(what): pushed \(rung[push.device]!) times for one delivery")
            }
        }
        if whole && unit.wakes, let sent = unit.firstSentMs {
            for d in unit.devices {
                if let at = firstArrival[d.name] {
                    if prior[d.name] == nil && at - sent > budgetMs {
                        add(
                            .wakeEveryDevice, "DIALSTACK-WAKE-1",
                            "\(d.name) was woken \(at - sent) ms after the webhook, past the seed's \(budgetMs / 1000) s"
                        )
                    }
                } else if prior[d.name] == nil {
                    add(
                        .wakeEveryDevice, "DIALSTACK-WAKE-1",
                        "\(d.name) (\(d.kind.rawValue)) got no push within the seed's \(budgetMs / 1000) s")
                }
            }
        }
        return (out, rung)
    }

    /// Each delivery's answer: the first as its signature and type say, a redelivery 2xx (DIALSTACK-DEDUP-1).
    static func checkAnswers(_ unit: DialStackLoadUnit, _ add: (HistoryRule, RequirementID, String) -> Void) {
        for (n, d) in unit.deliveries.enumerated() {
            guard let status = d.status else { continue }  // no answer: the unit failed, and says so
            if n == 0 {
                let rule = DialStackAnswerRule.rule(signature: unit.signature, eventType: unit.type)
                if !rule.ok(status) {
                    add(.webhookAnswer, rule.requirement, "answered \(status), expected \(rule.expected)")
                }
            } else if !(200..<300).contains(status) {
                add(.webhookAnswer, DialStackRequirement.redelivery, "redelivery \(n) answered \(status), expected 2xx")
            }
        }
    }
}

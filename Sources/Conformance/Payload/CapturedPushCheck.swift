import JSON
import PushMocks
import Reports

/// `check-payload --profile P` for the profiles whose pushes are judged from captures (those with a
/// `Profile.capturedPushJudge`).
public enum CapturedPushCheck {
    /// The levels of `profile`'s requirements, from its embedded suite's catalogue
    /// (`RequirementCatalogue.embeddedLevels(of:)`); none when it has no embedded suite.
    public static func levels(of profile: any Profile) -> [String: RequirementLevel] {
        (try? RequirementCatalogue.embeddedLevels(of: profile)) ?? [:]
    }

    /// Judges the captures in `document` by `judge`'s rules, each violation at its catalogue level (`levels`;
    /// MUST when the catalogue does not name it).
    public static func check(
        _ document: JSONValue, judge: any CapturedPushJudge.Type, context: CapturedPushContext,
        levels: [String: RequirementLevel]
    ) throws(PayloadInputError) -> PayloadCheck {
        let (captures, form) = try CaptureDocument.captures(in: document)
        let pushes = captures.filter { judge.providers.contains($0.mock) }
        guard !pushes.isEmpty else {
            let names = judge.providers.map { $0 == .onesignal ? "OneSignal" : $0.rawValue.uppercased() }
            throw PayloadInputError("the captures hold no \(names.joined(separator: " or ")) request")
        }
        var violations = try judge.violations(of: pushes, context: context)
        for i in violations.indices { violations[i].level = levels[violations[i].requirement.rawValue] ?? .must }
        return PayloadCheck(kind: nil, form: form, violations: violations)
    }

    /// The VoIP topic a capture is judged against: the one given, else its own topic when that ends in `.voip`,
    /// else its topic with `.voip` added (so a call on the app's alert topic is caught).
    public static func voipTopic(_ given: String?, for c: Capture) -> String {
        if let given { return given }
        let topic = c.headers["apns-topic"] ?? ""
        return topic.hasSuffix(".voip") ? topic : topic + ".voip"
    }
}

import Conformance

/// The rules every single push must follow, judged on the push alone (plus what the context knows of
/// its call): Callx's APNs, FCM and secret rules, in that order. Rules that compare pushes with each other or
/// with the call's timeline are `AcrossPushRules`; `InvariantChecker` applies both.
public enum PushProfile {
    /// The rules over one push, in the order their findings are reported.
    static let rules: [Rule<CallxPushSubject>] = APNsRules.all + FCMRules.all + SecretRules.all

    /// Every violation of `push`. `context` supplies the expected VoIP topic, the call's timeline
    /// (expiry, video), secrets to look for and the requirement levels.
    public static func check(_ push: PushDocument, context: InvariantContext = InvariantContext())
        -> [Violation]
    {
        rules.violations(of: CallxPushSubject(push, context: context), captures: push.sequence.map { [$0] } ?? [])
            .atLevels(context.levels)
    }

    /// The call the push's callx names, when the context knows it.
    static func call(of push: PushDocument, context: InvariantContext) -> CallTimeline? {
        push.callx?["callId"]?.stringValue.flatMap { context.calls[$0] }
    }
}

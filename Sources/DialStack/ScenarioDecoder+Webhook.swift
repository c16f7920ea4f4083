import Conformance
import JSON
import Signing

extension ScenarioDecoder {
    static let webhookFields = ["type", "user", "omit", "event", "signature", "seconds", "format", "save", "expect"]

    /// `webhook: {type, user, omit, event, signature, seconds, format, save, expect}`.
    mutating func decodeWebhook(_ node: YAMLNode, _ p: String) -> WebhookStep? {
        guard let f = d.mapping(node, p, known: Self.webhookFields) else { return nil }
        let errorsBefore = d.errors.count
        let type = f["type"].flatMap { d.choice($0.value, p + ".type", DialStackEvent.types) }
        let user = f["user"].flatMap { self.user($0.value, p + ".user") }
        var omit: [String] = []
        if let e = f["omit"], let list = d.stringList(e.value, p + ".omit") {
            for name in list where !DialStackEvent.omittable.contains(name) {
                d.error(
                    e.value.mark, p + ".omit",
                    "'\(name)' is not a data field ringcheck can leave out\(Diagnostics.suggestion(name, DialStackEvent.omittable)) (\(DialStackEvent.omittable.joined(separator: ", ")))"
                )
            }
            omit = list
        }
        let event = f["event"].map { value($0.value, p + ".event") }
        if let e = f["event"] {
            for key in ["type", "user", "omit"] where f[key] != nil {
                d.error(e.keyMark, p, "'event' redelivers a saved event as it is; it takes no '\(key)'")
            }
        } else if user == nil && f["user"] == nil && !omit.contains("user_id") {
            d.error(node.mark, p, "missing 'user' (whose devices the event wakes), or 'omit: [user_id]'")
        } else if f["user"] != nil && omit.contains("user_id") {
            d.error(f["user"]!.keyMark, p, "'user' names data.user_id, which 'omit' leaves out")
        }
        let seconds = f["seconds"].flatMap { d.int($0.value, p + ".seconds", min: 1) }
        var signature = WebhookSignatureVariant.valid
        if let e = f["signature"], let name = d.choice(e.value, p + ".signature", WebhookSignatureVariant.names) {
            signature = WebhookSignatureVariant(name: name, seconds: seconds.map(Int64.init)) ?? .valid
        }
        if let e = f["seconds"], signature.name != "stale" && signature.name != "future" {
            d.error(e.keyMark, p, "'seconds' applies to signature: stale or future only")
        }
        let format =
            f["format"].flatMap {
                d.choice($0.value, p + ".format", DialStackBodyFormat.allCases.map(\.rawValue))
            }.flatMap(DialStackBodyFormat.init(rawValue:)) ?? .compact
        var save: String?
        if let e = f["save"], let name = saveName(e.value, p + ".save") {
            save = name
            stepSaves.append(name)
        }
        let expect = f["expect"].flatMap { responseExpectation($0.value, p + ".expect") }
        guard d.errors.count == errorsBefore else { return nil }
        return WebhookStep(
            type: type ?? DialStackEvent.wakeUpType, user: user, omit: omit, event: event, signature: signature,
            format: format, save: save, expect: expect)
    }
}

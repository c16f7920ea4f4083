import Conformance
import Foundation
import JSON

/// A DialStack webhook event as the seed documents it: `id`, `type`, `created_at`, `account_id` and `data` with
/// the call's fields. The values are unusual on purpose (non-ASCII, a slash, a quote, a character beyond the BMP)
/// so that the escaped and raw formats of one event differ and a push must carry them over exactly.
enum DialStackEvent {
    /// The seed's event type whose pushes wake the app.
    static let wakeUpType = "call.mobile_push_wakeup"
    /// The event types ringcheck sends.
    static let types = [wakeUpType, "call.incoming", "call.ringing"]
    /// The `data` fields a scenario may leave out (`omit:`).
    static let omittable = ["user_id", "from_name", "from_number", "to_number", "ringing_at"]
    /// The caller's name: an accent, an umlaut, a quote, a slash and a telephone (a surrogate pair when escaped).
    static let fromName = "José \"Pepe\" Müller/Ventas ☎ 📞"
    static let fromNumber = "+14155551234"
    static let toNumber = "+14155559876"
    /// The event's `account_id` unless the target file's `webhook.accountId` gives the backend's own.
    static let defaultAccountId = WebhookEndpoint.defaultAccountId

    /// A new event of `type` for `userId` (nil: no `data.user_id`), with fresh `id` and `call_id`, leaving out the
    /// `data` fields in `omit`, from DialStack account `accountId`.
    static func make(
        type: String, userId: String?, omit: Set<String>, accountId: String = defaultAccountId, now: Date = Date()
    ) -> JSONValue {
        let time = timestamp(now)
        var data: [(key: String, value: JSONValue)] = [("call_id", .string("call_" + RandomText.alphanumeric(26)))]
        if let userId { data.append(("user_id", .string(userId))) }
        data += [
            ("from_number", .string(fromNumber)), ("from_name", .string(fromName)), ("to_number", .string(toNumber)),
            ("ringing_at", .string(time)),
        ]
        data.removeAll { omit.contains($0.key) }
        return [
            "id": .string("evt_" + RandomText.alphanumeric(26).lowercased()), "type": .string(type),
            "created_at": .string(time), "account_id": .string(accountId), "data": .object(data),
        ]
    }

    /// `2026-04-10T14:30:00Z`.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}

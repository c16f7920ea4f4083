import JSON
import PushMocks
import Testing

/// The create-notification body rules, judged without sockets: every malformed body the real API
/// refuses with 400, and the fields the kit's rules read, normalised.
@Suite struct OneSignalNotificationTests {
    static let appID = "5eb5a37e-b458-11e3-ac11-000c2940e62c"

    /// A body the kit's VoIP helper sends, with `changes` applied (a nil value removes the field).
    static func body(_ changes: [(String, JSONValue?)] = []) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("app_id", .string(appID)), ("include_aliases", ["external_id": ["user-1"]]), ("target_channel", "push"),
            ("data", ["call_id": "c1"]), ("apns_push_type_override", "voip"), ("content_available", true),
            ("ttl", 30), ("priority", 10),
        ]
        for (key, value) in changes {
            members.removeAll { $0.key == key }
            if let value { members.append((key, value)) }
        }
        return .object(members)
    }

    func messages(_ body: JSONValue) -> [String] {
        do {
            _ = try OneSignalNotification.parse(body)
            return []
        } catch {
            #expect(error.status == 400)
            return error.messages
        }
    }

    @Test func theKitsVoIPBodyIsReadFieldByField() throws {
        let n = try OneSignalNotification.parse(Self.body())
        #expect(n.appID == Self.appID && n.externalIDs == ["user-1"] && n.targetChannel == "push")
        #expect(n.apnsPushTypeOverride == "voip" && n.contentAvailable == true && n.ttl == 30 && n.priority == 10)
        #expect(!n.hasHeadings && !n.hasContents && n.collapseID == nil && n.idempotencyKey == nil)
        let alert = try OneSignalNotification.parse(
            Self.body([
                ("headings", ["en": "Ride"]), ("contents", ["en": "2 min"]), ("collapse_id", "ride-1"),
                ("apns_push_type_override", nil), ("content_available", nil), ("external_id", "idem-1"),
            ]))
        #expect(
            alert.hasHeadings && alert.hasContents && alert.collapseID == "ride-1" && alert.idempotencyKey == "idem-1")
        let broadcast = try OneSignalNotification.parse(
            Self.body([("include_aliases", nil), ("included_segments", ["All"])]))
        #expect(broadcast.targeting == .segments(["All"]) && broadcast.externalIDs.isEmpty)
    }

    @Test func aBodyWithoutAnAppIDIsRefused() {
        for body: JSONValue in [Self.body([("app_id", nil)]), Self.body([("app_id", 42)]), "not an object", [1, 2]] {
            #expect(messages(body) == OneSignalError.appIDNotFound.messages, "\(body)")
        }
    }

    @Test func noTargetingAndTwoTargetingModesAreRefused() {
        #expect(messages(Self.body([("include_aliases", nil)])) == OneSignalError.noTargeting.messages)
        for (field, value): (String, JSONValue) in [
            ("included_segments", ["All"]), ("include_subscription_ids", ["s1"]), ("include_player_ids", ["p1"]),
            ("include_external_user_ids", ["user-1"]), ("filters", [["field": "tag"]]),
        ] {
            let m = messages(Self.body([(field, value)]))
            #expect(m.count == 1 && m[0].hasPrefix("Incompatible targeting parameters") && m[0].contains(field), "\(m)")
        }
        // Segments and their exclusions are one mode; null is absent.
        #expect(
            messages(
                Self.body([("include_aliases", nil), ("included_segments", ["All"]), ("excluded_segments", ["X"])])
            ).isEmpty)
        #expect(messages(Self.body([("included_segments", .null)])).isEmpty)
    }

    @Test func malformedTargetingIsRefused() {
        for value: JSONValue in [[:], ["external_id": []], ["external_id": "user-1"], ["external_id": [1]], ["user-1"]]
        {
            let m = messages(Self.body([("include_aliases", value)]))
            #expect(m.count == 1 && m[0].hasPrefix("include_aliases"), "\(value): \(m)")
        }
        let many = JSONValue.array((0...2000).map { .string("user-\($0)") })
        #expect(
            messages(Self.body([("include_aliases", ["external_id": many])])) == [
                "include_aliases.external_id may hold at most 2000 entries"
            ])
        #expect(
            messages(Self.body([("include_aliases", nil), ("include_subscription_ids", many)])) == [
                "include_subscription_ids may hold at most 2000 entries"
            ])
        #expect(
            messages(Self.body([("include_aliases", nil), ("include_player_ids", "p1")])) == [
                "include_player_ids must be an array of strings"
            ])
    }

    @Test func wrongTypesAreRefused() {
        let cases: [(String, JSONValue, String)] = [
            ("ttl", "30", "ttl must be an integer"), ("ttl", 30.5, "ttl must be an integer"),
            ("priority", "10", "priority must be an integer"),
            ("content_available", "true", "content_available must be a boolean"),
            ("content_available", 1, "content_available must be a boolean"),
            ("data", "call", "data must be a JSON object"), ("collapse_id", 7, "collapse_id must be a string"),
            ("apns_push_type_override", true, "apns_push_type_override must be a string"),
            ("target_channel", ["push"], "target_channel must be a string"),
        ]
        for (field, value, expected) in cases {
            #expect(messages(Self.body([(field, value)])).contains(expected), "\(field)=\(value)")
        }
        #expect(messages(Self.body([("headings", "Ride")])).contains { $0.hasPrefix("headings must be an object") })
        #expect(messages(Self.body([("contents", ["en": 5])])) == ["contents must map each language code to a string"])
    }

    @Test func valuesOutOfRangeAreRefused() {
        #expect(
            messages(Self.body([("apns_push_type_override", "VoIP")])) == [
                "apns_push_type_override must be one of alert, background, voip (got 'VoIP')"
            ])
        #expect(messages(Self.body([("apns_push_type_override", "background")])).isEmpty)
        for p in [0, 11, -1] {
            #expect(messages(Self.body([("priority", .int(p))])) == ["priority must be between 1 and 10"])
        }
        for p in [1, 5, 10] { #expect(messages(Self.body([("priority", .int(p))])).isEmpty) }
        #expect(messages(Self.body([("ttl", -1)])) == ["ttl must be between 0 and 2419200 seconds"])
        #expect(messages(Self.body([("ttl", 2_419_201)])) == ["ttl must be between 0 and 2419200 seconds"])
        #expect(messages(Self.body([("ttl", 0)])).isEmpty)
        #expect(
            messages(Self.body([("target_channel", "voip")])) == [
                "target_channel must be one of push, email, sms (got 'voip')"
            ])
        #expect(
            messages(Self.body([("collapse_id", .string(String(repeating: "c", count: 65)))])) == [
                "collapse_id must be at most 64 bytes"
            ])
        #expect(messages(Self.body([("ios_badgeType", "Add")])) == ["ios_badgeType must be None, SetTo or Increase"])
    }

    @Test func aPushWithNothingToShowMustBeABackgroundPush() {
        #expect(
            messages(Self.body([("content_available", nil)])) == [
                "Message Notifications must have English language content"
            ])
        #expect(
            messages(Self.body([("content_available", false)])) == [
                "Message Notifications must have English language content"
            ])
        #expect(messages(Self.body([("content_available", nil), ("contents", ["en": "Hi"])])).isEmpty)
        #expect(
            messages(Self.body([("contents", ["fr": "Salut"])])) == [
                "Notification contents must include English (\"en\") content"
            ])
    }

    @Test func everyProblemIsListedAtOnce() {
        let m = messages(Self.body([("ttl", "30"), ("priority", 11), ("apns_push_type_override", "call")]))
        #expect(m.count == 3, "\(m)")
    }
}

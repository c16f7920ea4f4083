import JSON

/// A `POST /notifications` body, checked: who receives it and what it says (a normal notification
/// or a call).
struct ServiceNotification: Sendable, Equatable {
    /// A `call` member.
    struct Call: Sendable, Equatable {
        enum Action: String, Sendable { case incoming, ended }
        var action: Action
        /// The request's `id`; "" asks the service to generate one (incoming calls only).
        var id: String
        var callerName: String
        var handle: String
        var avatar: String
        var isVideo: Bool
        /// Seconds of ringing, when given.
        var timeout: Int64?
    }

    var appId: String
    var externalIds: [String]
    /// `headings` and `contents` by language.
    var headings: [(key: String, value: JSONValue)]
    var contents: [(key: String, value: JSONValue)]
    var data: [(key: String, value: JSONValue)]
    var bigPicture: String?
    var badgeType: String?
    var badgeCount: Int64?
    var channelId: String?
    var ttl: Int64?
    var collapseId: String?
    var call: Call?

    static func == (a: ServiceNotification, b: ServiceNotification) -> Bool {
        JSONValue.object(a.headings) == .object(b.headings) && JSONValue.object(a.contents) == .object(b.contents)
            && JSONValue.object(a.data) == .object(b.data) && a.appId == b.appId && a.externalIds == b.externalIds
            && a.call == b.call && a.ttl == b.ttl && a.collapseId == b.collapseId && a.badgeCount == b.badgeCount
            && a.badgeType == b.badgeType && a.channelId == b.channelId && a.bigPicture == b.bigPicture
    }

    /// The title shown: the English heading, else the first one.
    var title: String? { Self.text(headings) }
    /// The body shown: the English contents, else the first.
    var body: String? { Self.text(contents) }

    private static func text(_ languages: [(key: String, value: JSONValue)]) -> String? {
        (languages.first { $0.key == "en" } ?? languages.first)?.value.stringValue
    }

    /// The longest `ttl` FCM takes (28 days).
    static let maxTTL: Int64 = 2_419_200
}

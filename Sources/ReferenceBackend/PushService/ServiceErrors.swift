import JSON

/// A refused request in the service's error shape: `{"errors": ["…", …]}`.
struct ServiceErrors: Error, Sendable, Equatable {
    var status: Int
    var messages: [String]

    init(status: Int = 400, _ messages: [String]) {
        self.status = status
        self.messages = messages
    }

    init(status: Int = 400, _ message: String) { self.init(status: status, [message]) }

    var result: APIResult { APIResult(status: status, json: ["errors": .array(messages.map { .string($0) })]) }
}

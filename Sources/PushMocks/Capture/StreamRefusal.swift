import Synchronization

/// Streams a mock's HTTP/2 listener refused on one connection (RST_STREAM REFUSED_STREAM): APNs takes one
/// stream per connection until a request with a valid provider token arrives, and refuses a second one
/// opened before that. The refused request's headers are never read, so which device it was for is unknown.
public struct StreamRefusal: Sendable, Equatable {
    public var mock: MockProviderID
    public var environment: APNsEnvironment?
    public var connectionID: UInt64
    public var count: Int
    /// Wall-clock ms when the refusal was made.
    public var atMs: Int64
    /// Whether the connection had sent a valid provider token by then.
    public var tokenAccepted: Bool

    public init(
        mock: MockProviderID, environment: APNsEnvironment?, connectionID: UInt64, count: Int, atMs: Int64,
        tokenAccepted: Bool
    ) {
        self.mock = mock
        self.environment = environment
        self.connectionID = connectionID
        self.count = count
        self.atMs = atMs
        self.tokenAccepted = tokenAccepted
    }

    /// What a reader of a device's evidence is told: "APNs refused a second stream on a connection whose
    /// token was not yet accepted".
    public var sentence: String {
        let streams = count == 1 ? "a second stream" : "\(count) streams beyond the first"
        let why =
            tokenAccepted
            ? "beyond the connection's stream limit"
            : "on a connection whose token was not yet accepted"
        let provider = mock == .apns ? "APNs" : mock.rawValue
        return "\(provider)\(environment.map { " (\($0.rawValue))" } ?? "") refused \(streams) \(why)"
    }
}

/// The refusals a capture log keeps: the latest `capacity`, oldest dropped first.
final class StreamRefusals: Sendable {
    static let capacity = 1_000
    private let list = Mutex<[StreamRefusal]>([])

    func append(_ r: StreamRefusal) {
        list.withLock { list in
            if list.count >= Self.capacity { list.removeFirst(list.count - Self.capacity + 1) }
            list.append(r)
        }
    }

    func since(_ ms: Int64) -> [StreamRefusal] { list.withLock { $0.filter { $0.atMs >= ms } } }
}

extension CaptureLog {
    /// Records streams a listener refused (they are no captures: no request was read).
    ///
    /// ```swift
    /// log.recordRefusal(StreamRefusal(mock: .apns, environment: .production, connectionID: 7, count: 1,
    ///                                 atMs: nowMs, tokenAccepted: false))
    /// log.refusals(sinceMs: scenarioStartMs).map(\.sentence)
    /// ```
    public func recordRefusal(_ r: StreamRefusal) { refusalStore.append(r) }

    /// The refusals made at or after `ms` (wall clock), oldest first.
    public func refusals(sinceMs ms: Int64) -> [StreamRefusal] { refusalStore.since(ms) }
}

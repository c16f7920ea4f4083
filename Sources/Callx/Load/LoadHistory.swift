import Conformance

/// Everything a load run recorded, in the manner of a Jepsen history: every operation with the times
/// it was invoked and completed and what it returned, every push the mocks captured for the run's
/// calls, and every entry each event feed returned. `HistoryChecker` judges it as a pure function.
public struct LoadHistory: Sendable, Equatable {
    /// The calls the run placed, by callId.
    public var calls: [String: LoadCall]
    /// Operations in the order they were invoked.
    public var operations: [LoadOperation]
    /// Pushes for the run's calls, in capture order.
    public var pushes: [LoadPush]
    /// What each feed returned, per feed in the order it was read.
    public var feeds: [String: [FeedEntry]]
    /// Whether every feed was read to its end after the last call ended (missing events are judged only then).
    public var feedsDrained: Bool
    /// How long after the driver knew a call stopped ringing an invitation's send may still have begun
    /// (the backend's and ringcheck's clocks, and a send already under way). Default 1000 ms.
    public var inFlightMarginMs: Int64
    /// How long after the call stopped ringing an invitation whose send began before (`issuedAtMs`) may
    /// still arrive, as the suite allows (`InvariantContext.inFlightIssuedBoundMs`); later, it is judged by
    /// its arrival: it was not in flight but stuck. Default 15,000 ms.
    public var inFlightIssuedBoundMs: Int64 = InFlightInvitation.issuedBoundMs

    /// Creates a value from its parts.
    public init(
        calls: [LoadCall] = [], operations: [LoadOperation] = [], pushes: [LoadPush] = [],
        feeds: [String: [FeedEntry]] = [:], feedsDrained: Bool = true, inFlightMarginMs: Int64 = 1000
    ) {
        self.calls = Dictionary(calls.map { ($0.callId, $0) }, uniquingKeysWith: { _, last in last })
        self.operations = operations
        self.pushes = pushes
        self.feeds = feeds
        self.feedsDrained = feedsDrained
        self.inFlightMarginMs = inFlightMarginMs
    }
}

/// One call of a load run: who takes part, through which feeds, and what the driver planned for it.
public struct LoadCall: Sendable, Equatable {
    public var callId: String
    /// What the driver did with the call (`race`, `cancel`, `expire`, …).
    public var script: String
    /// The caller's installation whose feed the driver reads.
    public var callerFeed: String
    /// The callee's installations (one feed each).
    public var calleeFeeds: [String]
    /// `expiresAtMs` of the create response, when it had one.
    public var expiresAtMs: Int64?

    /// Creates a value from its parts.
    public init(
        callId: String, script: String, callerFeed: String, calleeFeeds: [String], expiresAtMs: Int64? = nil
    ) {
        self.callId = callId
        self.script = script
        self.callerFeed = callerFeed
        self.calleeFeeds = calleeFeeds
        self.expiresAtMs = expiresAtMs
    }
}

/// One request of a load run with its invoke and complete times (ringcheck's wall clock, ms since the
/// UNIX epoch) and the parts of its answer the checker judges.
public struct LoadOperation: Sendable, Equatable {
    /// What the request did.
    public enum Kind: String, Sendable, Equatable, Codable, CaseIterable {
        case register, create, answer, end, get, events
    }

    public var kind: Kind
    public var callId: String
    /// The installation the request came from (answers, a callee's end), if any.
    public var installationId: String?
    /// The operationId it carried; a retry carries its original's.
    public var operationId: String?
    /// Whether this is a deliberate retry of an earlier request with the same operationId and body.
    public var isRetry: Bool
    /// The end reason asked for (end requests).
    public var reason: String?
    public var invokeMs: Int64
    public var completeMs: Int64
    /// The HTTP status; nil when no answer came (a connection error or a timeout).
    public var status: Int?
    /// The error code of a refusal (`call_already_answered`), or why no answer came.
    public var error: String?
    /// The call as the answer shows it: `state`, `revision`, and the answering installation.
    public var state: String?
    public var revision: Int64?
    public var winner: String?
    /// `expiresAtMs` the answer showed, if any.
    public var expiresAtMs: Int64?

    /// Creates a value from its parts.
    public init(
        kind: Kind, callId: String, installationId: String? = nil, operationId: String? = nil, isRetry: Bool = false,
        reason: String? = nil, invokeMs: Int64, completeMs: Int64, status: Int? = nil, error: String? = nil,
        state: String? = nil, revision: Int64? = nil, winner: String? = nil, expiresAtMs: Int64? = nil
    ) {
        self.expiresAtMs = expiresAtMs
        self.kind = kind
        self.callId = callId
        self.installationId = installationId
        self.operationId = operationId
        self.isRetry = isRetry
        self.reason = reason
        self.invokeMs = invokeMs
        self.completeMs = completeMs
        self.status = status
        self.error = error
        self.state = state
        self.revision = revision
        self.winner = winner
    }

    /// A 2xx answer.
    public var succeeded: Bool { status.map { (200..<300).contains($0) } ?? false }
}

/// One push a mock captured for a call of the run.
public struct LoadPush: Sendable, Equatable {
    /// The capture log's sequence number.
    public var sequence: Int
    public var callId: String
    /// The installation it went to (found by its token), or a redacted token.
    public var device: String
    /// `call.invited`, `call.ended`, …
    public var type: String
    public var eventId: String?
    public var revision: Int64?
    /// When the backend says it built the push (the payload's `issuedAtMs`), if it says.
    public var issuedAtMs: Int64?
    /// When the mock received it.
    public var arrivalMs: Int64
    /// Whether the mock accepted it (a rejected push was not delivered).
    public var accepted: Bool

    /// Creates a value from its parts.
    public init(
        sequence: Int, callId: String, device: String, type: String, eventId: String? = nil, revision: Int64? = nil,
        issuedAtMs: Int64? = nil, arrivalMs: Int64, accepted: Bool = true
    ) {
        self.sequence = sequence
        self.callId = callId
        self.device = device
        self.type = type
        self.eventId = eventId
        self.revision = revision
        self.issuedAtMs = issuedAtMs
        self.arrivalMs = arrivalMs
        self.accepted = accepted
    }

    public var isInvitation: Bool { type == "call.invited" }
}

/// One entry a feed returned: an event, or the feed saying events were lost (`gap: true`).
public enum FeedEntry: Sendable, Equatable {
    case event(FeedEvent)
    /// The page read at `atMs` said events were lost before it.
    case gap(atMs: Int64)
}

/// An event as a feed returned it.
public struct FeedEvent: Sendable, Equatable {
    public var eventId: String
    public var callId: String
    public var type: String
    public var revision: Int64?
    /// `answeredByInstallationId` of a `call.accepted`.
    public var answeredBy: String?
    public var reason: String?
    /// When the driver read it.
    public var readAtMs: Int64

    /// Creates a value from its parts.
    public init(
        eventId: String, callId: String, type: String, revision: Int64? = nil, answeredBy: String? = nil,
        reason: String? = nil, readAtMs: Int64 = 0
    ) {
        self.eventId = eventId
        self.callId = callId
        self.type = type
        self.revision = revision
        self.answeredBy = answeredBy
        self.reason = reason
        self.readAtMs = readAtMs
    }
}

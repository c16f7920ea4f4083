import Conformance
import JSON

// The steps the Callx profile adds: its call operations, its events feed and its call expiry.

// MARK: - Call requests

/// `create`: places a call to `callee`.
public struct CreateCallStep: DecodableStep, Equatable {
    public var actor: StepActor
    /// The callee's user name.
    public var callee: String
    /// A fresh UUID when nil.
    public var callId: JSONValue?
    /// A fresh key when nil; a literal is safe (users are fresh per scenario).
    public var operationId: JSONValue?
    public var video: Bool?
    /// Extra or replacing body fields.
    public var body: JSONValue?
    public var options: RequestOptions

    public static let keywords = ["create"]
    public var explanation: String? { "Places a call" }
    public static let isRequest = true

    public static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder)
        -> Self?
    {
        decoder.decodeCreate(node, path)
    }

    /// A video call needs a target that declares `videoCalls`.
    public func notApplicableReason(on target: Target) -> String? {
        video == true && !target.supportsVideo
            ? "creates a video call, and the target does not declare videoCalls" : nil
    }

    public func request(with context: isolated any RunContext) throws -> (PreparedRequest, RequestOptions)? {
        (try context.createRequest(self), options)
    }

    public func perform(_ step: ScenarioStep, with context: isolated any RunContext) async throws {
        let request = try context.createRequest(self)
        let exchange = await context.send(request)
        context.observeCreate(request, exchange)
        if context.acceptsRefusalForGoneTokens(exchange, request, self) { return }
        try context.judge(exchange, options, step: step, inRace: false)
    }
}

/// `answer`: answers a call from a device (or a user's installation).
public struct AnswerCallStep: DecodableStep, Equatable {
    public var actor: StepActor
    public var call: JSONValue
    public var operationId: JSONValue?
    public var expectedRevision: JSONValue?
    /// Sends this installation ID instead of the device's own (wrong-installation checks).
    public var installationId: JSONValue?
    public var body: JSONValue?
    public var options: RequestOptions

    public static let keywords = ["answer"]
    public var explanation: String? { "Answers the call" }
    public static let isRequest = true

    public static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder)
        -> Self?
    {
        decoder.decodeAnswer(node, path)
    }

    public func request(with context: isolated any RunContext) throws -> (PreparedRequest, RequestOptions)? {
        (try context.answerRequest(self), options)
    }

    public func perform(_ step: ScenarioStep, with context: isolated any RunContext) async throws {
        try await context.sendAndJudge(try context.answerRequest(self), options, step: step)
    }
}

/// `end`: ends (cancels, declines, hangs up) a call.
public struct EndCallStep: DecodableStep, Equatable {
    public var actor: StepActor
    public var call: JSONValue
    public var operationId: JSONValue?
    public var reason: JSONValue?
    public var body: JSONValue?
    public var options: RequestOptions

    public static let keywords = ["end"]
    public var explanation: String? { "Ends the call" }
    public static let isRequest = true

    public static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder)
        -> Self?
    {
        decoder.decodeEnd(node, path)
    }

    public func request(with context: isolated any RunContext) throws -> (PreparedRequest, RequestOptions)? {
        (try context.endRequest(self), options)
    }

    public func perform(_ step: ScenarioStep, with context: isolated any RunContext) async throws {
        try await context.sendAndJudge(try context.endRequest(self), options, step: step)
    }
}

/// `get` and `mediaSession`: one call, no body.
public struct CallRequestStep: DecodableStep, Equatable {
    /// `get` or `mediaSession`.
    public var keyword: String
    public var actor: StepActor
    public var call: JSONValue
    public var options: RequestOptions

    public static let keywords = ["get", "mediaSession"]
    public var explanation: String? { keyword == "get" ? "Reads the call's state" : "Asks for a media session" }
    public static let isRequest = true

    public static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder)
        -> Self?
    {
        decoder.decodeCallRead(keyword, node, path)
    }

    public func request(with context: isolated any RunContext) throws -> (PreparedRequest, RequestOptions)? {
        (try context.callRequest(self), options)
    }

    public func perform(_ step: ScenarioStep, with context: isolated any RunContext) async throws {
        try await context.sendAndJudge(try context.callRequest(self), options, step: step)
    }
}

// MARK: - The events feed

/// `pollEvents`: reads the actor's feed (drained by default) and judges it as one response.
public struct PollEventsStep: DecodableStep, Equatable {
    public var actor: StepActor
    public var cursor: JSONValue?
    /// Follow `next` cursors until the feed is drained (default true).
    public var drain: Bool
    public var options: RequestOptions

    public static let keywords = ["pollEvents"]
    public var explanation: String? { "Polls the event stream" }
    public static let isRequest = true

    public static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder)
        -> Self?
    {
        decoder.decodePollEvents(node, path)
    }
    public var feedReaders: [String] { actor.userName.map { [$0] } ?? [] }

    public func perform(_ step: ScenarioStep, with context: isolated any RunContext) async throws {
        try await context.pollEvents(self, step: step)
    }
}

/// Waits for a matching event not consumed by an earlier `expectEvent` to reach the actor, then consumes it.
public struct ExpectEventStep: DecodableStep, Equatable {
    public var actor: StepActor
    public var type: String
    public var call: JSONValue?
    public var within: ScenarioDuration
    public var match: [PathMatcher]
    public var save: String?
    public var requirement: String?

    public static let keywords = ["expectEvent"]
    public var explanation: String? { "Waits for an event" }

    public static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder)
        -> Self?
    {
        decoder.decodeEventExpectation(false, node, path) as? Self
    }
    public var feedReaders: [String] { actor.userName.map { [$0] } ?? [] }

    public func perform(_ step: ScenarioStep, with context: isolated any RunContext) async throws {
        try await context.expectEvent(self, step: step)
    }
}

/// Fails when a matching event that no earlier `expectEvent` consumed is seen, already or during `duration`.
public struct ExpectNoEventStep: DecodableStep, Equatable {
    public var actor: StepActor
    public var type: String?
    public var call: JSONValue?
    public var duration: ScenarioDuration
    public var match: [PathMatcher]
    public var requirement: String?

    public static let keywords = ["expectNoEvent"]
    public var explanation: String? { "Checks that no such event arrives" }

    public static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder)
        -> Self?
    {
        decoder.decodeEventExpectation(true, node, path) as? Self
    }
    public var feedReaders: [String] { actor.userName.map { [$0] } ?? [] }

    public func perform(_ step: ScenarioStep, with context: isolated any RunContext) async throws {
        try await context.expectNoEvent(self, step: step)
    }
}

/// Creates and cancels one call more than the target's declared event retention, so that the
/// callee's feed has had more events than the backend keeps (each cancelled call is at least one
/// event for the callee).
public struct OverflowEventsStep: DecodableStep, Equatable {
    /// Who places the calls.
    public var actor: StepActor
    /// The user whose feed overflows.
    public var callee: String

    public static let keywords = ["overflowEvents"]
    public var explanation: String? { "Fills the event queue past its limit" }

    public static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder)
        -> Self?
    {
        decoder.decodeOverflowEvents(node, path)
    }

    public func perform(_ step: ScenarioStep, with context: isolated any RunContext) async throws {
        try await context.overflowEvents(self, step: step)
    }
}

// MARK: - Expiry

/// Waits until the saved call's `expiresAtMs` (and a margin) has passed.
public struct WaitUntilExpiryStep: DecodableStep, Equatable {
    public var call: JSONValue
    /// Extra wait after `expiresAtMs` (default 500ms).
    public var margin: ScenarioDuration

    public static let keywords = ["waitUntilExpiry"]
    public var explanation: String? { "Waits until the unanswered call expires" }

    public static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder)
        -> Self?
    {
        decoder.decodeWaitUntilExpiry(node, path)
    }
    /// A short ring (the calls that scenarios wait out are made with `shortRing`) and the margin.
    public var expectedWaitMs: Int { Target.shortRingSeconds * 1000 + margin.milliseconds }

    public func perform(_ step: ScenarioStep, with context: isolated any RunContext) async throws {
        let call = try context.resolver.resolve(self.call)
        guard let expires = call["expiresAtMs"]?.epochMsValue else {
            throw HarnessStop(message: "\(step.path): the saved call has no integer expiresAtMs")
        }
        // In Double: a backend's absurd expiresAtMs must not trap; the scenario's time limit bounds the wait.
        let waitMs = Double(expires) + Double(margin.milliseconds) - Double(context.nowMs)
        if waitMs > 0 { try await Task.sleep(for: .milliseconds(Int64(min(waitMs, 86_400_000)))) }
    }
}

import Foundation
import PushMocks

/// A `MockStack` on ephemeral ports with its files in a temporary directory, and independent clients
/// pointed at it. One per test: fault plans and captures are then the test's own.
public final class MockStackHarness: Sendable {
    public let stack: MockStack
    public let directory: TemporaryDirectory
    public let clients: MockStackClients

    /// Starts the mocks (APNs production and sandbox, FCM + OAuth, control API), with `configure`'s changes.
    public init(configure: (inout MockStack.Options) -> Void = { _ in }) throws {
        directory = TemporaryDirectory(prefix: "ringcheck-mockstack")
        var options = MockStack.Options.forTests
        options.stateDirectory = directory.file("state")
        configure(&options)
        stack = try MockStack.start(options)
        clients = MockStackClients(settings: stack.settings, scratch: directory)
    }

    /// Starts the mocks on a thread of its own: key generation (RSA) would otherwise hold a thread of
    /// the cooperative pool that the mocks' handlers and other tests need.
    public static func start(
        configure: @escaping @Sendable (inout MockStack.Options) -> Void = { _ in }
    ) async throws -> MockStackHarness {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try MockStackHarness(configure: configure) }) }
        }
    }

    deinit { stack.stop() }

    public var settings: MockSettings { stack.settings }
    public var log: CaptureLog { stack.log }

    /// Milliseconds since the UNIX epoch, for bracketing capture arrival times.
    public static func nowMs() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}

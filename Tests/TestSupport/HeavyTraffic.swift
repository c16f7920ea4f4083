import Testing

/// A trait for tests that load the machine on their own (tens of thousands of requests, thousands of
/// connections, hundreds of processes): such tests take turns, one at a time in the test process, so
/// that beside the hundreds of other tests that start at once they do not starve them (a run beside two
/// busy loops saw older tests' 60 s waits run out while every heavy suite ran at the same time).
///
/// ```swift
/// @Suite(.heavyTraffic) struct MockStackLongConnectionTests {
///     @Test func twentyThousandPushes() async throws { … }   // waits its turn, then runs alone among them
/// }
/// ```
public struct HeavyTraffic: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// Only each test case waits its turn; the suite itself and a test function around its cases do not.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { testCase == nil ? nil : self }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await Self.gate.exclusive { try await function() }
    }

    static let gate = ExclusiveGate()
}

extension Trait where Self == HeavyTraffic {
    /// The test (or every test of the suite) loads the machine on its own: one such test case at a time.
    public static var heavyTraffic: Self { Self() }
}

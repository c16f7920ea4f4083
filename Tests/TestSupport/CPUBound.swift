import HTTP
import Testing

/// A trait for tests whose work is long stretches of computation without a suspension (parsing hundreds
/// of mutated files, growth measurements, fuzzing): each test case runs on threads of its own
/// (`CPUBound.executor`, through the task executor preference) instead of Swift's cooperative pool.
///
/// The pool has as many threads as cores, two in CI, and every test of the run starts on it at once; a
/// test that computes for seconds holds a pool thread all that time, and the waits of other tests
/// (a readiness probe, a 20 ms poll, a scenario's in-flight margin) resume only behind it: stack samples
/// of a full run's first minute showed both pool threads in YAML parsing and fuzzing, and tests whose
/// 30 s waits ran out. On threads of their own such tests are time-sliced by the kernel like any other
/// thread, so they slow the rest down in proportion instead of stopping it.
///
/// ```swift
/// @Suite(.cpuBound) struct YAMLLoaderFuzzTests {
///     @Test func mutatedTargetFilesLoadOrFailWithALocation() throws { … }   // runs on "rc-test-cpu"
/// }
/// ```
public struct CPUBound: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// Only each test case moves; the suite itself and a test function around its cases do not.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { testCase == nil ? nil : self }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(Self.executor) { try await function() }
    }

    /// Two threads shared by every such test: they take at most two cores' worth of turns from the kernel
    /// whatever their number, and a test that waits on another one's work cannot deadlock on one thread.
    public static let executor = HandlerExecutor(threads: 2, name: "rc-test-cpu")
}

extension Trait where Self == CPUBound {
    /// The test (or every test of the suite) computes for long stretches: it runs off the cooperative pool.
    public static var cpuBound: Self { Self() }
}

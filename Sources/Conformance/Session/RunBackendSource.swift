/// Where a `RunSession`'s backend comes from: the caller's way of starting the backend under test and
/// the mocks it pushes to (the `ringcheck` CLI has two: a target file's backend, through its lifecycle,
/// and a profile's embedded reference kit). The session starts it once, after its cleanup is armed;
/// whatever `start` starts must be stopped by that same cleanup (the source is built with it), also
/// when `start` throws half way.
///
/// ```swift
/// struct FixedBackend: RunBackendSource {
///     let target: Target
///     let cleanup: RecordingCleanup
///     var unstartedTargetName: String { target.name }
///
///     func start() async throws -> RunBackend {
///         let mocks = try await MockStack.start(MockStack.Options())
///         await cleanup.add { await mocks.stop() }
///         return RunBackend(target: target, mocks: mocks)
///     }
///     func failureCause(_ error: any Error) -> String { "cannot start the mocks: \(error)" }
/// }
/// ```
public protocol RunBackendSource: Sendable {
    /// The target the reports name when `start` failed (the run stopped before any scenario).
    var unstartedTargetName: String { get }
    /// Starts the backend and its mocks; an error makes the run inconclusive (exit 3), its reports written
    /// with `failureCause(error)`.
    func start() async throws -> RunBackend
    /// What the inconclusive run's reports and standard error say when `start` threw `error`.
    func failureCause(_ error: any Error) -> String
}

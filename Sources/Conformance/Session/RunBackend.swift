import PushMocks

/// What a run tests: a target with the mocks its pushes reach (both stopped by the run's cleanup).
public struct RunBackend: Sendable {
    public let target: Target
    public let mocks: MockStack
    /// Most scenarios the target can run at once (its pool of fixed accounts), nil for no limit.
    public var maxConcurrency: Int?
    /// The backend's lifecycle when ringcheck started it (`ringcheck load` watches its CPU and memory).
    public var lifecycle: BackendLifecycle?
    /// A second instance of the backend for the scenarios that must run alone, run beside the others
    /// (the embedded reference's, or a target file's with `lifecycle.instances: 2`); nil: they run alone
    /// after the others.
    public var restartTarget: Target?

    public init(
        target: Target, mocks: MockStack, maxConcurrency: Int? = nil, lifecycle: BackendLifecycle? = nil,
        restartTarget: Target? = nil
    ) {
        self.target = target
        self.mocks = mocks
        self.maxConcurrency = maxConcurrency
        self.lifecycle = lifecycle
        self.restartTarget = restartTarget
    }
}

import PushMocks

extension CaptureLog {
    /// Waits until the mocks have captured nothing for `quiet` (pushes still in flight arrive), at most `limit`:
    /// how a load workload settles after its last unit.
    ///
    /// ```swift
    /// public func settle() async { await mocks?.log.waitUntilQuiet() }
    /// ```
    public func waitUntilQuiet(for quiet: Duration = .seconds(1), limit: Duration = .seconds(10)) async {
        var last = lastSequence
        var quietSince = ContinuousClock.now
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline && ContinuousClock.now - quietSince < quiet {
            try? await Task.sleep(for: .milliseconds(100))
            let now = lastSequence
            if now != last {
                last = now
                quietSince = .now
            }
        }
    }
}

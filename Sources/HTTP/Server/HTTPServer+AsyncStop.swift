import Foundation

extension HTTPServer {
    /// Stops the server as `stop()` does, for async code: the same shutdown, waited for on a thread of its
    /// own so that no thread of the cooperative pool is held meanwhile.
    ///
    /// `stop()` blocks its caller until the loops have drained: up to `shutdownGraceSeconds` (1 s by default)
    /// while a request is in flight, and as long again as the loop threads wait for a core on a busy
    /// machine. Two such stops on the pool take every thread of a 2-core machine, and a stack stops several
    /// servers in turn.
    public func stop() async {
        await onThreadOfItsOwn { self.stop() }
    }
}

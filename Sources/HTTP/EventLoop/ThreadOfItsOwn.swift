import Foundation

/// Runs blocking work (a C call that takes long, a wait for threads or a child process) on a fresh thread
/// and returns its result, so that no thread of the cooperative pool is held meanwhile: the pool has as
/// many threads as the machine has cores, and a thread blocked there is not replaced.
public func onThreadOfItsOwn<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T
{
    let result: Result<T, E> = await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: Result { () throws(E) -> T in try body() }) }.start()
    }
    return try result.get()
}

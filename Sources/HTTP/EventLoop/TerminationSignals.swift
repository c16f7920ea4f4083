import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// SIGINT and SIGTERM caught from the moment `install()` returns, and awaited later.
///
/// A long-running server installs it before it announces itself (the settings files of `ringcheck
/// mocks`): a supervisor that signals as soon as those appear must get a clean stop, not the default
/// action (killed by the signal) and not a dropped signal. A plain `sigaction` handler writes the signal
/// number to a pipe (the self-pipe trick: `write` is async-signal-safe) and `wait()` reads it on a thread
/// of its own, never on the cooperative pool.
public enum TerminationSignals {
    /// The pipe's ends. Set once by `install()` before any handler can run; read by the handler.
    nonisolated(unsafe) private static var readFD: Int32 = -1
    nonisolated(unsafe) private static var writeFD: Int32 = -1

    /// Starts catching SIGINT and SIGTERM; a signal that arrives before `wait()` is kept for it.
    public static func install() throws(HTTPServerError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw HTTPServerError(
                operation: "pipe", code: Int(errno),
                message: "cannot catch signals: \(String(cString: strerror(errno)))")
        }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        // A handler must never block: with the pipe full, further signals are dropped (one is enough).
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        readFD = fds[0]
        writeFD = fds[1]
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            var byte = UInt8(truncatingIfNeeded: signal)
            _ = write(TerminationSignals.writeFD, &byte, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for signal in [SIGINT, SIGTERM] { sigaction(signal, &action, nil) }
    }

    /// Waits for the first SIGINT or SIGTERM since `install()` and returns its number. Afterwards SIGINT
    /// has its default action again, so a second Ctrl-C ends a slow shutdown; further SIGTERMs stay
    /// caught, because supervisors (`timeout`, process-group kills) often deliver the same stop twice.
    public static func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            // A blocking read: on a thread of its own, never on the cooperative pool.
            Thread.detachNewThread {
                var byte: UInt8 = 0
                while read(readFD, &byte, 1) != 1 {
                    if errno != EINTR {
                        byte = UInt8(SIGTERM)
                        break
                    }
                }
                signal(SIGINT, SIG_DFL)
                continuation.resume(returning: Int32(byte))
            }
        }
    }
}

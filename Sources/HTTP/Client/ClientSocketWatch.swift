import CCurl
import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// What a libcurl multi handle asks its loop to watch: the sockets it names through
/// `CURLMOPT_SOCKETFUNCTION`, kept in one epoll set, and the one timer it sets through
/// `CURLMOPT_TIMERFUNCTION`; plus an eventfd in the same set that other threads write to wake the loop.
///
/// Waiting costs one `epoll_wait` however many connections are open, where `curl_multi_poll` built and
/// scanned a `poll` array of every connection on each wake-up.
///
/// ```swift
/// let watch = try ClientSocketWatch()
/// try watch.install(on: multi)          // before the first transfer is added
/// let ready = watch.wait(into: events, capacity: 256)
/// ```
final class ClientSocketWatch: @unchecked Sendable {
    // @unchecked: `wakeUp` (an eventfd write) may come from any thread; everything else happens on the
    // loop thread, where libcurl runs the callbacks, or in the owner's deinit once that thread is gone.
    private let epollFD: Int32
    private let wakeFD: Int32
    /// The sockets in the epoll set and the events asked for each.
    private var watched: [Int32: UInt32] = [:]
    /// Sockets epoll refused (`epoll_ctl` failed for a reason other than a closed and reused number), with
    /// the events asked for: `wait` reports them ready every round, waiting at most `unwatchedPollMs`, so
    /// their transfers still move instead of sitting out their timeout unseen.
    private var unwatched: [Int32: UInt32] = [:]
    /// When libcurl wants `curl_multi_socket_action(CURL_SOCKET_TIMEOUT)` next (monotonic ms); nil: no timer.
    private(set) var deadlineMs: Int64?

    /// The epoll token of the wake-up eventfd (sockets use their descriptor, never negative).
    static let wakeToken = UInt64.max
    /// The longest wait without a wake-up, a socket event or a timer: a safety net, never needed.
    static let longestWaitMs: Int64 = 1000
    /// The longest wait while a socket epoll refused is open (see `unwatched`).
    static let unwatchedPollMs: Int64 = 10

    init() throws(ClientError) {
        let ep = rc_epoll_create()
        guard ep >= 0 else { throw Self.failure("epoll_create1", errno) }
        let wake = rc_eventfd()
        guard wake >= 0 else {
            let code = errno
            close(ep)
            throw Self.failure("eventfd", code)
        }
        guard rc_epoll_ctl(ep, EPOLL_CTL_ADD, wake, EPOLLIN.rawValue, Self.wakeToken) == 0 else {
            let code = errno
            close(wake)
            close(ep)
            throw Self.failure("epoll_ctl", code)
        }
        epollFD = ep
        wakeFD = wake
    }

    deinit {
        close(wakeFD)
        close(epollFD)
    }

    /// Points `multi`'s socket and timer callbacks here. The caller keeps this object alive until
    /// `curl_multi_cleanup(multi)` has returned (libcurl calls back from it).
    func install(on multi: UnsafeMutableRawPointer) throws(ClientError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let codes = [
            rc_curl_multi_setopt_socket(multi, clientSocketChanged),
            rc_curl_multi_setopt_ptr(multi, CURLMOPT_SOCKETDATA, context),
            rc_curl_multi_setopt_timer(multi, clientTimerChanged),
            rc_curl_multi_setopt_ptr(multi, CURLMOPT_TIMERDATA, context),
        ]
        if let failed = codes.first(where: { $0 != CURLM_OK }) {
            throw ClientError(multiCode: failed, url: "", operation: "curl_multi_setopt(socket and timer callbacks)")
        }
    }

    // MARK: Any thread

    /// Makes a `wait` in progress (or the next one) return at once.
    func wakeUp() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    // MARK: Loop thread

    /// Waits until a watched socket is ready, the timer is due or `wakeUp` was called, and returns how
    /// many entries of `events` were filled (0 on a timeout or an interrupted wait). A wake-up is
    /// consumed here and left out of the count. Sockets epoll refused are reported ready with the events
    /// asked for, after a wait of at most `unwatchedPollMs`.
    func wait(into events: UnsafeMutablePointer<epoll_event>, capacity: Int) -> Int {
        var timeout = unwatched.isEmpty ? Self.longestWaitMs : Self.unwatchedPollMs
        if let deadlineMs { timeout = max(0, min(timeout, deadlineMs - rc_monotonic_ms())) }
        let n = Int(rc_epoll_wait(epollFD, events, Int32(capacity), Int32(timeout)))
        var kept = 0
        for i in 0..<max(0, n) {
            if events[i].data.u64 == Self.wakeToken {
                var drained: UInt64 = 0
                _ = read(wakeFD, &drained, 8)
            } else {
                events[kept] = events[i]
                kept += 1
            }
        }
        for (socket, asked) in unwatched where kept < capacity {
            events[kept].events = asked
            events[kept].data.u64 = Self.token(socket)
            kept += 1
        }
        return kept
    }

    /// True once the timer is due; clears it (libcurl sets the next one while it runs its timeouts).
    func takeDueTimer() -> Bool {
        guard let deadlineMs, deadlineMs <= rc_monotonic_ms() else { return false }
        self.deadlineMs = nil
        return true
    }

    /// Sets the timer as `CURLMOPT_TIMERFUNCTION` or `curl_multi_timeout` gives it: -1 for none, else
    /// milliseconds from now.
    func setTimer(afterMs ms: Int) {
        deadlineMs = ms < 0 ? nil : rc_monotonic_ms() + Int64(ms)
    }

    /// The `CURL_CSELECT_*` bits for a socket's epoll `flags`.
    static func curlEvents(_ flags: UInt32) -> Int32 {
        var bits: Int32 = 0
        if flags & EPOLLIN.rawValue != 0 { bits |= CURL_CSELECT_IN }
        if flags & EPOLLOUT.rawValue != 0 { bits |= CURL_CSELECT_OUT }
        if flags & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 { bits |= CURL_CSELECT_ERR }
        return bits
    }

    /// Puts `socket` in the epoll set for `what` (`CURL_POLL_*`), or takes it out.
    fileprivate func watch(_ socket: Int32, _ what: Int32) {
        if what == CURL_POLL_REMOVE {
            forget(socket)
        } else {
            watch(socket, reading: what & CURL_POLL_IN != 0, writing: what & CURL_POLL_OUT != 0)
        }
    }

    /// Watches `socket` for reading and/or writing (neither: only errors and hang-ups), replacing what
    /// was asked for it before.
    func watch(_ socket: Int32, reading: Bool, writing: Bool) {
        var events: UInt32 = 0
        if reading { events |= EPOLLIN.rawValue }
        if writing { events |= EPOLLOUT.rawValue }
        unwatched.removeValue(forKey: socket)
        let known = watched.removeValue(forKey: socket) != nil
        if register(socket, events, known: known) {
            watched[socket] = events
        } else {
            unwatched[socket] = events
        }
    }

    /// Stops watching `socket`.
    func forget(_ socket: Int32) {
        unwatched.removeValue(forKey: socket)
        // libcurl says so before it closes the socket. Should it have been closed already, epoll dropped it
        // (ENOENT, EBADF), which is all this asks.
        if watched.removeValue(forKey: socket) != nil { _ = rc_epoll_ctl(epollFD, EPOLL_CTL_DEL, socket, 0, 0) }
    }

    /// Adds `socket` to the epoll set or changes its events; false when epoll will not have it.
    private func register(_ socket: Int32, _ events: UInt32, known: Bool) -> Bool {
        let token = Self.token(socket)
        if rc_epoll_ctl(epollFD, known ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, socket, events, token) == 0 { return true }
        // A closed socket leaves the set unnoticed and its number may come back (MOD: ENOENT), or the socket
        // is in the set though this watch had let go of it (ADD: EEXIST): the other operation is the one.
        let retry: Int32
        switch errno {
        case ENOENT: retry = EPOLL_CTL_ADD
        case EEXIST: retry = EPOLL_CTL_MOD
        default: return false
        }
        return rc_epoll_ctl(epollFD, retry, socket, events, token) == 0
    }

    /// A socket's epoll token: its descriptor, never `wakeToken`.
    static func token(_ socket: Int32) -> UInt64 { UInt64(UInt32(bitPattern: socket)) }

    private static func failure(_ call: String, _ code: Int32) -> ClientError {
        ClientError(
            kind: .other, message: "could not set up the client's event loop (\(call): errno \(code))", url: "",
            operation: call)
    }
}

// MARK: - C callbacks
// `context` is the `ClientSocketWatch`, which its `ClientMultiHandle` keeps until after `curl_multi_cleanup`.

private func clientSocketChanged(
    _ easy: UnsafeMutableRawPointer?, _ socket: curl_socket_t, _ what: Int32, _ context: UnsafeMutableRawPointer?,
    _ socketContext: UnsafeMutableRawPointer?
) -> Int32 {
    guard let context else { return -1 }
    Unmanaged<ClientSocketWatch>.fromOpaque(context).takeUnretainedValue().watch(socket, what)
    return 0
}

private func clientTimerChanged(
    _ multi: UnsafeMutableRawPointer?, _ timeoutMs: Int, _ context: UnsafeMutableRawPointer?
) -> Int32 {
    guard let context else { return -1 }
    Unmanaged<ClientSocketWatch>.fromOpaque(context).takeUnretainedValue().setTimer(afterMs: timeoutMs)
    return 0
}

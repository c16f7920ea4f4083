import CLinux
import Glibc
import Synchronization

/// A complete request on its way to the handler.
struct PendingDispatch: Sendable {
    var request: HTTPRequest
    var connectionID: UInt64
    var token: Int64
}

/// Process-wide connection numbering for `ConnectionInfo.id`.
let connectionCounter = Atomic<UInt64>(1)

/// One epoll loop on its own thread: it owns a listening socket and every connection accepted on it,
/// with their `SSL*` and nghttp2 sessions.
// @unchecked Sendable: all mutable state is touched only on the loop thread; `inbox` is Sendable.
final class EventLoop: @unchecked Sendable {
    let configuration: HTTPServer.Configuration
    let handler: any HTTPHandler
    let tls: TLSContext?
    /// What connections present inside accepted `CONNECT` tunnels (`Configuration.connectTunnel`).
    let tunnelTLS: TLSContext?
    let inbox: LoopInbox
    let localPort: Int
    /// `requestHeadTimeoutSeconds` in milliseconds.
    let headTimeoutMs: Int64
    /// `requestBodyTimeoutSeconds` and `requestBodyReadTimeoutSeconds` in milliseconds.
    let bodyTimeoutMs: Int64
    let bodyReadTimeoutMs: Int64
    private let epollFD: Int32
    private var listenFD: Int32
    @exclusivity(unchecked) private var connections: [UInt64: Connection] = [:]
    @exclusivity(unchecked) private var stopping = false
    private var stopDeadline: Int64 = 0
    private var thread: pthread_t?
    /// Scratch space for socket reads and TLS decryption, reused for every connection.
    let readBuffer: UnsafeMutableRawBufferPointer
    let plainBuffer: UnsafeMutableRawBufferPointer
    /// Connections that produced output or changed state during the current batch of events.
    @exclusivity(unchecked) private var dirty: [Connection] = []
    /// Complete requests waiting to be handed to the handler at the end of this iteration.
    @exclusivity(unchecked) private var pendingDispatches: [PendingDispatch] = []

    /// The listener's connection count, shared with its other loops.
    private let budget: ConnectionBudget
    /// A descriptor kept open to be closed when the process runs out (EMFILE), so the newest
    /// connection can be accepted and shed instead of waiting in the backlog (as libev and nginx do).
    /// One for the whole process: a process with hundreds of loops (a test run) kept one per loop, a
    /// fifth of its descriptors.
    private static let spare = Mutex<Int32>(open("/dev/null", O_RDONLY | O_CLOEXEC))
    /// While set, the listener is out of epoll: descriptors ran out, and accepting would fail again.
    @exclusivity(unchecked) private var acceptPausedUntil: Int64?
    /// How long the listener rests after running out of descriptors.
    static let acceptPauseMs: Int64 = 100

    private static let listenToken: UInt64 = 0
    private static let wakeToken: UInt64 = 1

    init(
        configuration: HTTPServer.Configuration, handler: any HTTPHandler, tls: TLSContext?,
        tunnelTLS: TLSContext? = nil,
        listenFD: Int32, budget: ConnectionBudget
    ) throws {
        self.budget = budget
        self.headTimeoutMs = Self.milliseconds(configuration.requestHeadTimeoutSeconds)
        self.bodyTimeoutMs = Self.milliseconds(configuration.requestBodyTimeoutSeconds)
        self.bodyReadTimeoutMs = Self.milliseconds(configuration.requestBodyReadTimeoutSeconds)
        _ = Self.spare.withLock { $0 }  // opened now, while descriptors are left, not when they ran out
        self.configuration = configuration
        self.handler = handler
        self.immediateHandler = handler as? any HTTPImmediateHandler
        self.tls = tls
        self.tunnelTLS = tunnelTLS
        self.listenFD = listenFD
        self.localPort = Int(rc_local_port(listenFD))
        let ep = rc_epoll_create()
        guard ep >= 0 else { throw HTTPServerError.posix("epoll_create1", errno) }
        let wake = rc_eventfd()
        guard wake >= 0 else {
            close(ep)
            throw HTTPServerError.posix("eventfd", errno)
        }
        epollFD = ep
        inbox = LoopInbox(wakeFD: wake)
        readBuffer = .allocate(byteCount: 64 * 1024, alignment: 16)
        plainBuffer = .allocate(byteCount: 64 * 1024, alignment: 16)
        _ = rc_epoll_ctl(ep, EPOLL_CTL_ADD, listenFD, EPOLLIN.rawValue, Self.listenToken)
        _ = rc_epoll_ctl(ep, EPOLL_CTL_ADD, wake, EPOLLIN.rawValue, Self.wakeToken)
    }

    /// A configured timeout in milliseconds, within 0 s and 10⁹ s (NaN counts as 0).
    static func milliseconds(_ seconds: Double) -> Int64 {
        Int64(max(0, min(seconds.isNaN ? 0 : seconds, 1e9)) * 1000)
    }

    deinit {
        if listenFD >= 0 { close(listenFD) }
        close(epollFD)
        readBuffer.deallocate()
        plainBuffer.deallocate()
    }

    // MARK: Thread

    func start() throws {
        var t = pthread_t()
        let box = Unmanaged.passRetained(self).toOpaque()
        let rc = pthread_create(
            &t, nil,
            { arg in
                let loop = Unmanaged<EventLoop>.fromOpaque(arg!).takeRetainedValue()
                loop.run()
                return nil
            }, box)
        guard rc == 0 else {
            Unmanaged<EventLoop>.fromOpaque(box).release()
            throw HTTPServerError.posix("pthread_create", rc)
        }
        thread = t
    }

    /// Asks the loop to shut down and waits for its thread to end.
    func stopAndJoin() {
        inbox.post(.stop)
        if let t = thread {
            pthread_join(t, nil)
            thread = nil
        }
    }

    // MARK: Loop

    private func run() {
        let maxEvents = 256
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: maxEvents)
        defer { events.deallocate() }
        var lastSweep = rc_monotonic_ms()
        while true {
            // Requests read while answers were written (`readBeforeStampedAnswers` after an immediate answer, or a
            // pipelined request a delivered answer let through) wait for the next round: it comes at once.
            let timeout: Int32 = !pendingDispatches.isEmpty ? 0 : (stopping ? 20 : (hasShortTimers ? 10 : 250))
            let n = rc_epoll_wait(epollFD, events, Int32(maxEvents), timeout)
            if n < 0 && errno != EINTR { break }
            for i in 0..<max(0, Int(n)) {
                let token = events[i].data.u64
                let flags = events[i].events
                switch token {
                case Self.listenToken: acceptConnections()
                case Self.wakeToken: drainInbox()
                default:
                    guard let c = connections[token] else { continue }
                    c.handleEvents(flags)
                    markDirty(c)
                }
            }
            flushDirty()
            let now = rc_monotonic_ms()
            if let until = acceptPausedUntil, now >= until { resumeAccepting() }
            if now - lastSweep >= 10 {
                lastSweep = now
                sweepTimers(now: now)
            }
            flushDispatches()
            if stopping && (connections.isEmpty || now >= stopDeadline) { break }
        }
        for c in Array(connections.values) { c.abort() }
        connections.removeAll()
    }

    private var hasShortTimers: Bool { shortTimersPending || acceptPausedUntil != nil }
    /// True while some connection waits on a short deadline (abort after response, lingering close).
    @exclusivity(unchecked) var shortTimersPending = false

    func markDirty(_ c: Connection) {
        if !c.isDirty {
            c.isDirty = true
            dirty.append(c)
        }
    }

    private func flushDirty() {
        readBeforeStampedAnswers()
        while !dirty.isEmpty {
            // Two lists taking turns keep their capacity: work on a batch can mark more connections dirty.
            swap(&dirty, &dirtyBatch)
            for c in dirtyBatch {
                c.isDirty = false
                c.afterWork()
            }
            dirtyBatch.removeAll(keepingCapacity: true)
        }
    }

    /// The batch `flushDirty` works through (empty in between).
    @exclusivity(unchecked) private var dirtyBatch: [Connection] = []

    /// Reads what clients already sent, and accepts the connections they already opened, before an answer with
    /// an `AnswerStamp` is written: a request waiting on a socket (or a connection waiting in the backlog) when
    /// that answer leaves was sent before its client could have read it, so it must take its place in
    /// `ArrivalOrder` before the answer's stamp does. Without this, a second copy of a push that waited on the
    /// socket while the loop was busy was read (and ordered) after the refusal of the first was written: reuse
    /// of a token the client could not yet know was dead. One look, without waiting; only when such an answer
    /// is about to be written (a refusal, or an answer from off the loop).
    private func readBeforeStampedAnswers() {
        guard dirty.contains(where: \.holdsUnsentStamps) else { return }
        withUnsafeTemporaryAllocation(of: epoll_event.self, capacity: 64) { events in
            let n = rc_epoll_wait(epollFD, events.baseAddress!, Int32(events.count), 0)
            for i in 0..<max(0, Int(n)) {
                switch events[i].data.u64 {
                case Self.listenToken: acceptConnections()
                case Self.wakeToken: continue  // answers: the next round takes them
                case let token:
                    guard let c = connections[token] else { continue }
                    c.handleEvents(events[i].events)
                    markDirty(c)
                }
            }
        }
    }

    private func drainInbox() {
        for message in inbox.takeAll() {
            switch message {
            case .response(let id, let token, let response):
                // The connection may have gone away while the handler ran: drop the answer.
                guard let c = connections[id] else { continue }
                c.deliver(token: token, response)
                markDirty(c)
            case .stop:
                beginStop()
            }
        }
    }

    private func beginStop() {
        guard !stopping else { return }
        stopping = true
        stopDeadline = rc_monotonic_ms() + Int64(configuration.shutdownGraceSeconds * 1000)
        if listenFD >= 0 {
            _ = rc_epoll_ctl(epollFD, EPOLL_CTL_DEL, listenFD, 0, 0)
            close(listenFD)
            listenFD = -1
        }
        acceptPausedUntil = nil
        for c in Array(connections.values) {
            c.beginShutdown()
            markDirty(c)
        }
    }

    private func sweepTimers(now: Int64) {
        let idleMs = Int64(configuration.idleTimeoutSeconds * 1000)
        var short = false
        for c in Array(connections.values) {
            if c.checkTimers(now: now, idleMs: idleMs) { short = true }
            c.checkRequestDeadlines(now: now)
        }
        shortTimersPending = short
        flushDirty()
    }

    // MARK: Accepting

    private func acceptConnections() {
        for _ in 0..<64 {
            var storage = sockaddr_storage()
            var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd: Int32
            if let accept = configuration.acceptOverride {
                fd = accept(listenFD)
            } else {
                fd = withUnsafeMutablePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        rc_accept4(listenFD, $0, &len, Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue))
                    }
                }
            }
            if fd < 0 {
                let e = errno
                // Out of descriptors: the pending connection stays in the backlog and level triggering
                // would report it again at once, a loop at 100% CPU until connections close.
                if e == EMFILE || e == ENFILE { outOfDescriptors() }
                return  // EAGAIN, or a transient error such as ECONNABORTED
            }
            guard budget.take() || (shedOne() && budget.take()) else {
                close(fd)  // the listener is full of busy connections: refuse the newcomer, serve the others
                continue
            }
            _ = rc_setsockopt_int(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            var text = [CChar](repeating: 0, count: 64)
            let remote = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    rc_format_sockaddr($0, &text, UInt(text.count)) == 0
                        ? String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                        : "unknown"
                }
            }
            let id = connectionCounter.add(1, ordering: .relaxed).oldValue + 1
            var info = ConnectionInfo(id: id, remoteAddress: remote, localPort: localPort, isTLS: tls != nil)
            info.openedOrder = ArrivalOrder.next()
            var session: TLSSession?
            if let tls {
                session = TLSSession(context: tls)
                if session == nil {
                    close(fd)
                    budget.release()
                    continue
                }
            }
            let c = Connection(loop: self, fd: fd, info: info, tls: session, now: rc_monotonic_ms())
            connections[id] = c
            _ = rc_epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, EPOLLIN.rawValue, id)
            c.registeredEvents = EPOLLIN.rawValue
            if stopping { c.beginShutdown() }
        }
    }

    /// Connections to shed next when the listener is full, the one that made progress least recently last,
    /// each with its `progressMs` when chosen (one that moved since is passed over).
    @exclusivity(unchecked) private var shedQueue: [(connection: Connection, progressMs: Int64)] = []
    /// How many candidates one look through the connections picks.
    private static let shedBatch = 32

    /// Makes room for a newcomer at the listener's cap, as nginx frees idle keep-alive connections when
    /// its worker runs out: closes this loop's connection that made progress least recently (a request
    /// trickling in since longest, or the longest idle) among those nothing waits on the server for.
    /// False when every connection is busy.
    private func shedOne() -> Bool {
        for refilled in [false, true] {
            if refilled {
                let candidates = connections.values.filter(\.canBeShed).map { ($0, $0.progressMs) }
                shedQueue = Array(candidates.sorted { $0.1 > $1.1 }.suffix(Self.shedBatch))
            }
            while let next = shedQueue.popLast() {
                let c = next.connection
                guard !c.isClosed, c.progressMs == next.progressMs, c.canBeShed else { continue }
                c.shed()
                return true
            }
        }
        return false
    }

    /// Sheds the newest connection with the spare descriptor and takes the listener out of epoll
    /// for `acceptPauseMs`.
    private func outOfDescriptors() {
        Self.spare.withLock { spare in
            if spare >= 0 {
                close(spare)
                let shed = rc_accept4(listenFD, nil, nil, Int32(SOCK_CLOEXEC.rawValue))
                if shed >= 0 { close(shed) }
            }
            spare = open("/dev/null", O_RDONLY | O_CLOEXEC)  // -1 while still out: tried again next time
        }
        guard acceptPausedUntil == nil, listenFD >= 0 else { return }
        _ = rc_epoll_ctl(epollFD, EPOLL_CTL_DEL, listenFD, 0, 0)
        acceptPausedUntil = rc_monotonic_ms() + Self.acceptPauseMs
    }

    private func resumeAccepting() {
        acceptPausedUntil = nil
        guard listenFD >= 0 else { return }
        _ = rc_epoll_ctl(epollFD, EPOLL_CTL_ADD, listenFD, EPOLLIN.rawValue, Self.listenToken)
    }

    // MARK: Services for connections

    func updateInterest(_ c: Connection, _ events: UInt32) {
        guard c.registeredEvents != events else { return }
        c.registeredEvents = events
        _ = rc_epoll_ctl(epollFD, EPOLL_CTL_MOD, c.fd, events, c.info.id)
    }

    func removeConnection(_ c: Connection) {
        if connections.removeValue(forKey: c.info.id) != nil { budget.release() }
    }

    /// Queues a request for the handler; `flushDispatches` starts the tasks at the end of the iteration.
    func dispatch(_ request: consuming HTTPRequest, connectionID: UInt64, token: Int64) {
        pendingDispatches.append(PendingDispatch(request: request, connectionID: connectionID, token: token))
    }

    /// Starts one task per request on the handler executor (`HandlerExecutor`, threads of the server's
    /// own rather than the global cooperative pool, which other code in the process can starve);
    /// answers come back through the inbox.
    ///
    /// The per-request tasks are created from one batch task on the executor rather than here: a task
    /// allocated on this thread and freed on an executor thread makes glibc's malloc take the arena
    /// lock of this thread, and that contention cost more than everything else per request.
    private func flushDispatches() {
        guard !pendingDispatches.isEmpty else { return }
        // Answering can queue more requests (a delivered response lets a connection read on), so the
        // batch moves to a second list; both keep their capacity from one iteration to the next.
        swap(&pendingDispatches, &dispatchBatch)
        let all: [PendingDispatch]
        if let immediateHandler {
            all = answerImmediately(dispatchBatch, immediateHandler)
            dispatchBatch.removeAll(keepingCapacity: true)
            if all.isEmpty { return }
        } else {
            all = dispatchBatch
            dispatchBatch = []
        }
        let handler = self.handler
        let inbox = self.inbox
        let executor = configuration.handlerExecutor
        // Chunks keep handlers that compute without suspending from queueing behind each other
        // on one executor thread while another thread idles.
        var start = 0
        while start < all.count {
            let batch = Array(all[start..<min(start + Self.dispatchChunk, all.count)])
            start += Self.dispatchChunk
            Task(executorPreference: executor) {
                for item in batch {
                    // Runs on this executor thread until the handler first suspends: a handler that
                    // answers at once costs no enqueue and no thread wake-up; one that waits frees the
                    // thread, and resumes on the executor.
                    Task.immediate(executorPreference: executor) {
                        // A request whose client left while it waited here is not worth computing: the
                        // connection drops whatever is delivered for it.
                        let response =
                            item.request.isAbandoned ? HTTPResponse.abandoned : await handler.handle(item.request)
                        inbox.post(.response(connectionID: item.connectionID, token: item.token, response))
                    }
                }
            }
        }
    }

    private static let dispatchChunk = 16

    /// The batch `flushDispatches` works through (empty in between).
    @exclusivity(unchecked) private var dispatchBatch: [PendingDispatch] = []

    /// The handler when it can answer on this thread (cast once: a dynamic cast per batch adds up).
    private let immediateHandler: (any HTTPImmediateHandler)?

    /// Tells the handler that connection `id` refused `count` streams (`HTTPImmediateHandler.streamsRefused`).
    func streamsRefused(_ count: Int, connectionID id: UInt64) {
        immediateHandler?.streamsRefused(count, connectionID: id)
    }

    /// Delivers what `handler` answers at once and returns the requests it left for the pool.
    private func answerImmediately(
        _ items: [PendingDispatch], _ handler: any HTTPImmediateHandler
    ) -> [PendingDispatch] {
        var rest: [PendingDispatch] = []
        // A connection's requests come in runs: the one found last is checked before the dictionary.
        var last: Connection?
        // Walked in place: iterating the array copied each item, a retain and a release of every
        // string and list in its request.
        items.withUnsafeBufferPointer { items in
            for i in items.indices {
                let id = items[i].connectionID
                guard let response = handler.respondImmediately(to: items[i].request) else {
                    if let directive = handler.directiveOnArrival(of: items[i].request), let c = connections[id] {
                        c.apply(onArrival: directive)
                        markDirty(c)
                    }
                    rest.append(items[i])
                    continue
                }
                // As `drainInbox` does for answers from the pool; the connection may be gone.
                if last == nil || last!.info.id != id || last!.isClosed { last = connections[id] }
                guard let c = last else { continue }
                c.deliver(token: items[i].token, response)
                markDirty(c)
            }
        }
        flushDirty()
        return rest
    }
}

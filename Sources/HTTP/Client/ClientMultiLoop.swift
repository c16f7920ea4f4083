import CCurl
import CLinux
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One dedicated thread driving a libcurl multi handle through its socket interface: it adds submitted
/// transfers, tells libcurl which socket became ready (`curl_multi_socket_action`) or that its timer is
/// due, hands finished transfers back, and sleeps in one `epoll_wait` (`ClientSocketWatch`) until a
/// socket is ready, the timer is due, or a submission wakes it.
///
/// Only the sockets that are ready cost work on a wake-up: with `curl_multi_perform` and
/// `curl_multi_poll`, libcurl went over every open connection each time.
///
/// Callers never block: they submit a batch and are resumed through a continuation.
final class ClientMultiLoop: @unchecked Sendable {
    // @unchecked: `multi` is driven only on the loop thread (apart from `wakeUp`, an eventfd write);
    // `attached` is loop-thread only; `inbox` is a Mutex; `thread` is
    // written once in init.
    private let multi: ClientMultiHandle
    private let inbox = Mutex(Inbox())
    private var attached: [UnsafeMutableRawPointer: Attachment] = [:]
    private var closedGates: [ClientRaceGate] = []
    private var thread = pthread_t()

    private struct Inbox: Sendable {
        var commands: [Command] = []
        var stopped = false
    }

    private enum Command: Sendable {
        case start(ClientBatch)
        case cancel(ClientBatch)
        case stop
    }

    /// A transfer inside the multi handle, with the retain that keeps it alive while libcurl may call back.
    private struct Attachment {
        let reference: Unmanaged<ClientTransfer>
        let batch: ClientBatch
        let index: Int
    }

    init(configuration: HTTPClient.Configuration) throws(ClientError) {
        multi = try ClientMultiHandle(configuration: configuration)
        // The thread's reference to the loop: taken here, given back when `run` returns.
        let context = Unmanaged.passRetained(self).toOpaque()
        let rc = pthread_create(
            &thread, nil,
            { context in
                let loop = Unmanaged<ClientMultiLoop>.fromOpaque(context!).takeRetainedValue()
                loop.run()
                return nil
            }, context)
        guard rc == 0 else {
            Unmanaged<ClientMultiLoop>.fromOpaque(context).release()
            throw ClientError(
                kind: .other, message: "could not start the client thread (errno \(rc))", url: "",
                operation: "pthread_create")
        }
    }

    // MARK: Any thread

    /// Runs `transfers` together (added to the multi handle in one loop iteration) and returns their
    /// outcomes in order. Cancelling the task aborts them.
    func perform(_ transfers: [ClientTransfer]) async -> [ClientOutcome] {
        if transfers.isEmpty { return [] }
        let batch = ClientBatch(transfers)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                batch.completion = { continuation.resume(returning: $0) }
                if !submit(.start(batch)) {
                    // Never reached the loop thread, so this thread may finish it.
                    for (i, t) in transfers.enumerated() {
                        batch.finish(i, t.outcome(failing: .shutdown, "the HTTP client was shut down"))
                    }
                }
            }
        } onCancel: {
            batch.markCancelled()
            _ = submit(.cancel(batch))
        }
    }

    /// Stops the thread, failing unfinished transfers with `.shutdown`, and waits for it to exit unless
    /// called on it. Idempotent.
    func stop() {
        guard submit(.stop, closing: true) else { return }
        if pthread_equal(pthread_self(), thread) == 0 {
            pthread_join(thread, nil)
        } else {
            pthread_detach(thread)
        }
    }

    /// Queues a command and wakes the thread; false once stopped.
    private func submit(_ command: Command, closing: Bool = false) -> Bool {
        inbox.withLock { inbox in
            if inbox.stopped { return false }
            inbox.stopped = closing
            // Only the first command of a batch wakes the thread: it takes them all at once.
            if inbox.commands.isEmpty { multi.wakeUp() }
            inbox.commands.append(command)
            return true
        }
    }

    // MARK: Loop thread

    private func run() {
        let capacity = 256
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: capacity)
        defer { events.deallocate() }
        while true {
            let commands = inbox.withLock { inbox in
                let commands = inbox.commands
                inbox.commands.removeAll()
                return commands
            }
            for command in commands {
                switch command {
                case .start(let batch): start(batch)
                case .cancel(let batch): cancel(batch)
                case .stop:
                    for easy in Array(attached.keys) {
                        detach(easy) { $0.outcome(failing: .shutdown, "the HTTP client was shut down") }
                    }
                    return
                }
            }
            if multi.sockets.takeDueTimer() { runTimeouts() }
            collectFinished()
            // Held responses are already read: run them at once rather than wait for the socket.
            if openGates() {
                multi.sockets.setTimer(afterMs: 0)
                continue
            }
            let ready = multi.sockets.wait(into: events, capacity: capacity)
            for i in 0..<ready {
                // A socket closed and reopened under the same number by an earlier event gets a
                // spurious look, which libcurl shrugs off.
                act(on: Int32(truncatingIfNeeded: events[i].data.u64), ClientSocketWatch.curlEvents(events[i].events))
            }
        }
    }

    /// Lets libcurl work on `socket`, which epoll reported ready for `events` (`CURL_CSELECT_*`).
    private func act(on socket: Int32, _ events: Int32) {
        var running: Int32 = 0
        _ = curl_multi_socket_action(multi.pointer, socket, events, &running)
    }

    /// Runs libcurl's due timeouts (which also starts transfers just added). libcurl sets its next timer
    /// through the callback only when it changes: should none be set now, ask for it.
    private func runTimeouts() {
        act(on: rc_curl_socket_timeout, 0)
        if multi.sockets.deadlineMs == nil {
            var ms = -1
            _ = curl_multi_timeout(multi.pointer, &ms)
            multi.sockets.setTimer(afterMs: ms)
        }
    }

    private func start(_ batch: ClientBatch) {
        for gate in batch.transfers.compactMap(\.gate) where !closedGates.contains(where: { $0 === gate }) {
            closedGates.append(gate)
        }
        for (index, transfer) in batch.transfers.enumerated() {
            if batch.isCancelled {
                transfer.leaveGate()
                batch.finish(index, transfer.outcome(failing: .cancelled, "the task was cancelled"))
                continue
            }
            // Retained while the easy handle is in the multi handle; released in `detach`.
            let reference = Unmanaged.passRetained(transfer)
            do {
                try transfer.attach(context: reference.toOpaque())
            } catch {
                transfer.leaveGate()
                reference.release()
                batch.finish(index, ClientOutcome(result: .failure(error)))
                continue
            }
            let code = curl_multi_add_handle(multi.pointer, transfer.easy)
            guard code == CURLM_OK else {
                transfer.leaveGate()
                reference.release()
                let error = ClientError(multiCode: code, url: transfer.request.url, operation: "curl_multi_add_handle")
                batch.finish(index, ClientOutcome(result: .failure(error)))
                continue
            }
            attached[transfer.easy] = Attachment(reference: reference, batch: batch, index: index)
        }
    }

    private func cancel(_ batch: ClientBatch) {
        for transfer in batch.transfers where attached[transfer.easy] != nil {
            detach(transfer.easy) { $0.outcome(failing: .cancelled, "the task was cancelled") }
        }
    }

    /// Resumes the transfers of every race gate that has opened; true when any was resumed.
    private func openGates() -> Bool {
        var resumed = false
        closedGates.removeAll { gate in
            guard gate.isOpen else { return false }
            for transfer in gate.release() {
                transfer.resumeFromGate()
                resumed = true
            }
            return true
        }
        return resumed
    }

    private func collectFinished() {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi.pointer, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            // Read before `detach`: removing the handle invalidates the message.
            let code = rc_curl_msg_result(message)
            detach(easy) { $0.outcome(code: code) }
        }
    }

    /// Takes a transfer out of the multi handle, hands its outcome to its batch, and drops the retain
    /// taken in `start`.
    private func detach(_ easy: UnsafeMutableRawPointer, outcome: (ClientTransfer) -> ClientOutcome) {
        guard let attachment = attached.removeValue(forKey: easy) else { return }
        _ = curl_multi_remove_handle(multi.pointer, easy)
        let transfer = attachment.reference.takeUnretainedValue()
        transfer.leaveGate()
        attachment.batch.finish(attachment.index, outcome(transfer))
        attachment.reference.release()
    }
}

import CLinux
import Glibc

/// The threads that run request handlers: a task executor of the server's own, so handlers keep
/// running when Swift's global cooperative pool (as many threads as cores) is busy or blocked by
/// other code in the process, such as the engine of `ringcheck run`, or tests waiting on the pool.
///
/// Handlers start on these threads and, through the task executor preference, resume on them after
/// every suspension (sleeps, actor hops to default actors). `shared` serves every server not given
/// another (`HTTPServer.Configuration.handlerExecutor`); a server whose handler can be made to work
/// hard (the mocks' control API) gets threads of its own, so it cannot hold up the others. Threads
/// start when an executor is made and live as long as the process: make one once (a `static let`).
public final class HandlerExecutor: TaskExecutor, @unchecked Sendable {  // `jobs`, `head`, `idle`: under `mutex`
    /// The threads of every server not given its own: as many as cores, at least two.
    public static let shared = HandlerExecutor(
        threads: max(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))), name: "rc-handlers")

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var jobs: [UnownedJob] = []
    private var head = 0
    private var idle = 0

    /// The name of the executor's threads (visible in debuggers and `top -H`; at most 15 bytes).
    public let threadName: String

    /// `threads` new threads named `name`, living as long as the process.
    public init(threads: Int, name: String) {
        threadName = name
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
        for _ in 0..<max(1, threads) {
            var thread = pthread_t()
            let box = Unmanaged.passRetained(self).toOpaque()
            let rc = pthread_create(
                &thread, nil,
                { arg in
                    Unmanaged<HandlerExecutor>.fromOpaque(arg!).takeRetainedValue().work()
                    return nil
                }, box)
            if rc == 0 {
                pthread_detach(thread)
            } else {
                Unmanaged<HandlerExecutor>.fromOpaque(box).release()
            }
        }
    }

    /// Queues `job` for the next free thread.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pthread_mutex_lock(mutex)
        jobs.append(job)
        let wake = idle > 0
        pthread_mutex_unlock(mutex)
        if wake { pthread_cond_signal(condition) }
    }

    private func work() {
        _ = rc_set_thread_name(threadName)
        let executor = asUnownedTaskExecutor()
        while true {
            pthread_mutex_lock(mutex)
            while head == jobs.count {
                if head > 0 {
                    jobs.removeAll(keepingCapacity: true)
                    head = 0
                }
                idle += 1
                pthread_cond_wait(condition, mutex)
                idle -= 1
            }
            let job = jobs[head]
            head += 1
            if head >= 1024 && head * 2 >= jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            pthread_mutex_unlock(mutex)
            job.runSynchronously(on: executor)
        }
    }
}

import HTTP
import Synchronization
import TestSupport
import Testing

/// Many transfers at once through one client's loop: each on a socket of its own over HTTP/1.1, all in
/// flight together because the server answers none before all have arrived.
@Suite struct HTTPClientManyTransfersTests {
    @Test func aHundredAndFiftyRequestsInFlightTogetherAndTheirConnectionsKeptForReuse() async throws {
        let count = 150
        let barrier = ArrivalBarrier(count: count)
        try await withTestServer(handler: barrier) { server in
            let client = try HTTPClient(configuration: .init(httpVersion: .http1_1, maxIdleConnections: 1024))
            defer { client.shutdown() }
            let base = "http://127.0.0.1:\(server.port)"

            let first = try await Self.send(count, to: base, through: client)
            // Each request got its own answer, and each was on a connection of its own.
            #expect(first.map(\.bodyString) == (0..<count).map { "/call/\($0)" })
            #expect(Set(first.map(\.localPort)).count == count)

            // Every one of those connections was kept: the second round opens none.
            let second = try await Self.send(count, to: base, through: client)
            #expect(second.map(\.bodyString) == (0..<count).map { "/call/\($0)" })
            #expect(second.filter(\.connectionReused).count == count)
        }
    }

    @Test func aCancelledRequestAmongManyEndsAloneAndTheOthersAreAnswered() async throws {
        let count = 40
        let barrier = ArrivalBarrier(count: count)
        try await withTestServer(handler: barrier) { server in
            // A timeout well short of the held request's: a cancellation that is not carried out shows
            // up as a timeout error instead of `CancellationError`.
            let client = try HTTPClient(configuration: .init(timeoutSeconds: 20, httpVersion: .http1_1))
            defer { client.shutdown() }
            let base = "http://127.0.0.1:\(server.port)"

            let held = Task { try await client.send(.get(base + "/hold")) }
            await barrier.waitForHeldRequest()
            let others = Task { try await Self.send(count, to: base, through: client) }
            held.cancel()
            await #expect(throws: CancellationError.self) { try await held.value }
            let answered = try await others.value
            #expect(answered.map(\.bodyString) == (0..<count).map { "/call/\($0)" })
            // The loop carries on after both.
            #expect(try await client.send(.get(base + "/ping")).bodyString == "/ping")
            barrier.releaseHeld()
        }
    }

    @Test func connectionsClosedAfterEachAnswerFreeSocketNumbersTheNextOnesTakeOver() async throws {
        // Every answer closes its connection, so libcurl keeps closing sockets and opening new ones under the
        // numbers just freed, while other transfers are added from many tasks: each must still be watched.
        try await withTestServer { server in
            let client = try HTTPClient(configuration: .init(httpVersion: .http1_1))
            defer { client.shutdown() }
            let base = "http://127.0.0.1:\(server.port)"
            let answers = try await withThrowingTaskGroup(of: [ClientResponse].self) { group in
                for task in 0..<20 {
                    group.addTask {
                        var answers: [ClientResponse] = []
                        for i in 0..<20 {
                            let body = "\(task)-\(i)"
                            answers.append(
                                try await client.send(
                                    .post(base + "/echo", headers: ["connection": "close"], body: body)))
                            #expect(answers.last?.bodyString == body)
                        }
                        return answers
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(answers.count == 400)
            // None went over a kept connection: each had a socket of its own.
            #expect(answers.allSatisfy { !$0.connectionReused })
        }
    }

    /// Sends `GET /call/0` … `/call/(n-1)` at once and returns the responses in that order.
    private static func send(_ n: Int, to base: String, through client: HTTPClient) async throws -> [ClientResponse] {
        try await withThrowingTaskGroup(of: (Int, ClientResponse).self) { group in
            for i in 0..<n { group.addTask { (i, try await client.send(.get(base + "/call/\(i)"))) } }
            var responses = [ClientResponse?](repeating: nil, count: n)
            for try await (i, response) in group { responses[i] = response }
            return responses.map { $0! }
        }
    }
}

/// Holds each `/call/…` request until `count` of them have arrived, then answers them all with their
/// path; `/hold` is answered only once `releaseHeld` is called; anything else at once, with its path.
private final class ArrivalBarrier: HTTPHandler, Sendable {
    let count: Int
    private let state = Mutex(State())

    private struct State {
        var waiting: [CheckedContinuation<Void, Never>] = []
        var heldArrived = false
        var heldWaiters: [CheckedContinuation<Void, Never>] = []
        var held: CheckedContinuation<Void, Never>?
        var heldReleased = false
    }

    init(count: Int) { self.count = count }

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        if request.path == "/hold" {
            let waiters = state.withLock { s in
                s.heldArrived = true
                defer { s.heldWaiters = [] }
                return s.heldWaiters
            }
            for w in waiters { w.resume() }
            await withCheckedContinuation { continuation in
                let released = state.withLock { s in
                    if !s.heldReleased { s.held = continuation }
                    return s.heldReleased
                }
                if released { continuation.resume() }
            }
            return HTTPResponse(status: 500, headers: HTTPHeaders(), body: [])
        }
        guard request.path.hasPrefix("/call/") else {
            return HTTPResponse(status: 200, headers: HTTPHeaders(), body: Array(request.path.utf8))
        }
        await withCheckedContinuation { continuation in
            let released = state.withLock { s -> [CheckedContinuation<Void, Never>] in
                s.waiting.append(continuation)
                guard s.waiting.count == count else { return [] }
                defer { s.waiting = [] }
                return s.waiting
            }
            for c in released { c.resume() }
        }
        return HTTPResponse(status: 200, headers: HTTPHeaders(), body: Array(request.path.utf8))
    }

    /// Lets the `/hold` request be answered.
    func releaseHeld() {
        let held = state.withLock { s in
            s.heldReleased = true
            defer { s.held = nil }
            return s.held
        }
        held?.resume()
    }

    /// Returns once `/hold` reached the handler.
    func waitForHeldRequest() async {
        await withCheckedContinuation { continuation in
            let arrived = state.withLock { s in
                if !s.heldArrived { s.heldWaiters.append(continuation) }
                return s.heldArrived
            }
            if arrived { continuation.resume() }
        }
    }
}

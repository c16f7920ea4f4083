/// What `HTTPClient.race` sends first so that connections are open before the racing requests leave.
public enum RaceWarmUp: Sendable {
    /// Send nothing first: connections are opened by the racing requests themselves.
    case none
    /// Send this request (method, path relative to each origin, headers) to every origin in the race,
    /// once per racing request to that origin and all at once — over HTTP/1.1 that leaves one open
    /// connection per racing request, over HTTP/2 one shared connection. Its status is ignored.
    case request(method: String, path: String, headers: HTTPHeaders)

    /// `GET /` to each origin.
    public static let `default` = RaceWarmUp.request(method: "GET", path: "/", headers: HTTPHeaders())
}

/// The outcome of `HTTPClient.race`: every request's response or error, and when each left.
public struct RaceResult: Sendable {
    /// One racing request.
    public struct Entry: Sendable {
        public var request: ClientRequest
        public var result: Result<ClientResponse, ClientError>
        /// `CLOCK_MONOTONIC` ns when the request headers went out; nil when they never did.
        public var sentAtNs: UInt64?
        /// Wall clock ms since the UNIX epoch when the request headers went out; nil when they never did.
        public var sentAtMs: Int64?
    }

    /// In the order of the requests given.
    public var entries: [Entry]

    /// Milliseconds between the first and the last request leaving (0 with fewer than two sent): how
    /// tightly the race was released.
    public var spreadMs: Double {
        let sent = entries.compactMap(\.sentAtNs)
        guard let first = sent.min(), let last = sent.max() else { return 0 }
        return Double(last - first) / 1_000_000
    }

    /// How many distinct connections the successful responses came over.
    public var connectionCount: Int {
        Set(entries.compactMap { try? $0.result.get() }.map { "\($0.remoteIP) \($0.remotePort) \($0.localPort)" }).count
    }
}

extension HTTPClient {
    /// Sends `requests` so that they leave together, as a caller racing itself or a backend would
    /// see simultaneous actions: first `warmUp` opens the connections, then all requests enter libcurl
    /// in one loop iteration. Over HTTP/2 they share one connection; over HTTP/1.1 each has its own.
    ///
    /// A request's failure is its entry's result, not a thrown error. Throws `CancellationError` when
    /// the task is cancelled and `ClientError` when a request cannot be prepared.
    public func race(_ requests: [ClientRequest], warmUp: RaceWarmUp = .default) async throws -> RaceResult {
        if case .request(let method, let path, let headers) = warmUp {
            try await warmUpConnections(for: requests, method: method, path: path, headers: headers)
        }
        let transfers = try requests.map { try ClientTransfer(request: $0, configuration: configuration) }
        let gate = ClientRaceGate(count: transfers.count)
        for transfer in transfers { transfer.gate = gate }
        let outcomes = await loop.perform(transfers)
        try Task.checkCancellation()
        return RaceResult(
            entries: zip(requests, outcomes).map {
                RaceResult.Entry(request: $0, result: $1.result, sentAtNs: $1.sentAtNs, sentAtMs: $1.sentAtMs)
            })
    }

    /// Opens the connections a race needs. One warm-up per origin first, which also tells libcurl whether
    /// the origin multiplexes; then, for origins that answered over HTTP/1.1, one warm-up on a new
    /// connection for each further request of the race there. (Concurrent warm-ups left to choose did not
    /// always open their own: on a busy machine one started after another had finished and reused its
    /// connection, and a racing request then had to connect.)
    /// Warm-up failures are not reported: the racing requests meet the same problem and report it.
    private func warmUpConnections(
        for requests: [ClientRequest], method: String, path: String, headers: HTTPHeaders
    ) async throws {
        var origins: [(sample: ClientRequest, count: Int)] = []
        for request in requests {
            guard let origin = request.origin else { continue }
            if let i = origins.firstIndex(where: { $0.sample.origin == origin }) {
                origins[i].count += 1
            } else {
                let warm = ClientRequest(
                    method: method, url: origin + path, headers: headers, timeoutSeconds: request.timeoutSeconds,
                    httpVersion: request.httpVersion)
                origins.append((warm, 1))
            }
        }
        let first = try origins.map { try ClientTransfer(request: $0.sample, configuration: configuration) }
        let outcomes = await loop.perform(first)
        try Task.checkCancellation()
        var more: [ClientTransfer] = []
        for (origin, outcome) in zip(origins, outcomes) where origin.count > 1 {
            guard case .success(let response) = outcome.result, response.version == .http1_1 else { continue }
            var fresh = origin.sample
            fresh.freshConnection = true
            for _ in 1..<origin.count {
                more.append(try ClientTransfer(request: fresh, configuration: configuration))
            }
        }
        _ = await loop.perform(more)
        try Task.checkCancellation()
    }
}

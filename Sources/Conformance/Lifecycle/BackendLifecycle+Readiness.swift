import HTTP
import Processes

extension BackendLifecycle {
    /// Polls the `ready` URL until it answers with a status below 500. Fails when the started process
    /// exits with an error first (a start command that exits 0 has handed the backend off, e.g. to a
    /// daemon, and the wait goes on), or when the timeout passes; both errors name the URL, the last
    /// error and the backend's output.
    func waitUntilReady(watching watcher: ExitWatcher?, command: BackendCommand?) async throws {
        guard let ready = configuration.ready else {
            if let watcher, let status = await watcher.exited(within: .milliseconds(200)), status.exitCode != 0 {
                throw BackendLifecycleError(
                    "the backend \(status) right after '\(command?.description ?? "")'; \(log.reference)")
            }
            return
        }
        // TLS is not verified here: the question is only whether the backend answers yet.
        let client: HTTPClient
        do {
            client = try HTTPClient(
                configuration: .init(
                    insecureSkipVerify: true, timeoutSeconds: 2, connectTimeoutSeconds: 1, httpVersion: .http1_1,
                    maxIdleConnections: 0))
        } catch {
            throw BackendLifecycleError("cannot start an HTTP client to poll \(ready.url): \(error)")
        }
        defer { client.shutdown() }
        let started = ContinuousClock.now
        let deadline = started + ready.timeout
        var lastError = "no attempt yet"
        var handedOff = false
        while true {
            // The last attempt is one that began at or after the deadline: an attempt begun earlier whose answer
            // this process was too starved to read until later does not use up the wait.
            let attemptBegan = ContinuousClock.now
            if let watcher, !handedOff, let status = watcher.status {
                guard status.exitCode == 0 else {
                    throw BackendLifecycleError(
                        "the backend \(status) before it was ready (\(ready.url): \(lastError)); \(log.reference)")
                }
                handedOff = true
            }
            do {
                let response = try await client.send(ClientRequest.get(ready.url))
                if response.status < 500 { return }
                lastError = "HTTP \(response.status)"
            } catch let error as ClientError {
                lastError = error.message.isEmpty ? "\(error)" : error.message
            } catch {
                lastError = "\(error)"
            }
            if attemptBegan >= deadline { break }
            try await Task.sleep(for: ready.interval)
        }
        throw BackendLifecycleError(
            "the backend did not answer \(ready.url) within \(ready.timeout) (last error: \(lastError)); "
                + (watcher == nil && command == nil ? "ringcheck did not start it" : log.reference))
    }
}

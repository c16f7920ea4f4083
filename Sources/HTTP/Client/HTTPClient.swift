/// An HTTP/1.1 and HTTP/2 client on libcurl, for playing callers and devices against a backend.
///
/// Requests to one host share connections: concurrent HTTP/2 requests multiplex on one connection.
/// All libcurl work happens on one thread per client; `send` suspends without blocking.
/// Create one per set of trust and limits, and `shutdown()` it (or let it go) when done.
public final class HTTPClient: Sendable {
    /// The settings the client was made with.
    public let configuration: Configuration
    let loop: ClientMultiLoop

    /// Starts a client and its thread. Throws when libcurl or the thread cannot be set up.
    public init(configuration: Configuration = Configuration()) throws {
        DescriptorLimit.raise()
        self.configuration = configuration
        loop = try ClientMultiLoop(configuration: configuration)
    }

    deinit { loop.stop() }

    /// Sends `request` and returns the complete response, whatever its status.
    ///
    /// Throws `ClientError` when no complete response arrived, and `CancellationError` when the task
    /// was cancelled (the transfer is aborted).
    public func send(_ request: ClientRequest) async throws -> ClientResponse {
        let transfer = try ClientTransfer(request: request, configuration: configuration)
        let outcome = await loop.perform([transfer])[0]
        switch outcome.result {
        case .success(let response):
            return response
        case .failure(let error) where error.kind == .cancelled:
            throw CancellationError()
        case .failure(let error):
            throw error
        }
    }

    /// Closes every connection and fails transfers still running with `ClientError.Kind.shutdown`.
    /// Later sends fail the same way. Idempotent; also done when the client is released.
    public func shutdown() { loop.stop() }
}

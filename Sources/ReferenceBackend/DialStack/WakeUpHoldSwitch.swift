import HTTP
import JSON

/// Turns DialStack's Wake-Up Hold on for a user, as the seed's `dialstack.users.update(userId, { config: {
/// mobile_push_wakeup: true } }, { dialstackAccount: accountId })` does: `PATCH /v1/users/{userId}` with
/// `{"config": {"mobile_push_wakeup": true}}`, the API key as a bearer token and the account in
/// `DialStack-Account`. The reference calls it when a user registers a device token, the seed's example.
public final class WakeUpHoldSwitch: Sendable {
    public let access: DialStackAPIAccess
    let client: HTTPClient
    let log: BackendLog?

    public init(access: DialStackAPIAccess, log: BackendLog? = nil) throws {
        self.access = access
        self.client = try HTTPClient(configuration: .init(caFile: access.caFile, timeoutSeconds: 15))
        self.log = log
    }

    /// Enables `mobile_push_wakeup` for `userId`; throws a 502 `APIError` saying what DialStack answered (or
    /// that it did not), so the registration that needed it fails visibly.
    public func enable(userId: String) async throws(APIError) {
        var headers = HTTPHeaders()
        headers.add("content-type", "application/json")
        headers.add("accept", "application/json")
        headers.add("authorization", "Bearer \(access.apiKey)")
        if let account = access.accountId { headers.add("dialstack-account", account) }
        let body = JSONValue.object([("config", .object([("mobile_push_wakeup", .bool(true))]))])
        let response: ClientResponse
        do {
            response = try await client.send(
                ClientRequest(method: "PATCH", url: access.userURL(userId), headers: headers, body: body.bytes()))
        } catch {
            log?.write("DialStack users.update \(userId): no answer: \(error)")
            throw APIError(502, "dialstack_unreachable", "DialStack's API did not answer users.update: \(error)")
        }
        guard (200..<300).contains(response.status) else {
            let text = String(decoding: response.body.prefix(200), as: UTF8.self)
            log?.write("DialStack users.update \(userId): \(response.status)")
            throw APIError(
                502, "dialstack_refused", "DialStack's API answered users.update with \(response.status): \(text)")
        }
        log?.write("DialStack users.update \(userId): mobile_push_wakeup on")
    }

    /// Closes the client's connections.
    public func shutdown() { client.shutdown() }
}

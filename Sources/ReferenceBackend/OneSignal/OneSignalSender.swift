import HTTP
import JSON

/// What one send came to: whether OneSignal reached anyone, and what it answered.
public struct OneSignalSendResult: Sendable, Equatable {
    /// The seed's delivery truth: a 2xx answer with `recipients >= 1`.
    public var delivered: Bool
    /// Whether a request was made at all (not when unconfigured).
    public var requested: Bool
    /// OneSignal's status, when it answered.
    public var status: Int?
    /// The answer's `recipients`, when it had one.
    public var recipients: Int?
    /// Why it was not delivered, for the log.
    public var reason: String?

    public init(delivered: Bool, requested: Bool, status: Int? = nil, recipients: Int? = nil, reason: String? = nil) {
        self.delivered = delivered
        self.requested = requested
        self.status = status
        self.recipients = recipients
        self.reason = reason
    }
}

/// The seed's `push.service.ts`: posts one create-notification request per send to OneSignal and reads the
/// answer's `recipients`.
public final class OneSignalSender: Sendable {
    public let configuration: OneSignalConfiguration
    let builder: OneSignalRequestBuilder
    let client: HTTPClient
    let log: BackendLog?

    public init(configuration: OneSignalConfiguration, log: BackendLog? = nil) throws {
        self.configuration = configuration
        self.builder = OneSignalRequestBuilder(configuration: configuration)
        self.client = try HTTPClient(configuration: .init(caFile: configuration.caFile, timeoutSeconds: 15))
        self.log = log
    }

    /// Sends `push` as the seed's helper of its kind does; never throws: a failure is "not delivered".
    public func send(_ push: OneSignalPush) async -> OneSignalSendResult {
        let defects = configuration.defects
        var app = builder.app(for: push.kind)
        if app == nil || !configuration.isConfigured {
            guard defects.contains(.sendWhenUnconfigured) else {
                let what = configuration.isConfigured ? "the VoIP app is not configured" : "push is off (unconfigured)"
                log?.write("\(push.kind.rawValue) push: \(what); not sent")
                return OneSignalSendResult(delivered: false, requested: false, reason: what)
            }
            // What a JavaScript kit sends with its variables unset: `Key ${undefined}`.
            app = app ?? OneSignalAppCredentials(id: "", key: "undefined")
        }
        guard let app else { return OneSignalSendResult(delivered: false, requested: false) }
        if defects.contains(.refuseTTLOption), push.options.ttl != nil {
            log?.write("\(push.kind.rawValue) push: the SDK refused the ttl option; not sent")
            return OneSignalSendResult(delivered: false, requested: false, reason: "the SDK refused the ttl option")
        }
        var headers = HTTPHeaders()
        headers.add("content-type", "application/json")
        headers.add("accept", "application/json")
        headers.add("authorization", "Key \(app.key)")
        let body = builder.body(push, appId: app.id)
        let response: ClientResponse
        do {
            response = try await client.send(
                ClientRequest(method: "POST", url: configuration.notificationsURL, headers: headers, body: body.bytes())
            )
        } catch {
            log?.write("\(push.kind.rawValue) push: no answer from OneSignal: \(error)")
            return OneSignalSendResult(delivered: false, requested: true, reason: "\(error)")
        }
        let json = try? JSONValue.parse(response.body)
        let recipients = json?["recipients"]?.intValue
        let ok = (200..<300).contains(response.status)
        let needed = defects.contains(.deliveredNeedsTwo) ? 2 : 1
        let delivered = ok && (defects.contains(.deliveredOnZero) || (recipients ?? 0) >= needed)
        log?.write(
            "\(push.kind.rawValue) push: OneSignal \(response.status), recipients \(recipients.map(String.init) ?? "-")"
                + (delivered ? ", delivered" : ", not delivered"))
        return OneSignalSendResult(
            delivered: delivered, requested: true, status: response.status, recipients: recipients,
            reason: delivered ? nil : "status \(response.status), recipients \(recipients.map(String.init) ?? "-")")
    }

    /// Closes the connections.
    public func shutdown() { client.shutdown() }
}

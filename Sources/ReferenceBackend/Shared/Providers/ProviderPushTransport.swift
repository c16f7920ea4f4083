import HTTP
import JSON
import Signing

/// Sends pushes to APNs (HTTP/2 over TLS, cached ES256 provider token, production or sandbox
/// host by registration) and FCM HTTP v1 (cached OAuth access token, renewed before expiry and
/// after a 401). What the reference backend uses outside tests.
public final class ProviderPushTransport: PushTransport {
    public let settings: PushProviderSettings
    public let providerTokens: APNsProviderTokenCache
    public let accessTokens: GoogleAccessTokenCache
    /// The Firebase project pushes are sent to.
    public let fcmProjectID: String
    private let client: HTTPClient

    /// Loads the `.p8` key and service account and opens an HTTP/2 client trusting `settings.caFile`.
    public init(
        settings: PushProviderSettings, timeoutSeconds: Double = 10,
        clock: @escaping MillisecondClock = SystemClock.milliseconds
    ) throws(PushTransportSetupError) {
        self.settings = settings
        let key: PrivateKey
        do {
            key = try PrivateKey(pem: try TextFile.read(settings.apnsKeyFile))
        } catch {
            throw PushTransportSetupError("RINGCHECK_APNS_KEY_FILE \(settings.apnsKeyFile): \(error)")
        }
        guard key.kind == .p256 else {
            throw PushTransportSetupError("RINGCHECK_APNS_KEY_FILE \(settings.apnsKeyFile): not a P-256 (.p8) key")
        }
        let account: ServiceAccount
        do {
            account = try ServiceAccount.parse(json: try TextFile.read(settings.fcmServiceAccountFile))
        } catch {
            throw PushTransportSetupError("RINGCHECK_FCM_SERVICE_ACCOUNT \(settings.fcmServiceAccountFile): \(error)")
        }
        do {
            client = try HTTPClient(
                configuration: .init(caFile: settings.caFile, timeoutSeconds: timeoutSeconds, httpVersion: .http2))
        } catch {
            throw PushTransportSetupError("cannot start the HTTP client: \(error)")
        }
        providerTokens = APNsProviderTokenCache(
            key: APNsSigningKey(keyID: settings.apnsKeyID, teamID: settings.apnsTeamID, privateKey: key), clock: clock)
        accessTokens = GoogleAccessTokenCache(
            account: account, tokenURL: settings.oauthTokenURL, client: client, clock: clock)
        fcmProjectID = settings.fcmProjectID ?? account.projectID
    }

    /// How the worker builds requests for these providers.
    public var messageSettings: PushMessageSettings {
        PushMessageSettings(
            fcmProjectID: fcmProjectID, apnsBundleID: settings.apnsBundleID, apnsVoIPTopic: settings.apnsVoIPTopic)
    }

    public func send(_ request: PushRequest) async throws -> HTTPResponse {
        switch request.destination {
        case .apns(let environment):
            let base = environment == .production ? settings.apnsURL : settings.apnsSandboxURL
            let token = try providerTokens.token()
            let response = try await post(base + request.path, request, authorization: "bearer \(token)")
            if response.status == 403, Self.apnsReason(response) == "ExpiredProviderToken" {
                providerTokens.rejected(token)
            }
            return response
        case .fcm:
            let token = try await accessTokens.token()
            let response = try await post(settings.fcmURL + request.path, request, authorization: "Bearer \(token)")
            guard response.status == 401 else { return response }
            // The access token was revoked or expired early: exchange a new one and send once more.
            accessTokens.rejected(token)
            let fresh = try await accessTokens.token()
            return try await post(settings.fcmURL + request.path, request, authorization: "Bearer \(fresh)")
        }
    }

    /// Closes the provider connections.
    public func shutdown() { client.shutdown() }

    private func post(_ url: String, _ request: PushRequest, authorization: String) async throws -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("authorization", authorization)
        for (name, value) in request.headers { headers.add(name, value) }
        let response = try await client.send(
            ClientRequest(method: request.method, url: url, headers: headers, body: request.body))
        return HTTPResponse(status: response.status, headers: response.headers, body: response.body)
    }

    private static func apnsReason(_ response: HTTPResponse) -> String? {
        (try? JSONValue.parse(response.body))?["reason"]?.stringValue
    }
}

/// The push transport could not be set up: an unreadable key file or service account.
public struct PushTransportSetupError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

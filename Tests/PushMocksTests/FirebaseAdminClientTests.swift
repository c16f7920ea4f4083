import Foundation
import JSON
import PushMocks
import TestSupport
import Testing

/// The FCM and OAuth mocks judged by Google's own client, the Firebase Admin SDK for Python. Its
/// synchronous path (requests, which honours `HTTPS_PROXY`) goes through the proxy to the real host
/// names with a service account naming Google's real `token_uri`, as the proxy recipe of docs/mocks-and-control-api.md says; it
/// reads the mock's errors into its own exception classes and waits out a 503's Retry-After. Its
/// asynchronous path (httpx over HTTP/2, with its own transport, which ignores `HTTPS_PROXY`) is pointed
/// at the mock's URL.
@Suite struct FirebaseAdminClientTests {
    static let sent = "fcm-sent:APA91b" + String(repeating: "s", count: 60)
    static let unregistered = "fcm-gone:APA91b" + String(repeating: "g", count: 60)
    static let refusedOnce = "fcm-busy:APA91b" + String(repeating: "b", count: 60)

    @Test(VenvPython.enabled)
    func theAdminSDKSendsReadsTheErrorsAndWaitsOutRetryAfter() async throws {
        let mocks = try await MockStackHarness.start { options in
            options.impersonation = ImpersonationOptions(
                listen: [ListenAddress(host: "127.0.0.1", port: 0)], proxy: ListenAddress(host: "127.0.0.1", port: 0))
        }
        guard
            let python = await VenvPython.interpreter(
                importing: "firebase_admin", package: "firebase-admin", clients: mocks.clients)
        else { return }
        _ = try await mocks.clients.installFault(
            #"{"deviceToken":"\#(Self.unregistered)","respond":{"status":404,"errorCode":"UNREGISTERED"}}"#)
        _ = try await mocks.clients.installFault(
            #"{"deviceToken":"\#(Self.refusedOnce)","times":1,"respond":{"status":503,"errorCode":"UNAVAILABLE"},"retryAfter":1}"#
        )
        let settings = mocks.settings
        let proxy = try #require(settings.httpsProxy)
        let environment = [
            "HTTPS_PROXY=\(proxy)", "https_proxy=\(proxy)", "NO_PROXY=", "no_proxy=",
            "REQUESTS_CA_BUNDLE=\(settings.caFile)", "SSL_CERT_FILE=\(settings.caFile)",
        ]
        let arguments = [
            settings.fcmServiceAccountFile, settings.fcmProjectID, settings.fcmURL, Self.sent, Self.unregistered,
            Self.refusedOnce,
        ]
        let out = try await VenvPython.runJSON(
            python, script: Self.script, arguments, environment: environment, clients: mocks.clients, timeout: 180)

        // What the SDK made of the answers.
        let prefix = "projects/\(settings.fcmProjectID)/messages/"
        #expect(out["sent"]?.stringValue?.hasPrefix(prefix) == true, "\(out)")
        #expect(out["unregistered"] == "UnregisteredError", "\(out)")
        #expect(out["retried"]?["name"]?.stringValue?.hasPrefix(prefix) == true, "\(out)")
        #expect((out["retried"]?["seconds"]?.doubleValue ?? 0) >= 0.9, "Retry-After 1 was waited out: \(out)")
        #expect(out["async"] == [[true, nil], [true, nil], [false, "UnregisteredError"]], "\(out)")

        // What the mocks saw it send.
        let oauth = mocks.log.captures(CaptureFilter(mock: .oauth))
        #expect(!oauth.isEmpty && oauth.allSatisfy { $0.addressedHost == .oauth && $0.outcome == .accepted })
        let fcm = mocks.log.captures(CaptureFilter(mock: .fcm))
        #expect(fcm.count == 7, "\(fcm.map { "\($0.deviceToken ?? "-") \($0.response.status)" })")
        let throughProxy = Array(fcm.prefix(4))
        #expect(throughProxy.allSatisfy { $0.addressedHost == .fcm })
        #expect(throughProxy.map(\.response.status) == [200, 404, 503, 200])
        let first = try #require(throughProxy.first?.json?["message"])
        #expect(first["android"] == ["priority": "high", "ttl": "30s"] && first["data"]?["type"] == "call.invited")
        let async = Array(fcm.suffix(3))
        #expect(async.allSatisfy { $0.httpVersion == .http2 && $0.addressedHost == nil })
        #expect(async.map(\.response.status).sorted() == [200, 200, 404], "sent at once, in any order")
        #expect(fcm.allSatisfy { $0.headers["x-firebase-client"]?.hasPrefix("fire-admin-python/") == true })
    }

    /// The sends, printed as one JSON object. Two apps: the proxied one builds its messaging service (and
    /// FCM URL) before the URL is pointed at the mock for the second.
    static let script = #"""
        import asyncio, json, sys, time, warnings
        warnings.simplefilter("ignore")
        import firebase_admin
        from firebase_admin import credentials, exceptions, messaging

        account_file, project, fcm_url, sent, unregistered, refused_once = sys.argv[1:7]
        account = json.load(open(account_file))
        account["token_uri"] = "https://oauth2.googleapis.com/token"
        proxied = firebase_admin.initialize_app(credentials.Certificate(account), {"projectId": project})

        def message(token):
            return messaging.Message(
                token=token, data={"type": "call.invited", "callId": "c1"},
                android=messaging.AndroidConfig(priority="high", ttl=30))

        out = {"sent": messaging.send(message(sent), app=proxied)}
        try:
            messaging.send(message(unregistered), app=proxied)
            out["unregistered"] = "no error"
        except exceptions.FirebaseError as e:
            out["unregistered"] = type(e).__name__
        started = time.monotonic()
        name = messaging.send(message(refused_once), app=proxied)
        out["retried"] = {"name": name, "seconds": time.monotonic() - started}

        messaging._MessagingService.FCM_URL = fcm_url + "/v1/projects/{0}/messages:send"
        direct = firebase_admin.initialize_app(
            credentials.Certificate(account), {"projectId": project}, name="direct")

        async def send_each():
            batch = await messaging.send_each_async(
                [message(sent), message(sent), message(unregistered)], app=direct)
            return [[r.success, type(r.exception).__name__ if r.exception else None] for r in batch.responses]

        out["async"] = asyncio.run(send_each())
        print(json.dumps(out))
        """#
}

import Foundation
import JSON
import PushMocks
import TestSupport
import Testing

/// The mock judged by an independent client: OneSignal's own Python SDK, pointed at the mock's URL
/// (`Configuration(host=…)`) and trusting the mock CA (`ssl_ca_cert`), creates notifications and reads
/// the answers through its own response model.
@Suite struct OneSignalMockPythonSDKTests {
    @Test(VenvPython.enabled)
    func theOfficialSDKCreatesNotificationsAndReadsTheAnswers() async throws {
        let mocks = try await MockStackHarness.start()
        let mock = try #require(mocks.stack.providers.oneSignal)
        guard
            let python = await VenvPython.interpreter(
                importing: "onesignal", package: "onesignal-python-api", clients: mocks.clients)
        else { return }

        mock.subscribe(externalId: "user-1", app: .standard, devices: 2)
        mock.subscribe(externalId: "user-1", app: .voip)
        mock.setEmptyAudienceAnswer(.invalidAliases, appId: mock.voipApp.appID)
        let settings = Dictionary(mocks.settings.environment.map { ($0.name, $0.value) }) { $1 }
        let arguments = [
            "RINGCHECK_ONESIGNAL_URL", "RINGCHECK_CA_FILE", "RINGCHECK_ONESIGNAL_APP_ID", "RINGCHECK_ONESIGNAL_API_KEY",
            "RINGCHECK_ONESIGNAL_VOIP_APP_ID", "RINGCHECK_ONESIGNAL_VOIP_API_KEY",
        ].map { settings[$0] ?? "" }
        let out = try await VenvPython.runJSON(python, script: Self.script, arguments, clients: mocks.clients)

        // What the SDK read from the answers (its model keeps `recipients` as an extra property).
        let created = try #require(out["created"]?["body"])
        #expect(out["created"]?["status"] == 200 && created["recipients"]?.doubleValue == 2, "\(created)")
        #expect(created["id"]?.stringValue?.count == 36 && created["external_id"] == .null)
        #expect(out["older"]?["body"]?["recipients"]?.doubleValue == 2, "host …/api/v1: \(out)")
        #expect(out["ghost"]?["body"]?["id"] == "" && out["ghost"]?["body"]?["recipients"]?.doubleValue == 0)
        #expect(out["ghost"]?["body"]?["errors"] == ["All included players are not subscribed"])
        #expect(
            out["voipGhost"]?["body"] == [
                "id": "", "external_id": nil, "errors": ["invalid_aliases": ["external_id": ["ghost"]]],
            ])
        #expect(out["voip"]?["body"]?["recipients"]?.doubleValue == 1)
        #expect(
            out["foreignKey"]?["status"] == 403
                && out["foreignKey"]?["body"] == [
                    "errors": .array(OneSignalError.accessDenied.messages.map { .string($0) })
                ])
        #expect(
            out["view"]?["body"]?["successful"] == 2 && out["view"]?["body"]?["id"] == created["id"],
            "\(out["view"] ?? .null)")

        // What the mock saw the SDK send: both routes, the key scheme it uses, the kit's VoIP fields.
        let captures = mocks.log.captures(CaptureFilter(mock: .onesignal))
        #expect(
            captures.map(\.path) == [
                "/notifications", "/api/v1/notifications", "/notifications", "/notifications", "/notifications",
                "/notifications", "/notifications/\(created["id"]?.stringValue ?? "")",
            ])
        #expect(captures.allSatisfy { $0.headers["authorization"]?.hasPrefix("Key ") == true })
        #expect(captures.allSatisfy { $0.headers["user-agent"]?.contains("python") == true })
        let voip = try OneSignalNotification.parse(try #require(captures[4].json))
        #expect(voip.appID == mock.voipApp.appID && voip.externalIDs == ["user-1"])
        #expect(
            voip.apnsPushTypeOverride == "voip" && voip.contentAvailable == true && voip.ttl == 30 && !voip.hasContents)
    }

    /// Each call through the SDK, printed as one JSON object: the status and what the SDK parsed (or
    /// the error body of an `ApiException`).
    static let script = #"""
        import json, sys
        import onesignal
        from onesignal.api import default_api
        from onesignal.model.notification import Notification

        url, ca, app_id, key, voip_id, voip_key = sys.argv[1:7]


        def api(host, k):
            config = onesignal.Configuration(host=host, rest_api_key=k, ssl_ca_cert=ca)
            return default_api.DefaultApi(onesignal.ApiClient(config))


        def send(host, app, k, user, voip=False):
            fields = dict(app_id=app, include_aliases={"external_id": [user]}, target_channel="push")
            if voip:
                fields.update(apns_push_type_override="voip", content_available=True, ttl=30, data={"call_id": "c1"})
            else:
                fields.update(headings={"en": "Ride"}, contents={"en": "2 min"}, priority=10, ttl=60)
            try:
                return {"status": 200, "body": api(host, k).create_notification(Notification(**fields)).to_dict()}
            except onesignal.ApiException as e:
                return {"status": e.status, "body": json.loads(e.body)}


        out = {
            "created": send(url, app_id, key, "user-1"),
            "older": send(url + "/api/v1", app_id, key, "user-1"),
            "ghost": send(url, app_id, key, "ghost"),
            "voipGhost": send(url, voip_id, voip_key, "ghost", voip=True),
            "voip": send(url, voip_id, voip_key, "user-1", voip=True),
            "foreignKey": send(url, app_id, voip_key, "user-1"),
        }
        try:
            # The view model is stricter than the mock's answer needs; the values are what count here.
            n = api(url, key).get_notification(app_id, out["created"]["body"]["id"], _check_return_type=False)
            out["view"] = {"status": 200, "body": n.to_dict()}
        except onesignal.ApiException as e:
            out["view"] = {"status": e.status, "body": e.body}
        print(json.dumps(out, default=str))
        """#
}

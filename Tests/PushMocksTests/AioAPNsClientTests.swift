import Foundation
import JSON
import PushMocks
import TestSupport
import Testing

/// The APNs mock judged by a real APNs client, aioapns (Python, h2 over TLS with ALPN, ES256 provider
/// tokens signed by PyJWT), pointed at the mock's URL as a backend using it would be: VoIP invitations
/// are accepted, an Unregistered answer is read with its timestamp, and a burst of pushes goes through
/// on the connections the client pools.
@Suite struct AioAPNsClientTests {
    static let phone = String(repeating: "ab", count: 32)
    static let gone = String(repeating: "cd", count: 32)

    @Test(VenvPython.enabled)
    func aioapnsSendsVoIPInvitationsAndReadsUnregistered() async throws {
        let mocks = try await MockStackHarness.start()
        guard
            let python = await VenvPython.interpreter(importing: "aioapns", package: "aioapns", clients: mocks.clients)
        else { return }
        _ = try await mocks.clients.installFault(
            #"{"deviceToken":"\#(Self.gone)","respond":{"status":410,"reason":"Unregistered"}}"#)
        let settings = mocks.settings
        let arguments = [
            settings.apnsKeyFile, settings.apnsKeyID, settings.apnsTeamID, settings.apnsBundleID + ".voip",
            settings.apnsURL, settings.caFile, Self.phone, Self.gone,
        ]
        let out = try await VenvPython.runJSON(python, script: Self.script, arguments, clients: mocks.clients)

        // What aioapns made of the answers.
        #expect(out["sent"]?["ok"] == true && out["sent"]?["status"] == "200", "\(out)")
        #expect(out["gone"]?["status"] == "410" && out["gone"]?["reason"] == "Unregistered", "\(out)")
        #expect((out["gone"]?["timestamp"]?.doubleValue ?? 0) > 1_600_000_000_000, "milliseconds: \(out)")
        #expect(out["burst"] == [true, true, true, true, true], "\(out)")

        // What the mock saw: seven VoIP pushes over HTTP/2 with valid provider tokens, one refused by the fault.
        let captures = mocks.log.captures(CaptureFilter(mock: .apns))
        #expect(captures.count == 7)
        #expect(captures.allSatisfy { $0.httpVersion == .http2 })
        #expect(captures.allSatisfy { $0.headers["apns-push-type"] == "voip" && $0.headers["apns-priority"] == "10" })
        #expect(captures.allSatisfy { $0.headers["apns-topic"] == settings.apnsBundleID + ".voip" })
        #expect(captures.map { $0.outcome.reason ?? "accepted" }.filter { $0 != "accepted" } == ["Unregistered"])
    }

    /// The sends, printed as one JSON object.
    static let script = #"""
        import asyncio, json, ssl, sys, warnings
        warnings.simplefilter("ignore")
        from urllib.parse import urlsplit
        from aioapns import APNs, NotificationRequest, PushType
        from aioapns import connection

        key_file, key_id, team_id, topic, url, ca, phone, gone = sys.argv[1:9]
        u = urlsplit(url)
        # aioapns names Apple's hosts in its protocol classes; a backend using it points them at its APNs URL.
        mock = type("MockAPNs", (connection.APNsProductionClientProtocol,),
                    {"APNS_SERVER": u.hostname, "APNS_PORT": u.port})

        def invitation(device):
            return NotificationRequest(
                device_token=device, message={"aps": {}, "type": "call.invited", "callId": "c1"},
                push_type=PushType.VOIP, priority=10)

        def result(r):
            return {"ok": r.is_successful, "status": r.status, "reason": r.description, "timestamp": r.timestamp}

        async def main():
            # Made inside the running loop, as aioapns requires.
            context = ssl.create_default_context(cafile=ca)
            context.set_alpn_protocols(["h2"])
            client = APNs(key=open(key_file).read(), key_id=key_id, team_id=team_id, topic=topic,
                          use_sandbox=False, ssl_context=context)
            client.pool.protocol_class = mock
            out = {"sent": result(await client.send_notification(invitation(phone)))}
            out["gone"] = result(await client.send_notification(invitation(gone)))
            burst = await asyncio.gather(*[client.send_notification(invitation(phone)) for _ in range(5)])
            out["burst"] = [r.is_successful for r in burst]
            print(json.dumps(out))

        asyncio.run(main())
        """#
}

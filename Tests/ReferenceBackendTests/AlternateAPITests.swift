import HTTP
import JSON
import ReferenceBackend
import TestSupport
import Testing

/// The alternate API shape over real HTTP: every route's shape and status, the installation only
/// from `X-Device-Id`, and the reference's rules (idempotency, arbitration, paging) behind it.
@Suite(.serialized) struct AlternateAPITests {
    @Test func registrationTakesTheInstallationFromTheHeaderOnly() async throws {
        try await AlternateAPIHarness.run { api in
            let body: JSONValue = [
                "platform": "fcm", "token": "fcm-token-1", "appId": "com.example.calls", "installationId": "not-this",
            ]
            let saved = try await api.send(
                "PUT", "/api/push-registrations", as: "user-b", device: "b-tablet", body: body)
            #expect(saved.status == 200)
            #expect(saved.keys == ["registration"])
            #expect(saved["registration.installationId"] == "b-tablet")
            #expect(saved["registration.kind"] == "fcm")
            #expect(saved["registration.userId"] == "user-b")
            let phone = try await api.register("user-b", device: "b-phone")
            #expect(phone["registration.apnsEnvironment"] == "sandbox")

            let headerless = try await api.send("PUT", "/api/push-registrations", as: "user-b", body: body)
            #expect(headerless.isError(400, "invalid_request"))
            #expect(headerless.errorMessage?.contains("X-Device-Id") == true)
            let badDevice = try await api.send(
                "PUT", "/api/push-registrations", as: "user-b", device: "a b", body: body)
            #expect(badDevice.isError(400, "invalid_request"))
            let badPlatform = try await api.send(
                "PUT", "/api/push-registrations", as: "user-b", device: "b-phone",
                body: body.setting("platform", to: "sms"))
            #expect(badPlatform.isError(400, "invalid_request"))
            #expect(badPlatform.errorMessage?.contains("platform") == true)
            let noEnvironment = try await api.send(
                "PUT", "/api/push-registrations", as: "user-b", device: "b-phone",
                body: body.setting("platform", to: "apnsVoip"))
            #expect(noEnvironment.isError(400, "invalid_request"))
            let notJSON = try await api.send(
                "PUT", "/api/push-registrations", as: "user-b", device: "b-phone", rawBody: "{nope")
            #expect(notJSON.isError(400, "invalid_json"))
            #expect(
                try await api.send("PUT", "/api/push-registrations", device: "b-phone", body: body).isError(
                    401, "unauthenticated"))
            #expect(
                try await api.send("POST", "/api/push-registrations", as: "user-b", body: body).isError(
                    405, "method_not_allowed"))
            #expect(
                try await api.send(
                    "PUT", "/api/push-registrations", as: "user-a", device: "b-phone",
                    body: body.setting("token", to: "fcm-token-2")
                ).status
                    == 200, "another user's device is rebound, as in the reference API")
            #expect(
                try await api.send("DELETE", "/api/push-registrations/fcm", as: "user-a", device: "b-tablet").isError(
                    403, "installation_not_yours"))
            let owned = try api.server.service.store.transaction { tx in try tx.registrations(ofUser: "user-b") }
            #expect(owned.map(\.installationId) == ["b-tablet"])
        }
    }

    @Test func deletingARegistrationIs204AndStopsTheRinging() async throws {
        try await AlternateAPIHarness.run { api in
            try await api.register("user-b", device: "b-tablet", platform: "fcm")
            try await api.register("user-b", device: "b-phone")
            let deleted = try await api.send("DELETE", "/api/push-registrations/fcm", as: "user-b", device: "b-tablet")
            #expect(deleted.status == 204)
            #expect(deleted.json == .null)
            let left = try api.server.service.store.transaction { tx in try tx.registrations(ofUser: "user-b") }
            #expect(left.map(\.installationId) == ["b-phone"])
            #expect(
                try await api.send("DELETE", "/api/push-registrations/fcm", as: "user-b").isError(
                    400, "invalid_request"))
            #expect(
                try await api.send("DELETE", "/api/push-registrations/sms", as: "user-b", device: "b-phone").isError(
                    404, "not_found"))
            #expect(
                try await api.send("DELETE", "/api/push-registrations/fcm", device: "b-phone").isError(
                    401, "unauthenticated"))
        }
    }

    @Test func createIs201WithTheCallAndAReplayIsTheSame() async throws {
        try await AlternateAPIHarness.run { api in
            let callId = newCallId()
            let body = api.createBody(callId, requestId: "create-1").setting("video", to: true)
            let created = try await api.send("POST", "/api/v2/calls", as: "user-a", body: body)
            #expect(created.status == 201)
            #expect(created.keys == ["call"])
            #expect(created["call.callId"] == .string(callId))
            #expect(created["call.state"] == "ringing")
            #expect(created["call.revision"] == "1")
            #expect(created["call.calleeUserId"] == "user-b")
            #expect(created["call.caller.userId"] == "user-a")
            #expect(created["call.video"] == true)
            let replay = try await api.send("POST", "/api/v2/calls", as: "user-a", body: body)
            #expect(replay.status == 201)
            #expect(replay.json == created.json)

            let otherCallee = try await api.send(
                "POST", "/api/v2/calls", as: "user-a", body: body.setting("to", to: "user-c"))
            #expect(otherCallee.isError(409, "idempotency_conflict"))
            let reused = try await api.send(
                "POST", "/api/v2/calls", as: "user-a", body: api.createBody(callId, requestId: "create-2"))
            #expect(reused.status == 409)
            #expect(reused.keys == ["error", "call"])
            #expect(reused.errorCode == "call_exists")
            #expect(reused["call.callId"] == .string(callId))
            #expect(reused["call.state"] == "ringing")

            let fetched = try await api.send("GET", "/api/v2/calls/\(callId)", as: "user-b")
            #expect(fetched.status == 200)
            #expect(fetched.keys == ["call"])
            #expect(fetched["call"] == created["call"])
            #expect(
                try await api.send("GET", "/api/v2/calls/\(callId)", as: "user-c").isError(403, "not_a_participant"))
            #expect(
                try await api.send("GET", "/api/v2/calls/\(newCallId())", as: "user-a").isError(404, "call_not_found"))
            #expect(try await api.send("GET", "/api/v2/calls/\(callId)").isError(401, "unauthenticated"))
            #expect(
                try await api.send("DELETE", "/api/v2/calls/\(callId)", as: "user-a").isError(405, "method_not_allowed")
            )
        }
    }

    @Test func createRefusesTheReferenceNamesAndNamesTheAlternateField() async throws {
        try await AlternateAPIHarness.run { api in
            let callId = newCallId()
            let referenceBody: JSONValue = [
                "callId": .string(callId), "calleeUserId": "user-b", "operationId": "op-1",
            ]
            let refused = try await api.send("POST", "/api/v2/calls", as: "user-a", body: referenceBody)
            #expect(refused.isError(400, "invalid_request"))
            #expect(refused.errorMessage?.hasPrefix("id ") == true, "\(refused.errorMessage ?? "")")
            let noRequestId = try await api.send(
                "POST", "/api/v2/calls", as: "user-a", body: ["id": .string(callId), "to": "user-b"])
            #expect(noRequestId.errorMessage?.hasPrefix("requestId ") == true)
            let badId = try await api.send(
                "POST", "/api/v2/calls", as: "user-a", body: api.createBody("no spaces allowed"))
            #expect(badId.isError(400, "invalid_request"))
            #expect(try await api.create(as: "user-a", to: "user-z").isError(404, "user_not_found"))
            #expect(try await api.create(as: "user-a", to: "user-a").isError(400, "cannot_call_self"))
            var forged = api.request("POST", "/api/v2/calls", body: api.createBody(newCallId()))
            forged.headers.add("authorization", "Bearer token-nobody")
            let response = try await api.client.send(forged)
            #expect(APIReply(status: response.status, body: response.body).isError(401, "unauthenticated"))
        }
    }

    @Test func referenceRoutesAre404() async throws {
        try await AlternateAPIHarness.run { api in
            let callId = newCallId()
            #expect(try await api.create(callId).status == 201)
            let referenceRoutes: [(String, String, JSONValue?)] = [
                ("PUT", "/v1/installations/b-phone/push-tokens/fcm", ["token": "t", "appId": "a"]),
                ("POST", "/v1/calls", ["callId": .string(newCallId()), "calleeUserId": "user-b", "operationId": "o"]),
                ("GET", "/v1/calls/\(callId)", nil),
                ("POST", "/v1/calls/\(callId)/answer", ["operationId": "o", "installationId": "b-phone"]),
                ("POST", "/v1/calls/\(callId)/end", ["operationId": "o", "reason": "localHangup"]),
                ("POST", "/v1/calls/\(callId)/media-session", nil),
                ("GET", "/v1/call-events?installationId=b-phone", nil),
                ("POST", "/api/v2/calls/\(callId)/answer", ["requestId": "o"]),
            ]
            for (method, path, body) in referenceRoutes {
                let reply = try await api.send(method, path, as: "user-b", device: "b-phone", body: body)
                #expect(reply.isError(404, "not_found"), "\(method) \(path) answered \(reply.status)")
            }
            #expect(try await api.send("GET", "/api/v2/calls/\(callId)", as: "user-b")["call.state"] == "ringing")
        }
    }
}

extension APIReply {
    var errorMessage: String? { json.value(atPath: "error.message")?.stringValue }
}

import Foundation
import HTTP
import JSON
import PushMocks
import ReferenceBackend
import TestSupport
import Testing

/// `ringcheck serve-reference --api-shape`: documented, checked, and serving the alternate routes
/// with real pushes to the mocks.
@Suite struct AlternateAPICommandTests {
    @Test func helpDocumentsTheAPIShapes() async throws {
        let result = try await RingcheckBinary.run(["serve-reference", "--help"])
        #expect(result.status == 0)
        for text in [
            "--api-shape <SHAPE>", "API SHAPES", "alternate", "X-Device-Id", "/api/v2/calls/{id}/media-token",
            "GET /api/events?after=CURSOR&max=N", "--api-shape alternate",
        ] {
            #expect(result.stdout.contains(text), "'\(text)' missing from serve-reference --help")
        }
    }

    @Test func anUnknownShapeIsAUsageError() async throws {
        let result = try await RingcheckBinary.run(["serve-reference", "--api-shape", "sideways"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown --api-shape 'sideways'; use reference or alternate"))
        #expect(result.stdout.isEmpty)
    }

    @Test func servesTheAlternateRoutesAndPushesAsUsual() async throws {
        let mocks = try await MockStack.start(.forTests)
        defer { mocks.stop() }
        let server = try await ReferenceServerProcess.start(
            arguments: ["--port", "0", "--api-shape", "alternate"], environment: mocks.settings.environmentDictionary)
        let client = try HTTPClient(configuration: .init(timeoutSeconds: 20, httpVersion: .http1_1))
        defer { client.shutdown() }
        #expect(server.log.contains("api shape    alternate"))

        func send(_ method: String, _ path: String, as user: String, device: String? = nil, body: JSONValue? = nil)
            async throws -> APIReply
        {
            var headers: HTTPHeaders = ["authorization": "Bearer token-\(user)"]
            if let device { headers.add("x-device-id", device) }
            let request = ClientRequest(
                method: method, url: server.baseURL + path, headers: headers, body: body?.bytes() ?? [])
            let response = try await client.send(request)
            return APIReply(status: response.status, body: response.body)
        }

        let token = ReferenceAPIClient.apnsToken("alternate-cli-phone")
        let registered = try await send(
            "PUT", "/api/push-registrations", as: "user-b", device: "b-phone",
            body: [
                "platform": "apnsVoip", "token": .string(token), "appId": .string(mocks.providers.credentials.bundleID),
                "apnsEnvironment": "sandbox",
            ])
        #expect(registered.status == 200)
        let callId = UUID().uuidString.lowercased()
        let created = try await send(
            "POST", "/api/v2/calls", as: "user-a",
            body: ["id": .string(callId), "to": "user-b", "requestId": "cli-create"])
        #expect(created.status == 201)
        #expect(created["call.callId"] == .string(callId))
        let push = await mocks.log.waitFor(
            { $0.deviceToken == token && $0.outcome == .accepted }, timeout: .seconds(10))
        #expect(push?.callx?["callId"] == .string(callId), "the invitation is the same VoIP push as in reference mode")
        #expect(try await send("GET", "/v1/calls/\(callId)", as: "user-a").status == 404)
        #expect(try await send("GET", "/api/v2/calls/\(callId)", as: "user-a")["call.state"] == "ringing")
        #expect(await server.interrupt() == 0)
    }
}

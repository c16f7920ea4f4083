import JSON
import Testing

@testable import AllProfiles
@testable import Callx
@testable import Conformance
@testable import DialStack

/// The token API's file syntax is the engine's (`TokenAPIMapping`): a DialStack file's
/// `operations.registerToken`/`deleteToken`, `values.kind`/`apnsEnvironment` and `installation:` load,
/// wire and read back with DialStack alone registered (no Callx), exactly as through Callx's mapping
/// when every profile is registered; Callx's call operations are Callx's, so without it they are unknown.
@Suite struct TokenAPIMappingTests {
    static let dialStackOnly = ProfileRegistry([DialStackProfile()])

    static let tokenFile = """
        profile: dialstack
        baseURL: http://h
        \(TargetFileLoaderTests.users)
        webhook: {path: /w, secret: s}
        installation: {in: header, name: X-Device-Id}
        values:
          kind: {apnsVoip: voip, fcm: android}
          apnsEnvironment: {production: false, sandbox: true}
        operations:
          registerToken:
            method: POST
            path: /me/devices
            body: {kind: "{kind}", token: "{token}", sandbox: "{apnsEnvironment}"}
            statuses: {412: 409}
            response: {snapshot: registration, save: {deviceId: registration.id}}
          deleteToken: {method: DELETE, path: "/me/devices/{deviceId}"}
        """

    func target(_ profiles: ProfileRegistry) throws -> Target {
        try TargetFile.load(text: Self.tokenFile, file: "t.yaml", profiles: profiles).target(defaultAppId: "app")
    }

    func registration() -> PreparedRequest {
        var p = PreparedRequest(
            actor: "a", method: "PUT", path: "/v1/installations/i-1/push-tokens/apnsVoip", credentials: nil,
            operation: .registerToken)
        p.values = ["installationId": "i-1", "kind": "apnsVoip", "token": "t-1", "apnsEnvironment": "sandbox"]
        p.body = ["token": "t-1", "apnsEnvironment": "sandbox"]
        return p
    }

    @Test func theEngineDecodesTheTokenAPIWithoutCallx() throws {
        let file = try TargetFile.load(text: Self.tokenFile, file: "t.yaml", profiles: Self.dialStackOnly)
        let api = file.tokenAPI
        #expect(api.declared == [.registerToken, .deleteToken])
        #expect(api.installation == .header("X-Device-Id"))
        #expect(api[.registerToken].installation == .header("X-Device-Id"))
        #expect(api[.registerToken].response.save == ["deviceId": "registration.id"])
        #expect(api.values["kind"] == ["apnsVoip": "voip", "fcm": "android"])
        #expect(api.values["apnsEnvironment"] == ["production": false, "sandbox": true])
        let target = file.target(defaultAppId: "app")
        #expect(target.apiMapping is TokenAPIMapping)
        #expect(target.apiMapping.deletesPerToken)
        #expect(target.apiMapping.deleteTokenRoute == "DELETE /me/devices/{deviceId}")
    }

    @Test func itWiresAndReadsATokenRequestAsCallxsMappingDid() throws {
        let alone = try target(Self.dialStackOnly)
        let withCallx = try target(Profiles.registry)
        #expect(!(withCallx.apiMapping is TokenAPIMapping))
        let wired = alone.wire(registration())
        #expect(wired.method == "POST" && wired.path == "/me/devices")
        #expect(wired.body == ["kind": "voip", "token": "t-1", "sandbox": true])
        #expect(wired.headers.contains { $0 == ("x-device-id", "i-1") })
        let callx = withCallx.wire(registration())
        #expect(wired.method == callx.method && wired.path == callx.path && wired.body == callx.body)
        #expect(wired.headers.map { "\($0.0): \($0.1)" } == callx.headers.map { "\($0.0): \($0.1)" })
        let answer: JSONValue = ["registration": ["id": "d-1", "kind": "android"]]
        let read = alone.normalize(.registerToken, status: 412, json: answer)
        #expect(read.status == 409 && read.json == ["id": "d-1", "kind": "fcm"])
        let callxRead = withCallx.normalize(.registerToken, status: 412, json: answer)
        #expect(read.status == callxRead.status && read.json == callxRead.json)
        #expect(alone.apiMapping.savedValues(ofRegistration: answer).values == ["deviceId": "d-1"])
    }

    @Test func callxsCallOperationsAreNotTheEngines() throws {
        let text = Self.tokenFile + "\n  create: {method: POST, path: /calls}"
        do {
            _ = try TargetFile.load(text: text, file: "t.yaml", profiles: Self.dialStackOnly)
            Issue.record("a create mapping loaded without Callx")
        } catch {
            #expect(error.errors.map(\.message) == ["unknown field 'create'"])
        }
        let callx = try TargetFile.load(text: text, file: "t.yaml", profiles: Profiles.registry)
        #expect(callx.mapping.declared == [.create])
        #expect(callx.tokenAPI.declared == [.registerToken, .deleteToken])
    }

    /// Callx's mapping holds the engine's reading of the token operations itself, not a copy rebuilt from its
    /// own operations: the file's `tokenAPI`, which its subscript and the token answers read.
    @Test func callxsMappingHoldsTheEnginesTokenAPI() throws {
        let file = try TargetFile.load(
            text: Self.tokenFile + "\n  create: {method: POST, path: /calls}", file: "t.yaml",
            profiles: Profiles.registry)
        #expect(file.mapping.tokens == file.tokenAPI)
        #expect(file.mapping[.registerToken] == file.tokenAPI[.registerToken])
        #expect(file.mapping[.deleteToken].path == "/me/devices/{deviceId}")
        #expect(file.mapping.operations.keys.allSatisfy { $0 != .registerToken && $0 != .deleteToken })
        // A mapping built in code from a TokenAPIMapping alone: the token routes are its, the calls the reference's.
        var tokens = TokenAPIMapping()
        tokens.operations[.registerToken] = OperationMapping(method: "POST", path: "/me/devices", installation: .none)
        let built = TargetMapping(tokens: tokens)
        #expect(built[.registerToken].path == "/me/devices")
        #expect(built[.deleteToken] == TokenAPIMapping.reference(.deleteToken))
        #expect(built.isReference(.create))
    }
}

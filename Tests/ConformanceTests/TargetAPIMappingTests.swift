import JSON
import Testing

@testable import AllProfiles
@testable import Conformance

/// The engine's view of a target's API (`Target.apiMapping`): the canonical shape without a profile's
/// mapping, a profile configuration's own mapping when it supplies one, and a target file's token API
/// (route, per-token deletes, saved values, the clean-up's route) through Callx's configuration.
@Suite struct TargetAPIMappingTests {
    /// A mapping that moves every request under `/api`, and its token route with it.
    struct PrefixedAPI: TargetAPIMapping {
        func wire(_ request: PreparedRequest) -> PreparedRequest {
            var out = request
            out.path = "/api" + request.path
            return out
        }
        var tokenRoute: String { "/devices/{installationId}" }
    }

    struct PrefixedConfiguration: ProfileConfiguration {
        var apiMapping: (any TargetAPIMapping)? { PrefixedAPI() }
    }

    let bare = Target(name: "t", baseURL: "http://h", accounts: { _, _ in nil }, capabilities: [], appId: "app")

    func request(_ operation: RequestOperation?) -> PreparedRequest {
        PreparedRequest(actor: "a", method: "PUT", path: "/x", credentials: nil, operation: operation)
    }

    func fileTarget(_ operations: String) throws -> Target {
        try TargetFile.load(
            text:
                "baseURL: http://h\n\(TargetFileLoaderTests.users)\nprofile: dialstack\nwebhook: {path: /w, secret: s}\ninstallation: {in: none}\n"
                + operations, file: "t.yaml"
        ).target(defaultAppId: "app")
    }

    @Test func aTargetWithoutAProfilesMappingSpeaksTheCanonicalShape() {
        #expect(bare.wire(request(.registerToken)).path == "/x")
        let answer: JSONValue = ["gap": ["reason": "x"]]
        let n = bare.normalize(.registerToken, status: 404, json: answer)
        #expect(n.status == 404 && n.json == answer && n.media == nil)
        #expect(bare.tokenRoute == "/v1/installations/{installationId}/push-tokens/{kind}")
        #expect(bare.apiMapping.deleteTokenRoute == "DELETE /v1/installations/{installationId}/push-tokens/{kind}")
        #expect(!bare.apiMapping.deletesPerToken && bare.apiMapping.registrationWithoutDelete == nil)
    }

    @Test func aProfileConfigurationsMappingIsTheTargets() {
        var target = bare
        target.profileConfiguration[PrefixedConfiguration.self] = PrefixedConfiguration()
        #expect(target.wire(request(.deleteToken)).path == "/api/x")
        #expect(target.tokenRoute == "/devices/{installationId}")
        #expect(target.apiMapping.deleteTokenRoute == "DELETE /devices/{installationId}")
    }

    @Test func aTargetFilesTokenOperationsAreTheEnginesTokenAPI() throws {
        let target = try fileTarget(
            """
            operations:
              registerToken: {method: POST, path: /me/devices, response: {save: {deviceId: device.id}}}
              deleteToken: {method: DELETE, path: "/me/devices/{deviceId}"}
            """)
        let api = target.apiMapping
        #expect(api.deletesPerToken)
        #expect(api.deleteTokenRoute == "DELETE /me/devices/{deviceId}")
        #expect(api.registrationWithoutDelete == nil)
        let saved = api.savedValues(ofRegistration: ["device": ["id": "d-1"]])
        #expect(saved.values == ["deviceId": "d-1"] && saved.missing.isEmpty)
        #expect(api.savedValues(ofRegistration: ["id": "d-1"]).missing.map(\.path) == ["device.id"])
        #expect(target.wire(request(.registerToken)).path == "/me/devices")
    }

    @Test func aRegistrationWithoutADeleteIsNamedForTheCleanUpsWarning() throws {
        let target = try fileTarget("operations: {registerToken: {method: POST, path: /me/devices}}")
        #expect(target.apiMapping.registrationWithoutDelete == "POST /me/devices")
        #expect(!target.apiMapping.deletesPerToken)
    }
}

import JSON
import Testing

@testable import AllProfiles
@testable import Callx
@testable import Conformance

/// The token operations of a target file: deleteToken by `{token}` or by a value registerToken's answer saved,
/// a body per token kind, and `apnsEnvironment` sent as the backend's own JSON value (a boolean too).
@Suite struct TargetFileTokenMappingTests {
    func load(_ extra: String) throws(SuiteLoadError) -> TargetFile {
        // The device API of these backends names no installation in its paths.
        try TargetFile.load(
            text: "baseURL: http://h\n\(TargetFileLoaderTests.users)\ninstallation: {in: none}\n\(extra)",
            file: "t.yaml")
    }

    func errors(_ extra: String) -> [String] {
        do {
            _ = try load(extra)
            return []
        } catch { return error.errors.map(\.description) }
    }

    /// A canonical registration of device `inst-1`, as the engine builds it.
    func register(_ kind: String, environment: String? = "production") -> PreparedRequest {
        var body: [(key: String, value: JSONValue)] = [("token", "tok/1"), ("appId", "com.x")]
        if let environment { body.append(("apnsEnvironment", .string(environment))) }
        return PreparedRequest(
            actor: "b-phone", method: "PUT", path: "", body: .object(body), operation: .registerToken,
            values: ["installationId": "inst-1", "kind": .string(kind), "userId": "ub", "token": "tok/1"])
    }

    func delete(_ values: [String: JSONValue]) -> PreparedRequest {
        var all: [String: JSONValue] = [
            "installationId": "inst-1", "kind": "apnsVoip", "userId": "ub", "token": "tok/1",
        ]
        for (k, v) in values { all[k] = v }
        return PreparedRequest(actor: "b-phone", method: "DELETE", path: "", operation: .deleteToken, values: all)
    }

    @Test func deleteTokenMayNameThePushToken() throws {
        let m = try load("operations:\n  deleteToken: {method: DELETE, path: \"/me/devices/{token}\"}").mapping
        #expect(m.apply(delete([:])).path == "/me/devices/tok%2F1")
        #expect(m.deletesPerToken)
        #expect(!TargetMapping().deletesPerToken)
    }

    @Test func registerTokenSavesAValueOfItsAnswerForDeleteToken() throws {
        let m = try load(
            """
            operations:
              registerToken: {method: POST, path: /me/devices, body: {pushToken: "{token}"}, response: {save: {deviceId: device.id}}}
              deleteToken: {method: DELETE, path: "/me/devices/{deviceId}", headers: {X-Kind: "{kind}"}}
            """
        ).mapping
        #expect(m[.registerToken].response.save == ["deviceId": "device.id"])
        #expect(m.savedRegistrationValues == ["deviceId"])
        #expect(m.deletesPerToken)
        #expect(m.apply(delete(["deviceId": "dev_42"])).path == "/me/devices/dev_42")
        #expect(m.tokens.declared == [.registerToken, .deleteToken])
        #expect(m.declared.isEmpty)
    }

    @Test func mistakesInTheTokenOperationsAreReportedWithTheirPlace() {
        let save = "operations:\n  registerToken: {response: {save: {deviceId: id}}}\n"
        #expect(
            errors(save + "  deleteToken: {path: \"/me/devices/{deviceID}\"}")
                == [
                    "t.yaml:9:23: operations.deleteToken.path: unknown placeholder '{deviceID}' (did you mean 'deviceId'?); deleteToken has {userId}, {installationId}, {kind}, {token}, {deviceId}"
                ])
        // Without registerToken's save there is no {deviceId}.
        #expect(
            errors("operations:\n  deleteToken: {path: \"/me/devices/{deviceId}\"}")
                == [
                    "t.yaml:8:23: operations.deleteToken.path: unknown placeholder '{deviceId}'; deleteToken has {userId}, {installationId}, {kind}, {token}"
                ])
        #expect(
            errors("operations:\n  create: {response: {save: {x: id}}}")
                == [
                    "t.yaml:8:23: operations.create.response.save: 'save' applies to registerToken only (its answer's values go to deleteToken), not create"
                ])
        #expect(
            errors("operations:\n  registerToken: {response: {save: {token: id, 1d: id, ok: \"\"}}}")
                == [
                    "t.yaml:8:37: operations.registerToken.response.save.token: '{token}' is already a placeholder ringcheck fills; save the value under another name",
                    "t.yaml:8:48: operations.registerToken.response.save.1d: '1d' cannot be a placeholder name (letters, digits and _, starting with a letter)",
                    "t.yaml:8:60: operations.registerToken.response.save.ok: expected a dotted path in the answer, such as id",
                ])
        #expect(
            errors("operations:\n  registerToken: {bodyByKind: {apnsvoip: {}}}")
                == [
                    "t.yaml:8:32: operations.registerToken.bodyByKind.apnsvoip: 'apnsvoip' is no token kind of the reference design (did you mean 'apnsVoip'?) (known: apnsVoip, fcm)"
                ])
        #expect(
            errors("operations:\n  create: {bodyByKind: {fcm: {}}}")
                == [
                    "t.yaml:8:12: operations.create.bodyByKind: 'bodyByKind' applies to operations about one token kind (registerToken, deleteToken), not create"
                ])
        #expect(
            errors("operations:\n  registerToken: {bodyByKind: {fcm: {t: \"{tokn}\"}}}").first?.hasPrefix(
                "t.yaml:8:37: operations.registerToken.bodyByKind.fcm: unknown placeholder '{tokn}' (did you mean 'token'?)"
            )
                == true)
        #expect(
            errors("values:\n  apnsEnvironment: {production: false, sandbx: [1]}")
                == [
                    "t.yaml:8:40: values.apnsEnvironment.sandbx: 'sandbx' is no apnsEnvironment of the reference design (did you mean 'sandbox'?) (known: production, sandbox)",
                    "t.yaml:8:48: values.apnsEnvironment.sandbx: expected text, true, false or a number, got sequence",
                ])
        // Two environments may share one value (many-to-one maps are read back as not applicable).
        #expect(errors("values:\n  apnsEnvironment: {production: false, sandbox: false}") == [])
    }

    @Test func theAPNsEnvironmentGoesOutAsTheBackendsOwnJSONValue() throws {
        let m = try load(
            """
            values: {apnsEnvironment: {production: false, sandbox: true}}
            operations:
              registerToken: {path: /me/devices, body: {sandbox: "{apnsEnvironment}", env: "env-{apnsEnvironment}"}}
            """
        ).mapping
        #expect(m.apply(register("apnsVoip")).body?["sandbox"] == .bool(false))
        #expect(m.apply(register("apnsVoip", environment: "sandbox")).body?["sandbox"] == .bool(true))
        #expect(m.apply(register("apnsVoip")).body?["env"] == "env-false")
        // No environment (an FCM token): the member is left out, as for every missing whole-value placeholder.
        #expect(m.apply(register("fcm", environment: nil)).body?["sandbox"] == nil)
        // Quoted in YAML, it stays text; and the canonical body (no template) takes the mapped value too.
        let quoted = try load("values: {apnsEnvironment: {production: \"false\"}}").mapping
        #expect(quoted.apply(register("apnsVoip")).body?["apnsEnvironment"] == "false")
        #expect(quoted.incoming(["apnsEnvironment": "false"]) == ["apnsEnvironment": "production"])
    }

    @Test func eachTokenKindMayHaveItsOwnBody() throws {
        let m = try load(
            """
            values: {kind: {apnsVoip: ios, fcm: android}, apnsEnvironment: {production: false, sandbox: true}}
            operations:
              registerToken:
                method: POST
                path: /me/devices
                body: {os: "{kind}", pushToken: "{token}", fallback: true}
                bodyByKind:
                  apnsVoip: {os: "{kind}", pushToken: "{token}", voip: true, sandbox: "{apnsEnvironment}"}
            """
        ).mapping
        let ios = m.apply(register("apnsVoip"))
        #expect(ios.body == ["os": "ios", "pushToken": "tok/1", "voip": true, "sandbox": false])
        // A kind bodyByKind does not name sends `body`.
        let android = m.apply(register("fcm", environment: nil))
        #expect(android.body == ["os": "android", "pushToken": "tok/1", "fallback": true])
    }
}

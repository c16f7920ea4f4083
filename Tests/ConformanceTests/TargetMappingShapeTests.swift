import Foundation
import JSON
import Testing

@testable import AllProfiles
@testable import Callx
@testable import Conformance

/// What a backend unlike the reference needs from its target file: value maps both ways, numeric
/// members, the installation on create and get, media fields with a JWT expiry, raw requests judged
/// by method and path, and whether it places video calls.
@Suite struct TargetMappingShapeTests {
    func file(_ extra: String) throws(SuiteLoadError) -> TargetFile {
        try TargetFile.load(text: "baseURL: http://h\n\(TargetFileLoaderTests.users)\n\(extra)", file: "t.yaml")
    }

    func errors(_ extra: String) -> [String] {
        do {
            _ = try file(extra)
            return []
        } catch { return error.errors.map(\.description) }
    }

    func header(_ p: PreparedRequest, _ name: String) -> String? { p.headers.first { $0.0 == name }?.1 }

    static let node = """
        values:
          kind: {apnsVoip: voip}
          reason: {callerCancelled: cancel, remoteEnded: hangup}
          state: {ringing: RINGING, accepted: ACTIVE, ended: ENDED}
        numbers: [revision, cursor]
        operations:
          registerToken: {path: /regs, body: {platform: "{kind}", token: "{token}"}, installation: {in: header, name: D}}
          deleteToken: {path: "/regs/{kind}", installation: {in: header, name: D}}
          events: {path: "/events?after={cursor}", body: {after: "{cursor}"}}
        """

    // MARK: Value maps

    @Test func enumerationsGoOutInTheTargetsWords() throws {
        let m = try file(Self.node).mapping
        let register = PreparedRequest(
            actor: "b-phone", method: "PUT", path: "", body: ["token": "abc"], operation: .registerToken,
            values: ["installationId": "i-1", "kind": "apnsVoip", "userId": "ub"])
        #expect(m.apply(register).body?["platform"] == "voip")
        let delete = PreparedRequest(
            actor: "b-phone", method: "DELETE", path: "", operation: .deleteToken,
            values: ["installationId": "i-1", "kind": "apnsVoip", "userId": "ub"])
        #expect(m.apply(delete).path == "/regs/voip")
        // The canonical body (no template) is renamed too; an unmapped value passes unchanged.
        let end = PreparedRequest(
            actor: "a", method: "POST", path: "", body: ["operationId": "op-1", "reason": "callerCancelled"],
            operation: .end, values: ["callId": "c-1", "userId": "ua"])
        #expect(m.apply(end).body?["reason"] == "cancel")
        var declined = end
        declined.body = ["operationId": "op-1", "reason": "declined"]
        #expect(m.apply(declined).body?["reason"] == "declined")
    }

    @Test func answersAreReadBackThroughTheSameMap() throws {
        let m = try file(Self.node).mapping
        let ended = try JSONValue.parse(
            #"{"callId": "c-1", "state": "ENDED", "endReason": "cancel", "revision": 3, "caller": {"userId": "ua"}}"#)
        let n = m.normalize(.get, status: 200, json: ended)
        #expect(n.json?["state"] == "ended")
        #expect(n.json?["endReason"] == "callerCancelled")
        #expect(n.json?["revision"] == "3")
        // Conflicts carry the call too; events are read back at any depth, cursors as text.
        let conflict = try JSONValue.parse(#"{"error": {"code": "x"}, "state": "ACTIVE", "revision": 2}"#)
        #expect(m.normalize(.answer, status: 409, json: conflict).json?["state"] == "accepted")
        let page = try JSONValue.parse(
            #"{"events": [{"type": "call.ended", "reason": "hangup", "revision": 4}], "nextCursor": 17, "gap": false}"#)
        let events = m.normalize(.events, status: 200, json: page).json
        #expect(events?["nextCursor"] == "17")
        #expect(events?["events"]?.arrayValue?.first?["reason"] == "remoteEnded")
        #expect(events?["events"]?.arrayValue?.first?["revision"] == "4")
    }

    @Test func numericIdsAreReadAsTheirDecimalText() throws {
        let m = try file("numbers: [eventId, callId]").mapping
        let page = try JSONValue.parse(#"{"events": [{"eventId": 901, "callId": 77, "revision": "2"}], "gap": false}"#)
        let e = m.normalize(.events, status: 200, json: page).json?["events"]?.arrayValue?.first
        #expect(e?["eventId"] == "901")
        #expect(e?["callId"] == "77")
        // Only the declared members: a revision already text stays, an undeclared number stays a number.
        #expect(e?["revision"] == "2")
        let snapshot = try JSONValue.parse(#"{"callId": 77, "revision": 3}"#)
        #expect(m.normalize(.get, status: 200, json: snapshot).json?["revision"] == .number("3"))
    }

    @Test func withoutMapsTheAnswerIsLeftAsItIs() throws {
        let json = try JSONValue.parse(#"{"state": "ENDED", "revision": 3}"#)
        let n = try file("").mapping.normalize(.get, status: 200, json: json)
        #expect(n.json?["state"] == "ENDED")
        #expect(n.json?["revision"] == .number("3"))
    }

    @Test func declaredNumbersGoOutAsNumbers() throws {
        let m = try file(Self.node).mapping
        let poll = PreparedRequest(
            actor: "a", method: "GET", path: "", operation: .events,
            values: ["installationId": "i-1", "userId": "ua", "cursor": "42"])
        let wire = m.apply(poll)
        #expect(wire.path.hasPrefix("/events?after=42"))
        #expect(wire.body?["after"] == .number("42"))
        // A cursor that is not a number (a scenario's unknown cursor) goes as it is.
        var odd = poll
        odd.values["cursor"] = "not-a-cursor"
        #expect(m.apply(odd).body?["after"] == "not-a-cursor")
    }

    @Test func badMapsAreRefusedWithLineAndField() {
        let found = errors(
            """
            values:
              kind: {apnsVoIP: voip}
              reason: {callerCancelled: end, remoteEnded: end}
              colour: {red: rot}
            numbers: [revision, size]
            """)
        #expect(found.contains { $0.contains("values.kind.apnsVoIP:") && $0.contains("did you mean") }, "\(found)")
        // Two end reasons sharing one word is a many-to-one map, not an error.
        #expect(!found.contains { $0.contains("values.reason") }, "\(found)")
        #expect(found.contains { $0.contains("unknown key 'colour'") || $0.contains("'colour'") })
        #expect(found.contains { $0.contains("numbers[1]: 'size' cannot be a number") })
    }

    // MARK: Installation on every operation

    @Test func createAndGetCarryTheCallersInstallation() throws {
        let m = try file("installation: {in: header, name: X-Device-Id}").mapping
        let create = PreparedRequest(
            actor: "a", method: "POST", path: "/v1/calls", body: ["callId": "c-1", "calleeUserId": "ub"],
            operation: .create, values: ["userId": "ua"], actorInstallation: "a-feed")
        #expect(header(m.apply(create), "x-device-id") == "a-feed")
        let get = PreparedRequest(
            actor: "a", method: "GET", path: "", operation: .get, values: ["callId": "c-1", "userId": "ua"],
            actorInstallation: "a-feed")
        #expect(header(m.apply(get), "x-device-id") == "a-feed")
        // A caller's end carries it too where the target places installations in a header (every actor has
        // an installation; in the reference design only a device's end names one).
        let end = PreparedRequest(
            actor: "a", method: "POST", path: "", body: ["operationId": "op-1", "reason": "remoteEnded"],
            operation: .end, values: ["callId": "c-1", "userId": "ua"], actorInstallation: "a-feed")
        #expect(header(m.apply(end), "x-device-id") == "a-feed")
        // The reference shape is unchanged: create sends no installation.
        #expect(TargetMapping().apply(create).headers.isEmpty)
        #expect(TargetMapping().apply(create).body?["installationId"] == nil)
    }

    // MARK: Media fields

    static func jwt(_ claims: String) -> String {
        func b64(_ s: String) -> String {
            Data(s.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        }
        return b64(#"{"alg":"HS256"}"#) + "." + b64(claims) + ".c2ln"
    }

    @Test func theMediaExpiryIsReadFromTheTokensExpClaim() throws {
        let m = try file(
            """
            operations:
              mediaSession:
                response: {media: "", fields: {expiresAtMs: {jwtExp: accessToken}, room: grant.room}}
            """
        ).mapping
        let body: JSONValue = [
            "accessToken": .string(Self.jwt(#"{"sub":"ub","exp":1790000300}"#)), "grant": ["room": "r-1"],
        ]
        let n = m.normalize(.mediaSession, status: 200, json: body)
        #expect(n.json?["expiresAtMs"] == .number("1790000300000"))
        #expect(n.json?["room"] == "r-1")
        #expect(n.media?["expiresAtMs"] == .number("1790000300000"))
        // A token that is no JWT gives no expiry (the scenario's check then fails on it).
        let broken = m.normalize(.mediaSession, status: 200, json: ["accessToken": "opaque"])
        #expect(broken.json?["expiresAtMs"] == nil)
    }

    @Test func jwtFieldsAreRefusedWhereNoMediaIs() {
        let found = errors("operations: {get: {response: {fields: {expiresAtMs: {jwtExp: t}}}}}")
        #expect(found.contains { $0.contains("operations.get.response.fields") })
    }

    @Test func snapshotFromGetIsDeclaredPerOperation() throws {
        let m = try file("operations: {end: {response: {snapshotFromGet: true}}}").mapping
        #expect(m[.end].response.snapshotByGet)
        #expect(!m[.create].response.snapshotByGet)
    }

    // MARK: Raw requests and video

    static func rawScenario(_ method: String, _ path: String) -> Scenario {
        let raw = RawRequestStep(
            actor: nil, auth: .none, method: method, path: .string(path), headers: [:], body: nil,
            options: RequestOptions())
        return Scenario(
            id: "x.raw", title: "t", requirements: ["R"],
            steps: [ScenarioStep(.request(raw), path: "steps[0]", mark: YAMLMark(line: 1, column: 1))])
    }

    @Test func aRawRequestAppliesWhereTheTargetKeepsItsMethodAndPath() throws {
        let scenario = Self.rawScenario("GET", "/v1/calls/${call.callId}")
        // Another response shape, a header installation: the same route, so the raw request applies.
        let same = try file(
            """
            installation: {in: header, name: X-Device-Id}
            operations: {get: {response: {snapshot: call}}}
            """
        ).mapping
        #expect(same.rawRequestProblem(scenario) == nil)
        let moved = try file("operations: {get: {path: '/calls/{callId}'}}").mapping
        #expect(moved.rawRequestProblem(scenario)?.contains("maps get to GET /calls/{callId}") == true)
        let method = try file("operations: {get: {method: POST}}").mapping
        #expect(method.rawRequestProblem(scenario)?.contains("maps get to POST /v1/calls/{callId}") == true)
    }

    @Test func videoScenariosNeedATargetThatPlacesVideoCalls() throws {
        let create = CreateCallStep(actor: .user("a"), callee: "b", video: true, body: nil, options: RequestOptions())
        let scenario = Scenario(
            id: "x.video", title: "t", requirements: ["R"], users: ["a", "b"],
            steps: [
                ScenarioStep(.profile(AnyProfileStep(create)), path: "steps[0]", mark: YAMLMark(line: 1, column: 1))
            ])
        let without = try file("").target(defaultAppId: "com.x")
        #expect(!without.supportsVideo)
        #expect(
            without.notApplicableReason(scenario)
                == "steps[0] creates a video call, and the target does not declare videoCalls")
        let with = try file("capabilities: [videoCalls]").target(defaultAppId: "com.x")
        #expect(with.notApplicableReason(scenario) == nil)
        var audio = scenario
        audio.steps = [
            ScenarioStep(
                .profile(
                    AnyProfileStep(
                        CreateCallStep(
                            actor: .user("a"), callee: "b", video: nil, body: nil, options: RequestOptions()))),
                path: "steps[0]",
                mark: YAMLMark(line: 1, column: 1))
        ]
        #expect(without.notApplicableReason(audio) == nil)
    }
}

/// `${RINGCHECK_…}` in a target file: what the run fills in, and where.
@Suite struct TargetRunVariablesTests {
    @Test func theRunFillsInItsVariablesWhereverTheFileNamesThem() throws {
        let file = try TargetFile.load(
            text: """
                baseURL: http://127.0.0.1:${RINGCHECK_BACKEND_PORT}
                \(TargetFileLoaderTests.users)
                lifecycle:
                  start: ["${RINGCHECK_EXECUTABLE}", serve-reference, --port, "${RINGCHECK_BACKEND_PORT}", --db, "${RINGCHECK_BACKEND_STATE_DIR}/b.db"]
                  restart: "kill -HUP $(cat pid) # ${UNKNOWN}"
                  ready: {url: "http://127.0.0.1:${RINGCHECK_BACKEND_PORT}/health"}
                  environment: {DATA: "${RINGCHECK_BACKEND_STATE_DIR}/data", TWIN_PORT: "${RINGCHECK_BACKEND_SECOND_PORT}"}
                """, file: "t.yaml")
        #expect(file.runVariablesUsed == Set(TargetRunVariables.names))
        let filled = file.filling(
            TargetRunVariables([
                "RINGCHECK_EXECUTABLE": "/opt/rc", "RINGCHECK_BACKEND_PORT": "4711",
                "RINGCHECK_BACKEND_STATE_DIR": "/s", "RINGCHECK_BACKEND_SECOND_PORT": "4712",
            ]))
        #expect(filled.baseURL == "http://127.0.0.1:4711")
        #expect(filled.name == "http://127.0.0.1:4711")
        #expect(filled.lifecycle?.start?.argv == ["/opt/rc", "serve-reference", "--port", "4711", "--db", "/s/b.db"])
        #expect(filled.lifecycle?.restart?.argv.last == "kill -HUP $(cat pid) # ${UNKNOWN}")
        #expect(filled.lifecycle?.ready?.url == "http://127.0.0.1:4711/health")
        #expect(filled.lifecycle?.environment["DATA"] == "/s/data")
        #expect(filled.lifecycle?.environment["TWIN_PORT"] == "4712")
        // The commands also get them in their environment.
        #expect(filled.lifecycle?.environment["RINGCHECK_BACKEND_PORT"] == "4711")
        let plain = try TargetFile.load(text: "baseURL: http://h\n\(TargetFileLoaderTests.users)", file: "t.yaml")
        #expect(plain.runVariablesUsed.isEmpty)
    }
}

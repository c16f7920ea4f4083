import Foundation
import JSON
import PushMocks
import TestSupport
import Testing

/// The OpenAPI document describes the answers as they really are: real answers of a running
/// `MockStack` (captures of APNs, OAuth and FCM traffic, fault plans, devices, the OneSignal audience;
/// successes and errors) are validated against the document's schema for their operation and status,
/// and the bodies sent against its request schemas, by an independent OpenAPI 3.1 validator
/// (`openapi-spec-validator`, with `openapi-schema-validator`, from PyPI) in the venv `RINGCHECK_PYTHON`
/// names, which `.ci/run` sets up. Skipped outside CI when the variable is unset, failed in CI.
@Suite struct MockStackOpenAPIShapesTests {
    /// One exchange: the request as documented (method, path template), what was sent, what came back.
    struct Exchange {
        var method: String
        var template: String
        var body: String?
        var status: Int
        var response: String

        var json: JSONValue {
            [
                "method": .string(method), "template": .string(template), "body": body.map { .string($0) } ?? .null,
                "status": .int(status), "response": .string(response),
            ]
        }
    }

    /// Checks the document is valid OpenAPI, then each exchange; prints a JSON list of problems.
    static let validator = #"""
        import json, sys
        from openapi_spec_validator import validate as validate_spec
        from openapi_schema_validator import OAS31Validator

        doc = json.load(open(sys.argv[1]))
        exchanges = json.load(open(sys.argv[2]))
        problems = []
        try:
            validate_spec(doc)
        except Exception as e:
            problems.append("the document is not valid OpenAPI: %s" % e)

        def deref(node):
            while isinstance(node, dict) and set(node) == {"$ref"}:
                target = doc
                for part in node["$ref"].lstrip("#/").split("/"):
                    target = target[part]
                node = target
            return node

        def check(schema, value, what):
            # The schema's $refs point into the document: validate inside a copy that carries its components.
            wrapper = {"allOf": [schema], "components": doc["components"]}
            errors = sorted(OAS31Validator(wrapper).iter_errors(value), key=lambda e: list(e.path))
            for e in errors[:3]:
                problems.append("%s: %s at %s" % (what, e.message[:300], "/".join(map(str, e.path))))

        for x in exchanges:
            what = "%s %s -> %d" % (x["method"], x["template"], x["status"])
            operation = doc["paths"].get(x["template"], {}).get(x["method"].lower())
            if operation is None:
                problems.append("%s: not documented" % what)
                continue
            response = operation["responses"].get(str(x["status"]))
            if response is None:
                problems.append("%s: status not documented" % what)
                continue
            response = deref(response)
            check(response["content"]["application/json"]["schema"], json.loads(x["response"]), what)
            if x["body"] is not None and x["status"] < 300:
                request = deref(operation["requestBody"])
                check(request["content"]["application/json"]["schema"], json.loads(x["body"]), what + " request")
        print(json.dumps(problems))
        """#

    @Test(VenvPython.enabled)
    func realAnswersMatchTheDocumentedSchemas() async throws {
        let mocks = try await MockStackHarness.start()
        let clients = mocks.clients
        guard
            let python = await VenvPython.interpreter(
                importing: "openapi_spec_validator", package: "openapi-spec-validator", clients: clients)
        else { return }
        var exchanges: [Exchange] = []
        func exchange(_ method: String, _ template: String, _ path: String? = nil, body: String? = nil) async throws {
            let r = try await clients.control(method, path ?? template, body: body)
            exchanges.append(
                Exchange(method: method, template: template, body: body, status: r.status, response: r.body))
        }

        // Traffic to capture: an accepted and a rejected APNs push, the Google OAuth + FCM flow.
        let jwt = try #require(try await clients.providerTokens()["valid"])
        #expect(try await clients.apnsPush(jwt: jwt).status == 200)
        #expect(try await clients.apnsPush(jwt: jwt, overrides: [("apns-topic", "wrong.topic")]).status == 400)
        _ = try await clients.googleSend([MockFixture.callxMessage()])
        let token = String(repeating: "cd", count: 32)

        try await exchange("GET", "/v1/health")
        try await exchange("GET", "/v1/openapi.json")
        try await exchange("GET", "/v1/captures", "/v1/captures?reveal=true")
        try await exchange("GET", "/v1/captures", "/v1/captures?mock=apns&limit=1")
        try await exchange("GET", "/v1/captures", "/v1/captures?mock=gcm")
        try await exchange("GET", "/v1/captures", "/v1/captures?devicetoken=x")
        try await exchange("GET", "/v1/captures/wait", "/v1/captures/wait?mock=fcm&count=1&timeoutMs=60000")
        try await exchange("GET", "/v1/captures/wait", "/v1/captures/wait?mock=onesignal&timeoutMs=0")
        try await exchange(
            "POST", "/v1/faults",
            body: #"{"id":"outage","mock":"apns","times":2,"respond":{"reason":"ServiceUnavailable"},"retryAfter":5}"#)
        try await exchange(
            "POST", "/v1/faults", body: #"[{"connection":"goaway","goawayErrorCode":2},{"latencyMs":1}]"#)
        try await exchange("POST", "/v1/faults", body: #"{"times":0,"connection":"explode"}"#)
        try await exchange("GET", "/v1/faults")
        #expect(try await clients.apnsPush(jwt: jwt).status == 503)  // a capture with its fault
        try await exchange("GET", "/v1/captures", "/v1/captures?since=3")
        try await exchange("DELETE", "/v1/faults/{id}", "/v1/faults/outage")
        try await exchange("DELETE", "/v1/faults/{id}", "/v1/faults/outage")
        try await exchange("DELETE", "/v1/faults")
        try await exchange(
            "POST", "/v1/devices", body: #"{"deviceToken":"\#(token)","environment":"sandbox","status":"unregistered"}"#
        )
        try await exchange("POST", "/v1/devices", body: #"{"environment":"moon"}"#)
        try await exchange("GET", "/v1/devices")
        try await exchange("DELETE", "/v1/devices/{token}", "/v1/devices/\(token)")
        try await exchange("DELETE", "/v1/devices/{token}", "/v1/devices/\(token)")
        try await exchange("DELETE", "/v1/devices")
        try await exchange("DELETE", "/v1/oauth/tokens")
        try await exchange("GET", "/v1/onesignal/apps", "/v1/onesignal/apps?reveal=true")
        try await exchange(
            "PUT", "/v1/onesignal/apps/{app}", "/v1/onesignal/apps/voip", body: #"{"emptyAudience":"invalidAliases"}"#)
        try await exchange(
            "PATCH", "/v1/onesignal/apps/{app}", "/v1/onesignal/apps/voip", body: #"{"emptyAudience":"notSubscribed"}"#)
        try await exchange(
            "PUT", "/v1/onesignal/apps/{app}", "/v1/onesignal/apps/voip", body: #"{"emptyAudience":"silence"}"#)
        try await exchange(
            "PUT", "/v1/onesignal/apps/{app}", "/v1/onesignal/apps/marketing",
            body: #"{"emptyAudience":"notSubscribed"}"#)
        try await exchange(
            "PUT", "/v1/onesignal/subscriptions",
            body: #"[{"app":"standard","externalId":"u1"},{"app":"voip","externalId":"u1","devices":2}]"#)
        try await exchange(
            "POST", "/v1/onesignal/subscriptions", body: #"{"subscriptions":[{"app":"standard","externalId":"u2"}]}"#)
        try await exchange("PUT", "/v1/onesignal/subscriptions", body: #"{"app":"standard"}"#)
        try await exchange("GET", "/v1/onesignal/subscriptions")
        try await exchange(
            "DELETE", "/v1/onesignal/subscriptions", "/v1/onesignal/subscriptions?app=standard&externalId=u1")
        try await exchange(
            "DELETE", "/v1/onesignal/subscriptions", "/v1/onesignal/subscriptions?app=nope&externalId=u1")
        try await exchange("DELETE", "/v1/onesignal/subscriptions")
        try await exchange("DELETE", "/v1/onesignal/audience")
        try await exchange("DELETE", "/v1/captures")

        // Every documented operation was exercised at least once.
        let document = try JSONValue.parse(ControlAPI.openAPIDocument)
        var documented: Set<String> = []
        for (path, item) in document["paths"]?.objectValue ?? [] {
            for (method, _) in item.objectValue ?? [] { documented.insert("\(method.uppercased()) \(path)") }
        }
        #expect(documented.subtracting(exchanges.map { "\($0.method) \($0.template)" }).isEmpty)

        let documentFile = try mocks.directory.write("openapi.json", ControlAPI.openAPIDocument)
        let exchangesFile = try mocks.directory.write(
            "exchanges.json", JSONValue.array(exchanges.map(\.json)).serialized())
        let r = try await clients.run(python, ["-c", Self.validator, documentFile, exchangesFile], timeout: 120)
        #expect(r.status == 0, "\(r.stderr)")
        let problems = (try? JSONValue.parse(r.stdoutBytes))?.arrayValue?.compactMap(\.stringValue)
        #expect(problems == [], "\(problems ?? [r.stdout])")
    }
}

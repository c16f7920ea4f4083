import JSON
import PushMocks
import TestSupport
import Testing

/// The OpenAPI document held to the server that really runs: a `MockStack` on ephemeral ports, asked
/// with curl. Every documented operation is routed (neither 404 nor 405), every other method on a
/// documented path is 405 with an `Allow` header naming exactly the documented ones, an undocumented
/// path is 404, and a query parameter an operation does not document is 400 naming it.
@Suite struct MockStackOpenAPIRoutesTests {
    let mocks: MockStackHarness
    var clients: MockStackClients { mocks.clients }
    let document: JSONValue

    /// Every method a client might try.
    static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
    /// A concrete value for each path parameter, for a resource `prepare()` makes exist.
    static let values = ["id": "probe-fault", "token": String(repeating: "ab", count: 32), "app": "standard"]
    /// Queries some operations need to answer at once (the wait would otherwise take its 5 s default).
    static let probeQueries = ["waitForCaptures": "timeoutMs=0"]

    init() async throws {
        mocks = try await MockStackHarness.start()
        document = try JSONValue.parse(ControlAPI.openAPIDocument)
    }

    /// The documented paths with their methods (upper case) and operation IDs.
    var documented: [(path: String, operations: [(method: String, id: String)])] {
        (document["paths"]?.objectValue ?? []).map { path, item in
            (path, (item.objectValue ?? []).map { ($0.key.uppercased(), $0.value["operationId"]?.stringValue ?? "") })
        }
    }

    /// `template` with each `{name}` replaced by its value in `values`.
    static func concrete(_ template: String) -> String {
        var path = template
        for (name, value) in values { path = path.replacingOccurrences(of: "{\(name)}", with: value) }
        return path
    }

    /// Makes the resources the path parameters name exist (an earlier probe may have removed them), so
    /// a 404 can only mean an unrouted path.
    func prepare() throws {
        _ = try mocks.stack.faults.install(FaultPlan(id: Self.values["id"], latencyMs: 1))
        mocks.stack.providers.registry.register(DeviceRegistry.Device(token: Self.values["token"]!))
    }

    @Test func everyDocumentedOperationIsRouted() async throws {
        #expect(documented.count >= 12)
        for (template, operations) in documented {
            for (method, id) in operations {
                try prepare()
                let query = Self.probeQueries[id].map { "?" + $0 } ?? ""
                let body: String? = ["POST", "PUT", "PATCH"].contains(method) ? "{}" : nil
                let r = try await clients.control(method, Self.concrete(template) + query, body: body)
                #expect(
                    r.status != 404 && r.status != 405 && r.status >= 200 && r.status < 500,
                    "\(method) \(template) (\(id)) answered \(r.status) \(r.body)")
            }
        }
    }

    @Test func otherMethodsOnDocumentedPathsAre405WithAllow() async throws {
        for (template, operations) in documented {
            let allowed = Set(operations.map(\.method))
            for method in Self.methods where !allowed.contains(method) {
                let r = try await clients.control(method, Self.concrete(template))
                #expect(r.status == 405, "\(method) \(template) answered \(r.status) \(r.body)")
                let allow = (r.headers["allow"] ?? "").split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                #expect(Set(allow) == allowed, "\(method) \(template): Allow: \(r.headers["allow"] ?? "none")")
                #expect(r.json?["error"]?.stringValue?.contains(method) == true, "\(r.body)")
            }
        }
    }

    @Test func undocumentedPathsAre404() async throws {
        for path in ["/v1/nothing", "/v1/faults/a/b", "/v2/health", "/v1/captures/wait/now", "/v1/onesignal/players"] {
            let r = try await clients.control("GET", path)
            #expect(r.status == 404 && r.json?["error"] != nil, "\(path) answered \(r.status) \(r.body)")
        }
    }

    @Test func anUndocumentedQueryParameterIs400NamingItAndTheAcceptedOnes() async throws {
        try prepare()
        for endpoint in mocks.stack.providers.control.routeTable.endpoints {
            let body: String? = ["POST", "PUT", "PATCH"].contains(endpoint.method) ? "{}" : nil
            let r = try await clients.control(
                endpoint.method, Self.concrete(endpoint.path) + "?deviceTokn=x", body: body)
            let error = r.json?["error"]?.stringValue ?? ""
            #expect(r.status == 400 && error.contains("'deviceTokn'"), "\(endpoint) answered \(r.status) \(r.body)")
            for accepted in endpoint.query { #expect(error.contains(accepted), "\(endpoint): \(error)") }
            #expect(r.json?["details"]?.arrayValue?.count == 1, "\(r.body)")
        }
        // Nothing was done: a DELETE with a misspelt parameter must not clear or remove anything.
        #expect(mocks.stack.faults.entries.map(\.plan.id) == [Self.values["id"]])
        #expect(mocks.stack.providers.registry.all.map(\.token) == [Self.values["token"]])
    }
}

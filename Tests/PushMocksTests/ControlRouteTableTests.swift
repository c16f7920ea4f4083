import PushMocks
import Testing

/// The route table alone, without sockets: what a method and path resolve to.
@Suite struct ControlRouteTableTests {
    let table = ControlRouteTable([
        ControlEndpoint("list", "GET", "/v1/things", query: ["since"]),
        ControlEndpoint("clear", "DELETE", "/v1/things"),
        ControlEndpoint("remove", "DELETE", "/v1/things/{id}"),
    ])

    @Test func literalAndTemplatePathsResolveToTheirEndpoint() {
        #expect(table.match(method: "GET", path: "/v1/things") == .endpoint(table.endpoints[0], parameters: [:]))
        // A trailing slash names the same resource.
        #expect(table.match(method: "DELETE", path: "/v1/things/") == .endpoint(table.endpoints[1], parameters: [:]))
        #expect(
            table.match(method: "DELETE", path: "/v1/things/a%20b")
                == .endpoint(table.endpoints[2], parameters: ["id": "a b"]))
    }

    @Test func aKnownPathWithAnotherMethodNamesTheMethodsItHas() {
        #expect(table.match(method: "PUT", path: "/v1/things") == .methodNotAllowed(allowed: ["GET", "DELETE"]))
        #expect(table.match(method: "GET", path: "/v1/things/x") == .methodNotAllowed(allowed: ["DELETE"]))
    }

    @Test func otherPathsAreNotFound() {
        for path in ["/v1/thing", "/v1/things/x/y", "/v2/things", "/", "", "//"] {
            #expect(table.match(method: "GET", path: path) == .notFound, "\(path)")
        }
    }

    @Test func unknownQueryParametersAreNamedSorted() {
        let list = table.endpoints[0]
        #expect(table.unknownQueryParameters(["since": "1"], for: list).isEmpty)
        #expect(
            table.unknownQueryParameters(["zeta": "", "since": "1", "alpha": "x"], for: list) == ["alpha", "zeta"])
        #expect(table.unknownQueryParameters(["since": "1"], for: table.endpoints[1]) == ["since"])
    }

    @Test func pathsAreListedOnceInOrder() {
        #expect(table.paths == ["/v1/things", "/v1/things/{id}"])
        #expect(table.methods(ofTemplate: "/v1/things") == ["GET", "DELETE"])
    }
}

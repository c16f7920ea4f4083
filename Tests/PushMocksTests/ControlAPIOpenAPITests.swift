import Foundation
import HTTP
import JSON
import PushMocks
import TestSupport
import Testing

/// The OpenAPI document of the control API: the binary serves the one in docs/, and it lists
/// exactly the route table's operations with exactly the query parameters each accepts.
@Suite struct ControlAPIOpenAPITests {
    static let documentFile: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path + "/docs/control-api.openapi.json"
    }()

    /// Every operation of the document: method (upper case), path template, operationId, and the names
    /// of its query parameters (`$ref`s to `components.parameters` resolved).
    static func operations(_ document: JSONValue) -> [(method: String, path: String, id: String, query: Set<String>)] {
        var out: [(method: String, path: String, id: String, query: Set<String>)] = []
        for (path, item) in document["paths"]?.objectValue ?? [] {
            for (method, operation) in item.objectValue ?? [] {
                let query = (operation["parameters"]?.arrayValue ?? []).compactMap { parameter -> String? in
                    var resolved = parameter
                    if let ref = parameter["$ref"]?.stringValue {
                        let name = String(ref.split(separator: "/").last ?? "")
                        resolved = document["components"]?["parameters"]?[name] ?? .null
                    }
                    return resolved["in"] == "query" ? resolved["name"]?.stringValue : nil
                }
                out.append((method.uppercased(), path, operation["operationId"]?.stringValue ?? "", Set(query)))
            }
        }
        return out
    }

    @Test func theServedDocumentIsTheFileInDocs() throws {
        let file = try String(contentsOfFile: Self.documentFile, encoding: .utf8)
        #expect(
            file == ControlAPI.openAPIDocument, "docs/control-api.openapi.json is not the document the binary serves")
    }

    @Test func theDocumentIsOpenAPI31WithUniqueOperationIDs() throws {
        let document = try JSONValue.parse(ControlAPI.openAPIDocument)
        #expect(document["openapi"] == "3.1.0")
        let ids = Self.operations(document).map(\.id)
        #expect(!ids.contains(""))
        #expect(Set(ids).count == ids.count, "\(ids)")
        // Every `$ref` points at something the document defines.
        let text = ControlAPI.openAPIDocument
        for match in text.matches(of: /"\$ref": "#\/components\/(\w+)\/(\w+)"/) {
            #expect(document["components"]?[String(match.1)]?[String(match.2)] != nil, "\(match.0)")
        }
    }

    @Test func theDocumentListsExactlyTheRouteTable() throws {
        let document = try JSONValue.parse(ControlAPI.openAPIDocument)
        let f = MockFixture()
        let table = f.mocks.control.routeTable
        let documented = Self.operations(document)
        let described = Set(documented.map { "\($0.method) \($0.path)" })
        let routed = Set(table.endpoints.map(\.description))
        #expect(described.subtracting(routed).isEmpty, "documented but not routed")
        #expect(routed.subtracting(described).isEmpty, "routed but not documented")
        for endpoint in table.endpoints {
            guard let op = documented.first(where: { $0.method == endpoint.method && $0.path == endpoint.path }) else {
                continue
            }
            #expect(op.id == endpoint.operationID, "\(endpoint)")
            #expect(op.query == Set(endpoint.query), "\(endpoint): query parameters")
        }
    }

    @Test func itIsServedAtV1OpenAPIJSON() async throws {
        let f = MockFixture()
        let r = await f.mocks.control.handle(HTTPRequest(method: "GET", target: "/v1/openapi.json"))
        #expect(r.status == 200 && r.headers["content-type"] == "application/json")
        #expect(String(decoding: r.body, as: UTF8.self) == ControlAPI.openAPIDocument)
    }
}

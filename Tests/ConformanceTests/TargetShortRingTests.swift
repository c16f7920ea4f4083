import JSON
import Testing

@testable import Callx
@testable import Conformance

/// `{shortRing: FIELD}`: a backend that rings long by default and lets a create ask for a short ring.
@Suite struct TargetShortRingTests {
    let shape = TargetMappingShapeTests()

    func file(_ extra: String) throws(SuiteLoadError) -> TargetFile { try shape.file(extra) }

    @Test func theFieldIsReadAndImpliesShortRing() throws {
        let loaded = try file("capabilities: [faults, {shortRing: ringSeconds}]")
        #expect(loaded.capabilities.contains(.shortRing))
        #expect(loaded.shortRingField == "ringSeconds")
        #expect(loaded.target(defaultAppId: "com.example").shortRingField == "ringSeconds")
        let plain = try file("capabilities: [faults, shortRing]")
        #expect(plain.capabilities.contains(.shortRing))
        #expect(plain.shortRingField == nil)
        #expect(plain.target(defaultAppId: "com.example").shortRingField == nil)
    }

    @Test func anEmptyFieldIsRefusedWithLineAndField() {
        let found = shape.errors("capabilities: [faults, {shortRing: \"\"}]")
        #expect(found.contains { $0 == "t.yaml:6:36: capabilities[1].shortRing: must not be empty" }, "\(found)")
    }

    @Test func aCreateTemplatePlacesTheRingOnlyWhenAsked() throws {
        let m = try file(
            """
            capabilities: [{shortRing: ringSeconds}]
            operations:
              create: {path: /calls, body: {id: "{callId}", ring: "{ringSeconds}"}}
            """
        ).mapping
        var create = PreparedRequest(
            actor: "a", method: "POST", path: "", body: ["callId": "c-1", "calleeUserId": "ub", "operationId": "o"],
            operation: .create, values: ["userId": "ua"])
        #expect(m.apply(create).body == ["id": "c-1"])
        create.values["ringSeconds"] = .int(Target.shortRingSeconds)
        #expect(m.apply(create).body == ["id": "c-1", "ring": .int(Target.shortRingSeconds)])
    }
}

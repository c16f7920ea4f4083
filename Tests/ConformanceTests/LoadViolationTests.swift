import Foundation
import Reports
import Testing

@testable import Conformance

/// `LoadViolation`, load mode's one finding type: its JSON keeps `load-report.json`'s two shapes and its charge
/// takes the level from the catalogue.
@Suite struct LoadViolationTests {
    func json(_ v: LoadViolation) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(v), as: UTF8.self)
    }

    @Test func historyFindingKeepsItsLoadReportShape() throws {
        let v = LoadViolation("CALLX-ARB-1", level: .must, rule: .oneWinner, callId: "c1", message: "2 won")
        #expect(
            try json(v)
                == #"{"callId":"c1","level":"MUST","message":"2 won","requirementID":"CALLX-ARB-1","rule":"one-winner"}"#
        )
        #expect(v.description == "CALLX-ARB-1 MUST one-winner call c1: 2 won")
        #expect(try JSONDecoder().decode(LoadViolation.self, from: Data(try json(v).utf8)) == v)
    }

    @Test func invariantFindingLeavesOutRuleAndAnUnknownCall() throws {
        let found = Violation("PUSHSVC-APNS-1", "headers.apns-topic", expected: "b.voip", actual: "b", capture: 3)
        let v = LoadViolation.charge(found, levels: [:], callId: nil, message: "push #3 \(found.message)")
        #expect(
            try json(v)
                == #"{"level":"MUST","message":"push #3 headers.apns-topic: expected b.voip, got b","#
                + #""requirementID":"PUSHSVC-APNS-1"}"#)
        #expect(v.unitMessage == "push #3 headers.apns-topic: expected b.voip, got b")
    }

    @Test func chargeTakesTheCataloguesLevelOrTheFallback() {
        let levels: [String: RequirementLevel] = ["DIALSTACK-LAT-1": .should]
        #expect(LoadViolation.charge("DIALSTACK-LAT-1", levels: levels, callId: "w1", message: "slow").level == .should)
        #expect(LoadViolation.charge("DIALSTACK-SIG-2", levels: levels, callId: "w1", message: "bad").level == .must)
        #expect(
            LoadViolation.charge("DIALSTACK-X-1", levels: [:], otherwise: .should, callId: nil, message: "x").level
                == .should)
    }
}

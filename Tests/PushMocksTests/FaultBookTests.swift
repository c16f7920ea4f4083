import Foundation
import JSON
import PushMocks
import Testing

@Suite struct FaultBookTests {
    let reset = FaultPlan(connection: .reset)

    @Test func assignsIDsAndReplacesSameID() {
        var book = FaultBook()
        let a = book.install(reset)
        let b = book.install(FaultPlan(latencyMs: 5))
        #expect(a.id == "f1" && b.id == "f2")
        book.install(FaultPlan(id: "f1", latencyMs: 9))
        #expect(book.entries.map(\.plan.id) == ["f1", "f2"])
        #expect(book.entries[0].plan.latencyMs == 9)
        #expect(book.install(FaultPlan(latencyMs: 1)).id == "f3")
    }

    @Test func countedPlanIsConsumedThenSkipped() {
        var book = FaultBook()
        book.install(FaultPlan(id: "two", times: 2, connection: .reset))
        #expect(book.next(mock: .apns, deviceToken: "t")?.ordinal == 1)
        #expect(book.next(mock: .fcm, deviceToken: nil)?.ordinal == 2)
        #expect(book.next(mock: .apns, deviceToken: "t") == nil)
        #expect(book.entries[0].isExhausted && book.entries[0].applied == 2 && book.entries[0].remaining == 0)
    }

    @Test func uncountedPlanAppliesForever() {
        var book = FaultBook()
        book.install(FaultPlan(latencyMs: 1))
        for i in 1...100 { #expect(book.next(mock: .oauth, deviceToken: nil)?.ordinal == i) }
        #expect(book.entries[0].remaining == nil)
    }

    @Test func firstMatchingLivePlanWinsInInstallationOrder() {
        var book = FaultBook()
        book.install(FaultPlan(id: "token-a", deviceToken: "a", times: 1, connection: .reset))
        book.install(FaultPlan(id: "fcm-only", mock: .fcm, times: 1, connection: .goaway))
        book.install(FaultPlan(id: "any", times: 3, latencyMs: 1))
        #expect(book.next(mock: .apns, deviceToken: "b")?.planID == "any")
        #expect(book.next(mock: .apns, deviceToken: "a")?.planID == "token-a")
        #expect(book.next(mock: .apns, deviceToken: "a")?.planID == "any")
        #expect(book.next(mock: .fcm, deviceToken: "a")?.planID == "fcm-only")
        #expect(book.next(mock: .fcm, deviceToken: "a")?.planID == "any")
        #expect(book.next(mock: .fcm, deviceToken: "a") == nil)
    }

    @Test func apnsTokensMatchCaseInsensitivelyFCMExactly() {
        let plan = FaultPlan(deviceToken: "ABCDEF", connection: .reset)
        #expect(plan.matches(mock: .apns, deviceToken: "abcdef"))
        #expect(!plan.matches(mock: .fcm, deviceToken: "abcdef"))
        #expect(plan.matches(mock: .fcm, deviceToken: "ABCDEF"))
        #expect(!plan.matches(mock: .oauth, deviceToken: nil))
    }

    @Test func removeAndClear() {
        var book = FaultBook()
        book.install(FaultPlan(id: "x", connection: .reset))
        book.install(FaultPlan(id: "y", connection: .reset))
        let first = book.remove(id: "x")
        let second = book.remove(id: "x")
        #expect(first && !second)
        let cleared = book.clear()
        #expect(cleared == 1)
        #expect(book.next(mock: .apns, deviceToken: nil) == nil)
    }

    // MARK: Validation and JSON

    @Test func validationNamesEveryProblem() {
        let plan = FaultPlan(
            times: 0, respond: FaultResponse(status: 200, errorCode: "NOPE"), latencyMs: -1, connection: .reset,
            goawayErrorCode: 2)
        let errors = plan.validationErrors()
        #expect(errors.count == 6)
        #expect(errors.contains { $0.contains("times") })
        #expect(errors.contains { $0.contains("respond.status") })
        #expect(errors.contains { $0.contains("NOPE") })
        #expect(errors.contains { $0.contains("latencyMs") })
        #expect(errors.contains { $0.contains("reset") })
        #expect(errors.contains { $0.contains("goawayErrorCode") })
        #expect(
            FaultPlan().validationErrors() == [
                "the plan does nothing: set respond, latencyMs, retryAfter or connection"
            ])
    }

    @Test func installRefusesInvalidPlans() {
        let plans = FaultPlans()
        #expect(throws: FaultPlanError.self) { try plans.install(FaultPlan(times: 0, connection: .reset)) }
        #expect(plans.entries.isEmpty)
    }

    @Test func jsonRoundTrip() throws {
        let plan = FaultPlan(
            id: "p", mock: .apns, deviceToken: "abc", times: 2,
            respond: FaultResponse(status: 429, reason: "TooManyRequests", message: "slow down"), latencyMs: 100,
            retryAfter: 3)
        #expect(try FaultPlan(json: plan.json) == plan)
        let goaway = FaultPlan(connection: .goaway, goawayErrorCode: 2)
        #expect(try FaultPlan(json: goaway.json) == goaway)
    }

    @Test func codableShapeMatchesTheControlAPI() throws {
        let plan = FaultPlan(
            id: "p", mock: .fcm, times: 1, respond: FaultResponse(status: 503, errorCode: "UNAVAILABLE"), retryAfter: 2,
            connection: .goaway)
        let encoded = try JSONEncoder().encode(plan)
        #expect(try FaultPlan(json: JSONValue.parse(Array(encoded))) == plan)
        let decoded = try JSONDecoder().decode(FaultPlan.self, from: Data(plan.json.bytes()))
        #expect(decoded == plan)
    }

    @Test func jsonErrorsAreClear() throws {
        let json = try JSONValue.parse(
            #"{"mock":"gcm","times":"2","connection":"drop","respond":{"status":503,"oops":1},"extra":true}"#)
        do {
            _ = try FaultPlan(json: json)
            Issue.record("should fail")
        } catch {
            let text = error.description
            #expect(text.contains("mock must be one of apns, fcm, oauth"))
            #expect(text.contains("times must be an integer"))
            #expect(text.contains("connection must be one of reset, resetAfterAccept, goaway"))
            #expect(text.contains("unknown field respond.oops"))
            #expect(text.contains("unknown field 'extra'"))
        }
        #expect(throws: FaultPlanError.self) { try FaultPlan(json: [1, 2]) }
        #expect(throws: FaultPlanError.self) { try FaultPlan(json: ["times": 1.5]) }
    }

    @Test func entryJSONShowsConsumption() {
        var book = FaultBook()
        book.install(FaultPlan(id: "a", times: 2, connection: .reset))
        _ = book.next(mock: .apns, deviceToken: nil)
        let json = book.entries[0].json
        #expect(json["remaining"] == 1 && json["applied"] == 1 && json["id"] == "a")
    }
}

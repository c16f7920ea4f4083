import Foundation
import JSON
import PushMocks
import ReferenceBackend
import TestSupport
import Testing

@testable import Callx
@testable import Conformance

/// The invariants against the reference backend over real sockets: silent on a conforming backend,
/// and each push defect switch is caught by its requirement.
@Suite(.serialized) struct InvariantReferenceBackendTests {
    static let phone = ReferenceAPIClient.apnsToken("inv-b-phone")
    static let pad = ReferenceAPIClient.apnsToken("inv-b-pad")
    static let tablet = "fcm-inv-b-tablet:APA91b" + String(repeating: "r", count: 40)

    struct Run {
        var captures: [Capture]
        var events: [ObservedEvent]
        var context: InvariantContext
        var violations: [Violation] {
            InvariantChecker.check(captures: captures, events: events, context: context)
        }
        var ids: Set<String> { Set(violations.map(\.requirement.rawValue)) }
    }

    /// user-b with a production and a sandbox iPhone and an Android tablet; user-a calls and cancels.
    func cancelledCall(defects: Set<CallxDefect> = [], ringSeconds: Int = 30) async throws -> Run {
        let stack = try await ReferenceStack.start(defects: defects, ringSeconds: ringSeconds)
        do {
            let api = stack.api
            try await api.registerAPNs(
                "user-b", installation: "b-phone", token: Self.phone, environment: "production", appId: stack.appId)
            try await api.registerAPNs(
                "user-b", installation: "b-pad", token: Self.pad, environment: "sandbox", appId: stack.appId)
            try await api.registerFCM("user-b", installation: "b-tablet", token: Self.tablet, appId: stack.appId)
            let callId = UUID().uuidString.lowercased()
            let created = try await api.create(callId)
            try #require(created.status == 200)
            _ = await stack.waitForPushes(callId: callId, count: 3)
            let ended = try await api.end(callId, as: "user-a", reason: "callerCancelled")
            let endedAt = Int64(Date().timeIntervalSince1970 * 1000)
            try #require(ended.status == 200)
            let signals = defects.contains(.voipStopSignal) ? 3 : 1
            _ = await stack.waitForPushes(callId: callId, count: signals) { $0.callxType == "call.ended" }
            var events: [ObservedEvent] = []
            for (user, installation) in [("user-a", "a-phone"), ("user-b", "b-phone"), ("user-b", "b-tablet")] {
                events += try await api.allEvents(user, installation: installation).map {
                    ObservedEvent(feed: installation, json: $0)
                }
            }
            let context = InvariantContext(
                devices: [
                    InvariantDevice(name: "b-phone", kind: .apnsVoip, environment: .production, tokens: [Self.phone]),
                    InvariantDevice(name: "b-pad", kind: .apnsVoip, environment: .sandbox, tokens: [Self.pad]),
                    InvariantDevice(name: "b-tablet", kind: .fcm, tokens: [Self.tablet]),
                ], voipTopic: stack.appId + ".voip",
                calls: [
                    CallTimeline(
                        callId: callId, createdAtMs: created["createdAtMs"]?.int64Value,
                        expiresAtMs: created["expiresAtMs"]?.int64Value, video: false, endedObservedAtMs: endedAt)
                ])
            let run = Run(captures: stack.mocks.log.captures(), events: events, context: context)
            await stack.stop()
            return run
        } catch {
            await stack.stop()
            throw error
        }
    }

    @Test func conformingBackendHasNoViolations() async throws {
        let run = try await cancelledCall()
        #expect(run.captures.filter { $0.mock != .oauth }.count >= 4)
        #expect(run.events.count >= 1)
        #expect(run.violations.isEmpty, "\(run.violations)")
    }

    @Test(arguments: [
        (CallxDefect.apnsExpiration30, "CALLX-APNS-5"),
        (.zeroTTL, "CALLX-FCM-7"),
        (.notificationBlock, "CALLX-FCM-4"),
        (.voipStopSignal, "CALLX-APNS-8"),
        (.fixedTTL30s, "CALLX-FCM-6"),
    ])
    func defectIsCaught(defect: CallxDefect, requirement: String) async throws {
        let run = try await cancelledCall(defects: [defect], ringSeconds: defect == .fixedTTL30s ? 90 : 30)
        #expect(run.ids.contains(requirement), "\(defect): \(run.violations)")
    }
}

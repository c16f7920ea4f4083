import Foundation
import JSON
import TestSupport
import Testing

/// `serviceApp.auth` and route-scoped `fieldNames` against the reference push service in its `alternate-keyed`
/// shape: its installation routes want the REST key and a registration answers `{"installationId"}` while a
/// message's answer and a call keep `id`. The example file with both knobs judges it clean; without `auth` every
/// registration is refused, and with the rename unscoped the calls lose their `id`.
@Suite(.serialized) struct PushServiceKeyedInstallationsRunTests {
    /// `examples/targets/push-service-alternate.yaml` pointed at the keyed shape, with `serviceApp` lines added.
    func target(_ dir: TemporaryDirectory, auth: Bool = true, rename: String = "devices: {id: installationId}")
        throws -> String
    {
        var text = try String(contentsOfFile: PushServiceAlternateTargetRunTests.example, encoding: .utf8)
            .replacingOccurrences(of: "--api-shape, alternate,", with: "--api-shape, alternate-keyed,")
        let fieldNames = "  fieldNames:\n"
        #expect(text.contains(fieldNames) && text.contains("alternate-keyed"))
        text = text.replacingOccurrences(
            of: fieldNames, with: (auth ? "  auth: {devices: key, device: key}\n" : "") + fieldNames + "    \(rename)\n"
        )
        return try dir.write("push-service-alternate-keyed.yaml", text)
    }

    @Test func bothKnobsJudgeTheKeyedShapeClean() async throws {
        let dir = TemporaryDirectory()
        let r = try await PushServiceAlternateTargetRunTests().run(try target(dir), tags: ["smoke", "devices"])
        #expect(r.status == 0, "\(r.output)")
        #expect(r.failed.isEmpty, "\(r.failed)\n\(r.output)")
        #expect(r.scenarios >= 3, "\(r.output)")
    }

    @Test func withoutAuthTheRegistrationsAreRefused() async throws {
        let dir = TemporaryDirectory()
        let r = try await PushServiceAlternateTargetRunTests().run(try target(dir, auth: false), tags: ["smoke"])
        #expect(r.status != 0, "\(r.output)")
        #expect(r.output.contains("answered 403"), "\(r.output)")
    }

    @Test func anUnscopedRenameLosesTheCallsId() async throws {
        let dir = TemporaryDirectory()
        let r = try await PushServiceAlternateTargetRunTests().run(
            try target(dir, rename: "id: installationId"), tags: ["smoke"])
        #expect(r.status == 1, "\(r.output)")
        // The service got `call.installationId` instead of `call.id` and made an ID of its own.
        #expect(r.failed.contains("PUSHSVC-PAYLOAD-2"), "\(r.failed)\n\(r.output)")
    }
}

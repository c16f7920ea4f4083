import Testing

@testable import Conformance

/// A target file's `capabilities:`: the engine's names first, then each profile's in registry order, and the
/// callx forms with a value (`{eventRetention: N}`, `{shortRing: FIELD}`) decoded by the callx profile.
extension TargetFileLoaderTests {
    @Test func anUnknownCapabilityListsTheEnginesThenEachProfilesInRegistryOrder() {
        let found = errors("baseURL: http://x\ncapabilities: [faults, teleport]\n\(Self.users)")
        #expect(
            found == [
                "t.yaml:2:24: capabilities[1]: unknown capability 'teleport' (known: faults, sandbox, restart, "
                    + "backendLog, shortRing, eventRetention, pushSignals, mediaSession, answerEndpoint, idempotency, "
                    + "answerByMediaRequest, videoCalls, unconfigured)"
            ], "\(found)")
    }

    @Test func theCallxFormsWithAValueLoadIntoItsConfiguration() throws {
        let file = try load(
            """
            baseURL: http://x
            eventPageLimit: 7
            capabilities: [faults, {eventRetention: 40}, {shortRing: ringSeconds}, videoCalls]
            \(Self.users)
            """)
        #expect(file.eventPageLimit == 7)
        #expect(file.eventRetention == 40)
        #expect(file.shortRingField == "ringSeconds")
        #expect(file.capabilities.isSuperset(of: [.faults, .eventRetention, .shortRing, .videoCalls]))
        let target = file.target(defaultAppId: "com.example")
        #expect(target.eventPageLimit == 7)
        #expect(target.eventRetention == 40)
        #expect(target.shortRingField == "ringSeconds")
        #expect(target.supportsVideo)
    }

    @Test func aBadValueIsReportedAtItsField() {
        let found = errors(
            "baseURL: http://x\ncapabilities: [{eventRetention: 0}, {shortRing: \"\"}]\neventPageLimit: 0\n\(Self.users)"
        )
        #expect(found.contains { $0.hasPrefix("t.yaml:2:33: capabilities[0].eventRetention:") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("t.yaml:2:49: capabilities[1].shortRing:") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("t.yaml:3:17: eventPageLimit:") }, "\(found)")
    }

    @Test func aPlainEventRetentionGivesNoRetentionSoTheTargetLacksIt() throws {
        let file = try load("baseURL: http://x\ncapabilities: [faults, eventRetention]\n\(Self.users)")
        #expect(file.eventRetention == nil)
        #expect(!file.target(defaultAppId: "com.example").capabilities.contains(.eventRetention))
    }
}

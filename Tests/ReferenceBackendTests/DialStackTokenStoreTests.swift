import Testing

@testable import ReferenceBackend

/// The wake-up backend's token store and event log as plain values: the Callx reference's ownership
/// rules for installations and tokens, and redeliveries remembered for a while.
@Suite struct DialStackTokenStoreTests {
    func registration(_ installation: String, _ kind: PushKind, _ token: String, user: String) -> PushRegistration {
        PushRegistration(
            installationId: installation, kind: kind, token: token, appId: "com.example",
            apnsEnvironment: kind == .apnsVoip ? .sandbox : nil, userId: user, updatedAtMs: 0)
    }

    @Test func devicesAreKeptPerUserOldestFirst() {
        let store = DialStackTokenStore()
        store.register(registration("p1", .apnsVoip, "t1", user: "b"))
        store.register(registration("p2", .fcm, "t2", user: "b"))
        store.register(registration("p3", .fcm, "t3", user: "c"))
        store.register(registration("p1", .apnsVoip, "t1-new", user: "b"))  // a new token replaces, in place
        #expect(store.devices(ofUser: "b").map(\.token) == ["t1-new", "t2"])
        #expect(store.devices(ofUser: "c").map(\.token) == ["t3"])
        #expect(store.allDevices.count == 3)
    }

    @Test func anInstallationMovesToItsNewUserAndATokenToItsNewInstallation() {
        let store = DialStackTokenStore()
        store.register(registration("p1", .apnsVoip, "t1", user: "b"))
        store.register(registration("p1", .fcm, "t1f", user: "b"))
        store.register(registration("p1", .fcm, "t9", user: "c"))  // signed in as c: b's tokens go
        #expect(store.devices(ofUser: "b").isEmpty)
        #expect(store.devices(ofUser: "c").map(\.token) == ["t9"])
        store.register(registration("p2", .fcm, "t9", user: "c"))  // the same token from another installation
        #expect(store.devices(ofUser: "c").map(\.installationId) == ["p2"])
        #expect(!store.delete(userId: "b", installationId: "p1", kind: .fcm))
        #expect(store.delete(userId: "c", installationId: "p2", kind: .fcm))
        #expect(store.delete(userId: "c", installationId: "nothing", kind: .fcm))
        store.register(registration("p3", .apnsVoip, "dead", user: "c"))
        store.drop(kind: .apnsVoip, token: "dead")
        #expect(store.allDevices.isEmpty)
    }

    @Test func redeliveriesAreRecognisedUntilTheyAreForgotten() {
        let log = WebhookEventLog(retentionMs: 1_000, capacity: 3)
        #expect(log.isFirstDelivery(of: "e1", nowMs: 0))
        #expect(!log.isFirstDelivery(of: "e1", nowMs: 1_000))
        #expect(log.isFirstDelivery(of: "e1", nowMs: 1_001))  // forgotten after the retention
        for id in ["e2", "e3", "e4"] { #expect(log.isFirstDelivery(of: id, nowMs: 1_002)) }
        #expect(log.isFirstDelivery(of: "e1", nowMs: 1_003))  // the oldest made room for e4
        #expect(!log.isFirstDelivery(of: "e4", nowMs: 1_003))
    }
}

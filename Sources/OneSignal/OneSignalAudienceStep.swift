import Conformance
import PushMocks

/// `audience: {user, app, devices}` — sets how many subscribed devices the mock OneSignal knows for the user's
/// External ID in one app (0 unsubscribes), so a send reaches them or nobody.
struct OneSignalAudienceStep: DecodableStep, Equatable {
    var user: String
    var app: OneSignalApp.Role
    var devices: Int

    static let keywords = ["audience"]

    static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder) -> Self? {
        decoder.decodeOneSignalAudience(node, path)
    }

    func perform(_ step: ScenarioStep, with context: isolated any RunContext) async throws {
        guard let mock = context.mocks.providers.oneSignal else {
            throw HarnessStop(message: "\(step.path): the OneSignal mock is not running")
        }
        let externalId = context.oneSignalExternalId(user)
        let appId = mock.app(app).appID
        if devices > 0 {
            mock.subscribe(externalId: externalId, appId: appId, devices: devices)
        } else {
            _ = mock.unsubscribe(externalId: externalId, appId: appId)
        }
        context.record(
            .note, "onesignal", "audience: \(externalId) has \(devices) device(s) in the \(app.rawValue) app")
    }
}

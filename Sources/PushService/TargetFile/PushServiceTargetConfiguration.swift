import Conformance

/// The push-service profile's part of a target file: the app ringcheck acts for at the service (`serviceApp:`).
struct PushServiceTargetConfiguration: ProfileConfiguration {
    var app: ServiceApp

    /// The app's REST API key: reports redact it.
    var secrets: [String] { [app.apiKey] }
}

extension Target {
    /// The app a push service under test knows the engine's requests by (the `push-service` profile's
    /// App ID and REST key); nil for a target that is not a push service.
    public var serviceApp: ServiceApp? {
        get { profileConfiguration[PushServiceTargetConfiguration.self]?.app }
        set { profileConfiguration[PushServiceTargetConfiguration.self] = newValue.map { .init(app: $0) } }
    }
}

extension TargetFile {
    /// The app ringcheck acts for at a push service (`serviceApp:`): App ID, REST API key (a secret), routes and
    /// field names where the service differs from the seed.
    public var serviceApp: ServiceApp? { profileConfiguration[PushServiceTargetConfiguration.self]?.app }
}

extension PushServiceProfile {
    /// `serviceApp:`: the app ringcheck sends for.
    public var targetFileKeys: [String] { ["serviceApp"] }

    public func decodeTargetFile(
        _ section: TargetFileSection, into file: inout TargetFile, decoder: inout TargetFileDecoder
    ) -> (any ProfileConfiguration)? {
        if file.profile == Self.profileName { decoder.refuseValueMaps(section.root) }
        return decoder.decodeServiceApp(section["serviceApp"], into: &file, root: section.root).map {
            PushServiceTargetConfiguration(app: $0)
        }
    }
}

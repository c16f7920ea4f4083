import Conformance

/// An app registered at a push service under test: ringcheck plays its app server (authenticated by the REST
/// API key) and its devices. A secret: reports redact `apiKey`.
public struct ServiceApp: Sendable, Equatable {
    /// The service's ID of the app (`app_id` in bodies and routes).
    public var appId: String
    /// The REST API key the app server authenticates with.
    public var apiKey: String
    /// Route templates by the profile's route name, where the service's routes differ from the seed's
    /// (`{appId}`, `{deviceId}`, `{notificationId}` are filled in); a name not here keeps the seed's route.
    public var routes: [String: String]
    /// Body member names by the seed's name, where the service names a member otherwise (applied to the object
    /// keys ringcheck sends and read back from the answers: everywhere, at one path, or on one route).
    public var fieldNames: ServiceFieldNames
    /// How the device routes (`devices`, `device`) authenticate, where the service wants the REST key on them
    /// (`serviceApp.auth`); the seed sends none.
    var routeAuth: [String: PushServiceAuth] = [:]

    public init(
        appId: String, apiKey: String, routes: [String: String] = [:], fieldNames: ServiceFieldNames = .init()
    ) {
        self.appId = appId
        self.apiKey = apiKey
        self.routes = routes
        self.fieldNames = fieldNames
    }

    /// The route called `name`: the service's own when given, else `seedRoute`, with `values` filled in.
    public func route(_ name: String, seedRoute: String, _ values: [String: String]) -> String {
        RequestTemplate.fill(routes[name] ?? seedRoute, values)
    }
}

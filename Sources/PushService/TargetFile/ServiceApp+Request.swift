import Conformance
import HTTP
import JSON

extension ServiceApp {
    /// A request to the service's route `route` as every push-service client of ringcheck makes it (a scenario's
    /// steps, validate, load): the route filled (`appId` unless `values` names another), a JSON body renamed as
    /// `fieldNames` say for that route (or `raw` bytes as they are), and the authorization `asked` gives; `.none`
    /// means the key `serviceApp.auth` names for the route, if any (the seed's device routes take none).
    func request(
        route: String, values: [String: String] = [:], json: JSONValue? = nil, raw: [UInt8]? = nil,
        auth asked: PushServiceAuth
    ) -> (path: String, headers: HTTPHeaders, body: [UInt8], auth: PushServiceAuth) {
        let auth = asked == .none ? routeAuth[route] ?? .none : asked
        var filled = values
        filled["appId"] = filled["appId"] ?? appId
        let path = self.route(route, seedRoute: PushServiceRoutes.seed[route] ?? "/", filled)
        var headers = HTTPHeaders()
        var body: [UInt8] = []
        if let json {
            body = Array(fieldNames.toService(json, route: route).serialized().utf8)
            headers.add("content-type", "application/json")
        } else if let raw {
            body = raw
            headers.add("content-type", "application/json")
        }
        if let value = auth.header(self) { headers.add("authorization", value) }
        return (path, headers, body, auth)
    }
}

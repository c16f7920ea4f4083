extension ControlAPI {
    /// The OpenAPI 3.1 description of every control route (the shared ones and the OneSignal mock's),
    /// served at `GET /v1/openapi.json`: `Resources/control-api.openapi.json`, compiled into the binary
    /// so a copied one serves it without the repository (`docs/control-api.openapi.json` links to it).
    public static let openAPIDocument = String(decoding: PackageResources.control_api_openapi_json, as: UTF8.self)
}

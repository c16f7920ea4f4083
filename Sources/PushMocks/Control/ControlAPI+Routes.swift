extension ControlAPI {
    /// The operations the control API answers itself (providers add theirs through `MockControlRoutes`).
    /// `handle(_:_:)` switches over every case, so an endpoint cannot be routed without a handler.
    enum Operation: String, CaseIterable, Sendable {
        case health, openAPI, listCaptures, waitForCaptures, clearCaptures
        case installFaults, listFaults, clearFaults, removeFault
        case registerDevice, listDevices, clearDevices, forgetDevice
        case revokeOAuthTokens

        /// The method, path template and accepted query parameters of the operation.
        var endpoint: ControlEndpoint {
            switch self {
            case .health: ControlEndpoint(rawValue, "GET", "/v1/health")
            case .openAPI: ControlEndpoint(rawValue, "GET", "/v1/openapi.json")
            case .listCaptures:
                ControlEndpoint(rawValue, "GET", "/v1/captures", query: captureFilterParameters + ["reveal", "limit"])
            case .waitForCaptures:
                ControlEndpoint(
                    rawValue, "GET", "/v1/captures/wait",
                    query: captureFilterParameters + ["reveal", "count", "timeoutMs"])
            case .clearCaptures: ControlEndpoint(rawValue, "DELETE", "/v1/captures")
            case .installFaults: ControlEndpoint(rawValue, "POST", "/v1/faults")
            case .listFaults: ControlEndpoint(rawValue, "GET", "/v1/faults")
            case .clearFaults: ControlEndpoint(rawValue, "DELETE", "/v1/faults")
            case .removeFault: ControlEndpoint(rawValue, "DELETE", "/v1/faults/{id}")
            case .registerDevice: ControlEndpoint(rawValue, "POST", "/v1/devices")
            case .listDevices: ControlEndpoint(rawValue, "GET", "/v1/devices")
            case .clearDevices: ControlEndpoint(rawValue, "DELETE", "/v1/devices")
            case .forgetDevice: ControlEndpoint(rawValue, "DELETE", "/v1/devices/{token}")
            case .revokeOAuthTokens: ControlEndpoint(rawValue, "DELETE", "/v1/oauth/tokens")
            }
        }
    }

    /// The query parameters that select captures (`filter(_:)` reads them).
    static let captureFilterParameters = ["mock", "deviceToken", "environment", "since", "sinceMs", "accepted"]

    /// The shared endpoints, in the order the OpenAPI document lists them.
    public static let endpoints: [ControlEndpoint] = Operation.allCases.map(\.endpoint)
}

import HTTP
import JSON
import ReferenceBackend

/// The probe reference's defect switches: each breaks one rule of the probe suite.
public enum ProbeDefect: String, ReferenceDefect {
    /// Breaks PROBE-ECHO-1: the echo is one more than the number sent.
    case wrongEcho = "wrong-echo"

    public var summary: String { "the echo is one more than the number sent (PROBE-ECHO-1)" }
}

/// The probe's reference backend: `POST /ping` with the right `x-probe-key` and `{"n": N}` answers 200
/// `{"echo": N}`; a wrong key is 401, anything else 404. Serves on `host` (127.0.0.1) at `port` (0: a free one).
///
/// ```swift
/// let reference = ProbeReference(key: "probe-secret", defects: [])
/// try reference.server.start()          // reference.server.port
/// defer { reference.server.stop() }
/// ```
public final class ProbeReference: Sendable {
    public let server: HTTPServer

    public init(key: String, defects: Set<ProbeDefect>, host: String = "127.0.0.1", port: Int = 0) {
        let wrongEcho = defects.contains(.wrongEcho)
        server = HTTPServer(
            configuration: .init(host: host, port: port, loopCount: 1),
            handler: ClosureHandler { request in
                guard request.method == "POST", request.path == "/ping" else { return .json(404, Array("{}".utf8)) }
                guard request.headers["x-probe-key"] == key else { return .json(401, Array("{}".utf8)) }
                guard let n = (try? JSONValue.parse(request.body))?["n"]?.intValue else {
                    return .json(400, Array("{}".utf8))
                }
                let echo: JSONValue = ["echo": .int(wrongEcho ? n + 1 : n)]
                return .json(200, Array(echo.serialized().utf8))
            })
    }
}

import Conformance
import JSON
import PushMocks

extension OneSignalRequest {
    /// A capture of the mock OneSignal as the rules read it.
    init(_ c: Capture) {
        self.init(
            sequence: c.sequence, arrivalMs: c.arrivalMs, authorization: c.headers["authorization"],
            body: c.json ?? .null, status: c.response.status,
            recipients: (try? JSONValue.parse(c.response.body))?["recipients"]?.intValue ?? 0)
    }
}

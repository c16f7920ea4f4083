import Conformance
import JSON

/// How an operation's answer reads: its delivered flag wherever the status, or why it cannot be judged.
enum OneSignalAnswer {
    /// The answer's delivered flag at `path`, or the message that stops the scenario as inconclusive. The seed's
    /// "no-op that returns false" leaves the status open, so a `{"delivered": false}` read from a 503 ("push
    /// disabled") or a 422 ("no recipients") counts; an answer with no boolean there cannot be judged, nor can a
    /// failure status that claims delivery.
    static func read(status: Int, body: [UInt8], path: String) -> Result<Bool, Problem> {
        let flag = (try? JSONValue.parse(body))?.value(atPath: path)
        let excerpt = String(decoding: body.prefix(200), as: UTF8.self)
        guard let flag else {
            return .failure(Problem("answered \(status) with no '\(path)' in its body (\(excerpt))"))
        }
        guard let delivered = flag.boolValue else {
            return .failure(Problem("answered \(status), but its '\(path)' is \(flag.serialized()), not a boolean"))
        }
        if delivered, !(200..<300).contains(status) {
            return .failure(Problem("answered \(status), a failure, with '\(path)': true (\(excerpt))"))
        }
        return .success(delivered)
    }

    /// Why an answer cannot be judged.
    struct Problem: Error, Equatable {
        var message: String
        init(_ message: String) { self.message = message }
    }
}

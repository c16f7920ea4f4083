import InputLimits
import JSON

extension JSONValue {
    /// A time in UNIX milliseconds a backend reported (`expiresAtMs`, `createdAtMs`, …), when it is an
    /// integer from 0 to 2^53: a value such as -9e18 is not a time, and arithmetic on it would overflow.
    package var epochMsValue: Int64? { int64Value.flatMap { CheckedNumber.epochMs.contains($0) ? $0 : nil } }
}

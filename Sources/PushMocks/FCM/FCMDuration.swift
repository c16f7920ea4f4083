/// FCM's `android.ttl` as a value: a protobuf Duration JSON string (`"30s"`, `"86399.999064000s"`, what
/// firebase-admin sends for a fractional timedelta) read as seconds, as the FCM mock reads it. A judge compares
/// the value, never the spelling: `"30.000000000s"` and `"30s"` are the same ttl.
///
/// ```swift
/// FCMDuration.seconds("86399.999064000s")  // 86399.999064
/// FCMDuration.seconds("30")                // nil: no unit
/// ```
public enum FCMDuration {
    /// The seconds `text` stands for, or nil when it is no Duration string.
    public static func seconds(_ text: String) -> Double? { FCMMessageValidator.parseDuration(text) }
}

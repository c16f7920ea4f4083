/// The lines `ringcheck mocks` prints about its listeners and credentials, one column wide for labels.
public enum MockConsole {
    /// `  LABEL<padding>VALUE`, labels padded to one column (`  APNs (sandbox)     https://…`).
    public static func line(_ label: String, _ value: String) -> String {
        "  " + label + String(repeating: " ", count: max(19 - label.count, 1)) + value
    }
}

extension OptionSpec {
    /// `--target FILE` as `call` and `load` take it: a target file, else the embedded reference backend.
    ///
    /// ```swift
    /// options: [.embeddedOrTarget, .value("to", "USER", help: "The user to call.")]
    /// ```
    static let embeddedOrTarget = OptionSpec.value(
        "target", "FILE",
        help: "A target file describing the backend (see init-target); default: the embedded reference backend.")
}

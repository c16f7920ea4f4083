import Reports

/// How a `RunSession` runs and reports, as `ringcheck run`'s options set it.
public struct RunSessionSettings: Sendable {
    /// The release the reports name (`ringcheck --version`'s).
    public var ringcheckVersion: String
    /// How messages name the command: `ringcheck run: cannot write reports …`.
    public var commandName: String
    /// Where the report files (and a started backend's `backend.log`) go.
    public var reportDir: String
    /// The report files written at the end (none: the console alone).
    public var fileFormats: [ReportFormat]
    /// `-q`: the verdict line only.
    public var quiet: Bool
    /// `-v`: every failure with its full evidence.
    public var verbose: Bool
    public var repeatCount: Int
    public var concurrency: Int
    public var failFast: Bool
    /// SHOULDs judged like MUSTs.
    public var strict: Bool
    /// The shell line that re-runs one scenario by ID the way this run ran it.
    public var rerunCommand: @Sendable (String) -> String
    /// Whether the verdict line names the profile (`Verdict (callx): …`: each profile's run in `run --profile all`).
    public var namesProfileInVerdict = false

    public init(
        ringcheckVersion: String, commandName: String = "ringcheck run", reportDir: String,
        fileFormats: [ReportFormat], quiet: Bool = false, verbose: Bool = false, repeatCount: Int = 1,
        concurrency: Int = 12, failFast: Bool = false, strict: Bool = false,
        rerunCommand: @escaping @Sendable (String) -> String
    ) {
        self.ringcheckVersion = ringcheckVersion
        self.commandName = commandName
        self.reportDir = reportDir
        self.fileFormats = fileFormats
        self.quiet = quiet
        self.verbose = verbose
        self.repeatCount = repeatCount
        self.concurrency = concurrency
        self.failFast = failFast
        self.strict = strict
        self.rerunCommand = rerunCommand
    }
}

/// The ringcheck release, shown by `ringcheck --version` and named in every report.
enum RingcheckVersion {
    static let current = "0.1.0-dev"
}

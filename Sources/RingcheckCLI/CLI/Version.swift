/// The ringcheck release, shown by `ringcheck --version` and named in every report.
enum RingcheckVersion {
    /// The release (Debian packages are versioned by it: `make deb`).
    static let current = "0.1.0"
    /// The commit the binary was built from (`scripts/build-info.sh`, run by the BuildInfo plugin before
    /// every build): a short hash, `-dirty` when the working tree differed, or `unknown` outside a checkout.
    static let commit = buildCommit
    /// `ringcheck 0.1.0 (commit 1a2b3c4d5e6f)`.
    static var line: String { "ringcheck \(current) (commit \(commit))" }
}

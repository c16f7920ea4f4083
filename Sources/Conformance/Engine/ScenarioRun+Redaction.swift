import PushMocks
import Reports

// MARK: - Secrets out of the outcome

extension ScenarioRun {
    /// The values of this run no report may show in full: every token its devices registered (a
    /// registerToken request carries it, and a backend may echo it), what the profiles' run states name
    /// (`ProfileRunState.reportSecrets`: media credentials a backend issued), the providers' secrets and the target's profile configuration's (a signing secret, an
    /// API key: `ProfileConfiguration.secrets`). Shorter values are left alone: replacing them would mangle
    /// ordinary text.
    func reportSecrets() -> [String] {
        var out = Set(devices.values.flatMap(\.tokens))
        out.formUnion(profileStates.reportSecrets)
        out.formUnion(engine.providerSecrets)
        out.formUnion(engine.target.profileConfiguration.secrets)
        return out.filter { $0.utf8.count >= 8 }.sorted { $0.utf8.count > $1.utf8.count }
    }

    /// `text` as reports may show it: each of `secrets` shortened the way captures show device tokens
    /// (`ab12…9f3e`), then whatever has a secret's shape (JWTs, access tokens, bearer credentials,
    /// long hex runs, private keys) hidden as in captured pushes.
    static func redactedForReports(_ text: String, _ secrets: [String]) -> String {
        redactedForReports(text, ReportSecrets(secrets))
    }

    /// `redactedForReports(_:_:)` with the secrets prepared once for many texts.
    ///
    /// Byte by byte: the secrets are tokens and keys (ASCII), and `String.contains` compared characters,
    /// which took about a tenth of the test process's CPU in whole-suite runs (each of a run's texts
    /// against each of its secrets).
    static func redactedForReports(_ text: String, _ secrets: ReportSecrets) -> String {
        let replaced = Redaction.replacingEach(secrets.pairs, in: Array(text.utf8))
        return Redaction.redactingOutput(replaced.map { String(decoding: $0, as: UTF8.self) } ?? text)
    }

    /// The timeline and failures with every secret of the run redacted: run once at the end, when
    /// every token the scenario registered is known (a request is recorded before its token is).
    func redactedForReports(
        timeline: [TimelineItem], failures: [CheckFailure]
    ) -> (timeline: [TimelineItem], failures: [CheckFailure]) {
        let secrets = ReportSecrets(reportSecrets())
        func clean(_ s: String) -> String { Self.redactedForReports(s, secrets) }
        let items = timeline.map { item in
            var item = item
            item.summary = clean(item.summary)
            item.detail = item.detail.map(clean)
            return item
        }
        let checks = failures.map { failure in
            var failure = failure
            failure.check = clean(failure.check)
            failure.expected = clean(failure.expected)
            failure.actual = clean(failure.actual)
            failure.evidence = failure.evidence.map { e in
                EvidenceItem(kind: e.kind, title: clean(e.title), text: clean(e.text))
            }
            return failure
        }
        return (items, checks)
    }
}

/// A run's secrets as bytes, each with the short form reports show instead, longest first.
struct ReportSecrets {
    let pairs: [(secret: [UInt8], replacement: [UInt8])]

    init(_ secrets: [String]) {
        pairs = secrets.map { (Array($0.utf8), Array(Redaction.shortToken($0).utf8)) }
    }
}

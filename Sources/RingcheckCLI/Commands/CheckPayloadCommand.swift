import AllProfiles
import Conformance
import Foundation
import InputLimits
import JSON

/// `ringcheck check-payload`: judge one captured push or payload against a profile's push rules, the
/// default profile's unless `--profile` names another. The profiles supply the rules (`Profile.payloadDocumentJudge`,
/// `Profile.capturedPushJudge`) and their options (`CapturedPushJudge.optionRows`); this command names no profile
/// outside its help text.
struct CheckPayloadCommand: RingcheckCommand {
    /// The profiles in force (`Profiles.registry`) with push rules to check (`Profile.payloadDocumentJudge` or
    /// `Profile.capturedPushJudge`), in registry order. Read at use, so an injected registry is followed.
    static var judged: [any Profile] {
        Profiles.registry.all.filter { Judging($0) != nil }
    }
    /// Their judges of captured pushes, in registry order.
    static var judges: [any CapturedPushJudge.Type] { Profiles.registry.all.compactMap(\.capturedPushJudge) }

    static let name = "check-payload"

    /// Built from the registry in force at each use (a few strings; `dispatch` reads it once per command line).
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: name,
            abstract: "Check one captured push or payload against \(rulesName) and list every violation.",
            discussion: discussion,
            arguments: [
                ArgumentSpec(name: "file", help: "The JSON document, or - for standard input.", optional: false)
            ],
            options: OptionSpec.built(
                shared: [
                    .value("kind", "KIND", help: "apns, fcm or invitation.", default: "detected from the document"),
                    .value(
                        "topic", "TOPIC", help: "The apns-topic VoIP pushes must carry (bundle ID + .voip).",
                        default: "any topic ending in .voip"),
                    .value(
                        "profile", "NAME", help: "Whose push rules: \(judged.map(\.name).joined(separator: ", ")).",
                        default: Profiles.defaultProfile.name),
                ], profiles: judges.map { ($0.profile, $0.optionRows) }),
            examples: documentJudges.flatMap { $0.judge.examples }
                + judges.prefix(1).map {
                    "curl -s \"$RINGCHECK_CONTROL_URL/v1/captures\" | ringcheck check-payload --profile \($0.profile) -"
                } + judges.flatMap { $0.examples })
    }

    /// The profiles that judge a whole document (`Profile.payloadDocumentJudge`), the default profile's first.
    static var documentJudges: [(profile: String, judge: any PayloadDocumentJudge.Type)] {
        let all = judged.compactMap { p in p.payloadDocumentJudge.map { (p.name, $0) } }
        let isDefault = { (name: String) in name == Profiles.defaultProfile.name }
        return all.filter { isDefault($0.0) } + all.filter { !isDefault($0.0) }
    }

    /// The rules the command checks without --profile: the default profile's document judge's (`rulesName`).
    static var rulesName: String {
        guard let first = documentJudges.first, first.profile == Profiles.defaultProfile.name else {
            return "the \(Profiles.defaultProfile.name) push rules"
        }
        return first.judge.rulesName
    }

    /// `check-payload --help`'s discussion: which profiles judge documents and which captures, each document
    /// judge's own text (`PayloadDocumentJudge.documentHelp`), then the output and the exit status.
    static var discussion: String {
        let documents = documentJudges.map {
            "--profile \($0.profile)\($0.profile == Profiles.defaultProfile.name ? " (the default)" : "")"
        }
        var lead =
            documents.isEmpty
            ? "" : documents.sentenceList("and") + (documents.count == 1 ? " is" : " are") + " described here"
        if !judges.isEmpty {
            lead +=
                (lead.isEmpty ? "" : "; ") + "--profile \(judgedList) judges captures\n"
                + "(a capture of GET /v1/captures, or its whole {\"captures\": [...]} answer) by that profile's push rules\n"
                + "without the requests that caused them (see docs/commands.md)"
        }
        return lead + ".\n\n" + documentJudges.map { $0.judge.documentHelp + "\n\n" }.joined() + """
            Each violation is printed as: requirement, level, path, expected against actual.
            EXIT STATUS: 0 no violation of a MUST (SHOULD findings are listed), 1 a MUST is violated,
            2 the input cannot be read, is not JSON (the position is named) or its kind cannot be told.
            """
    }

    /// The profiles with a judge of captured pushes, as a sentence lists them (`a, b or c`).
    static var judgedList: String {
        judges.map { $0.profile }.sentenceList("or")
    }

    var file: String
    var kind: PayloadKind?
    var topic: String?
    /// The profile's check of the whole document (`Profile.payloadDocumentJudge`, preferred), else its judge of
    /// captured pushes.
    var judging: Judging
    /// The profile whose rules those are (its catalogue gives a captured-push judge's levels).
    var judgedProfile: any Profile
    var context = CapturedPushContext()

    /// How a profile judges what `check-payload` is given.
    enum Judging {
        case document(any PayloadDocumentJudge.Type)
        case captures(any CapturedPushJudge.Type)

        /// `profile`'s judging; nil when it has no push rules to check.
        init?(_ profile: any Profile) {
            if let document = profile.payloadDocumentJudge {
                self = .document(document)
            } else if let captures = profile.capturedPushJudge {
                self = .captures(captures)
            } else {
                return nil
            }
        }
    }

    init(arguments: ParsedArguments) throws {
        file = arguments.positionals[0]
        let judged = Self.judged
        let profile = arguments.value("profile") ?? Profiles.defaultProfile.name
        guard let chosen = judged.first(where: { $0.name == profile }), let judging = Judging(chosen) else {
            let names = judged.map(\.name)
            throw UsageError(
                message:
                    "--profile '\(Suggestion.shown(profile))' has no push rules to check\(TriggerCommand.didYouMean(profile, names)) (\(names.joined(separator: ", ")))",
                command: Self.name)
        }
        judgedProfile = chosen
        self.judging = judging
        var judge: (any CapturedPushJudge.Type)?
        if case .captures(let captures) = judging {
            judge = captures
            if arguments.value("kind") != nil {
                let owners = judged.filter { $0.payloadDocumentJudge != nil }.map(\.name)
                throw UsageError(
                    message:
                        "--kind is the \(owners.joined(separator: " or ")) profile's: --profile \(profile) judges captures",
                    command: Self.name)
            }
        }
        let environment = ProcessInfo.processInfo.environment
        let ownRows = judge?.optionRows.map(\.name) ?? []
        for owner in Self.judges {
            for option in owner.optionRows.map(\.name) where arguments.value(option) != nil && !ownRows.contains(option)
            {
                let owners = Self.judges.filter { $0.optionRows.contains { $0.name == option } }.map { $0.profile }
                throw UsageError(
                    message: "--\(option) applies to --profile \(owners.joined(separator: " or ")) only",
                    command: Self.name)
            }
        }
        if let judge {
            var options: [String: [String]] = [:]
            for option in ownRows where !arguments.all(option).isEmpty { options[option] = arguments.all(option) }
            context = judge.context(voipTopic: arguments.value("topic"), options: options, environment: environment)
        }
        if let raw = arguments.value("kind") {
            guard let kind = PayloadKind(rawValue: raw.lowercased()) else {
                throw UsageError(message: "--kind takes apns, fcm or invitation, not '\(raw)'", command: Self.name)
            }
            self.kind = kind
        }
        topic = arguments.value("topic")
    }

    func run() async throws -> ExitCode {
        let name = file == "-" ? "<stdin>" : file
        let bytes: [UInt8]
        do {
            bytes =
                file == "-"
                ? try BoundedFile.standardInput(name: name, limit: BoundedFile.maxDataBytes)
                : try BoundedFile.bytes(file, limit: BoundedFile.maxDataBytes)
        } catch {
            Console.error("ringcheck check-payload: \(error)")
            return .usage
        }
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            let (line, column) = Self.position(of: error.offset, in: bytes)
            Console.error(
                "ringcheck check-payload: \(name):\(line):\(column): not valid JSON: \(error.message) (byte \(error.offset))"
            )
            return .usage
        }
        let check: PayloadCheck
        do {
            switch judging {
            case .document(let judge):
                check = try judge.check(document, kind: kind, voipTopic: topic)
            case .captures(let judge):
                check = try CapturedPushCheck.check(
                    document, judge: judge, context: context, levels: CapturedPushCheck.levels(of: judgedProfile))
            }
        } catch {
            Console.error("ringcheck check-payload: \(name): \(error.message)")
            return .usage
        }
        if case .captures(let judge) = judging {
            Console.out(Self.render(check, name: name, profile: "the \(judge.profile) push rules"))
            Console.out("  (\(judge.unjudged(given: context)))")
        } else {
            Console.out(Self.render(check, name: name))
        }
        return check.violations.violatesMust ? .nonConformant : .success
    }

    /// The report: a summary line, then one line per violation.
    static func render(_ check: PayloadCheck, name: String, profile given: String? = nil) -> String {
        let musts = check.violations.filter { $0.level == .must }.count
        let shoulds = check.violations.count - musts
        let profile = given ?? check.kind.map { "the \($0.rawValue) profile" } ?? "the apns and fcm profiles"
        var out = "\(name): \(check.form), checked against \(profile): "
        if check.violations.isEmpty {
            out += "no violations\n"
            return out
        }
        out += "\(check.violations.count) violation\(check.violations.count == 1 ? "" : "s") "
        out += "(\(musts) MUST, \(shoulds) SHOULD)\n"
        for v in check.violations { out += "  " + v.description + "\n" }
        return out
    }

    /// 1-based line and column (in bytes) of `offset`.
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for b in bytes.prefix(offset) {
            if b == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }
}

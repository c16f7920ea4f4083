import Callx
import Conformance
import Foundation
import HTTP
import InputLimits
import PushMocks
import ReferenceBackend

/// `ringcheck call`: play user A against a backend, follow the call live and exit with how it went.
struct CallCommand: RingcheckCommand {
    /// Computed, as every command's is, so what it reads of the registry in force is read at each use.
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "call",
            abstract: "Play the caller: place one call, show its live timeline, exit with how it went.",
            discussion: """
                Creates a call from --as to --to and follows it: the pushes ringcheck's mocks receive for it (APNs/FCM,
                accepted or rejected), the caller's event feed, who answered after how long, and how it ended. Ctrl-C
                while it rings cancels the call (reason callerCancelled); once answered, Ctrl-C hangs up.

                Without --target it runs against the embedded reference backend wired to ringcheck's mock APNs and FCM,
                with test users user-a (Alex), user-b (Blake), user-c (Casey) (any other name is added), and registers two
                virtual devices for the callee: a phone (APNs VoIP, sandbox) and a tablet (FCM). --auto-answer or
                --auto-decline makes the phone act on its invitation, so a demo needs nothing else running. Once the call
                is over, the tokens ringcheck registered are deleted again (--keep-devices leaves them). With no
                --hangup-after, the caller hangs up 2 s after a virtual device answered; after a real answer it waits
                for the other side to hang up (or Ctrl-C).

                With --target, --as and --to name a user of the file (a, b, …) or an account's userId, and the file needs
                only these two users: a backend with two test accounts declares a and b (run --target needs a, b and c).

                --ring-timeout: on the embedded backend, how long calls ring before they end as unanswered (whole
                seconds, rounded up); with --target, the caller's own give-up time (it then ends the call with reason
                unanswered). Without it the caller waits until the backend's expiresAtMs plus 5 s (a call still ringing
                then is a finding), or 30 s when the backend names no expiry.

                EXIT STATUS:
                  0   answered (and then ended, by either side)
                  1   the backend misbehaved: an invitation after the call ended, two winners, a call that never
                      ended or came back to life, or a push that violates a MUST of the Callx push profile (every
                      push shown is judged as check-payload judges a capture; the violation is printed)
                  2   usage or configuration error
                  3   inconclusive: the backend could not be reached, refused to create the call, or the end was not seen
                  10  declined (or busy, or refused otherwise) by the callee while it rang
                  11  unanswered: the ring timed out, or the caller gave up
                  12  cancelled by the caller (--cancel-after, or Ctrl-C while ringing)
                """,
            options: [
                .embeddedOrTarget,
                .value(
                    "as", "USER",
                    help: "The calling user (a test user, or a user or account's userId in the target file).",
                    default: "user-a; with --target, the file's user a"),
                .value("to", "USER", help: "The user to call (as --as names it). Required."),
                .flag("video", help: "Place a video call."),
                .value(
                    "cancel-after", "S", help: "Cancel the call if it still rings S seconds after it was created.",
                    number: Self.seconds),
                .value(
                    "hangup-after", "S", help: "Hang up S seconds after the call was answered.", number: Self.seconds),
                .value(
                    "ring-timeout", "S",
                    help: "Embedded backend: how long calls ring. --target: the caller's own give-up time.",
                    default: "30 on the embedded backend", number: .seconds(upTo: 86_400, positive: true)),
                .optionalValue(
                    "auto-answer", "S",
                    help: "The callee's virtual phone answers S seconds after its invitation arrived.",
                    default: "1", number: Self.seconds),
                .optionalValue(
                    "auto-decline", "S",
                    help:
                        "The callee's virtual phone declines (reason declined) S seconds after its invitation arrived.",
                    default: "1", number: Self.seconds),
                .flag(
                    "keep-devices",
                    help:
                        "Leave the virtual devices registered after the call (by default their tokens are deleted once it is over)."
                ),
                .flag("json", help: "Write one JSON object per line (NDJSON), then a summary object, instead of text."),
                .value(
                    "reference-defect", "NAME", help: "Run the embedded reference backend with this defect.",
                    repeatable: true),
            ],
            examples: [
                "ringcheck call --to user-b --auto-answer 2 --hangup-after 5   # a whole call with nothing else running",
                "ringcheck call --to user-b --auto-decline                      # exit 10",
                "ringcheck call --to user-b --ring-timeout 5                    # nobody answers: exit 11",
                "ringcheck call --to user-b --cancel-after 3 --json             # NDJSON timeline, exit 12",
                "ringcheck call --target backend.yaml --as alice --to bob      # with target files: ring a real phone",
            ])
    }

    var targetFile: String?
    var callerName: String
    var calleeName: String
    var video: Bool
    var cancelAfter: Duration?
    var hangupAfter: Duration?
    var ringTimeout: Double?
    var response: VirtualResponse.Action?
    var responseDelay: Duration
    var json: Bool
    var keepDevices: Bool
    /// The embedded reference's defects (`--reference-defect`), read through the kit of the profile whose live
    /// exchange `call` is; its usage error names every defect.
    var defects: Set<CallxDefect>

    init(arguments: ParsedArguments) throws {
        let name = Self.configuration.name
        targetFile = arguments.value("target")
        // The embedded backend's test user, or the user a target file calls a (the suite's caller).
        callerName = arguments.value("as") ?? (targetFile == nil ? "user-a" : "a")
        guard let to = arguments.value("to"), !to.isEmpty else {
            throw UsageError(message: "--to USER is required: whom to call", command: name)
        }
        calleeName = to
        guard calleeName != callerName else {
            throw UsageError(message: "--as and --to name the same user '\(to)': call someone else", command: name)
        }
        video = arguments.flag("video")
        cancelAfter = try arguments.duration("cancel-after")
        hangupAfter = try arguments.duration("hangup-after")
        if cancelAfter != nil && hangupAfter != nil {
            throw UsageError(
                message:
                    "--cancel-after and --hangup-after exclude each other: cancel a ringing call, or hang up an answered one",
                command: name)
        }
        ringTimeout = try arguments.double("ring-timeout")
        let answer = arguments.flag("auto-answer") || arguments.value("auto-answer") != nil
        let decline = arguments.flag("auto-decline") || arguments.value("auto-decline") != nil
        if answer && decline {
            throw UsageError(message: "--auto-answer and --auto-decline exclude each other", command: name)
        }
        response = answer ? .answer : decline ? .decline : nil
        responseDelay = try arguments.duration(answer ? "auto-answer" : "auto-decline") ?? .seconds(1)
        json = arguments.flag("json")
        keepDevices = arguments.flag("keep-devices")
        defects = try CallxReferenceKit().defects(
            arguments.all("reference-defect"), for: name, context: "", list: .names)
        if targetFile != nil && !defects.isEmpty {
            throw UsageError(
                message: "--reference-defect applies to the embedded backend, not to --target", command: name)
        }
    }

    /// The waits --cancel-after, --hangup-after, --auto-answer and --auto-decline take: up to a day.
    static let seconds = NumberRange.seconds(upTo: 86_400)

    func run() async throws -> ExitCode {
        if let targetFile { return try await runTarget(targetFile) }
        return try await runEmbedded()
    }

    /// Places the call on `target` and follows it; `mocks` are watched for the call's pushes when
    /// the backend sends them there. `embedded` makes the ring time the backend's own.
    func call(target: Target, mocks: MockStack?, embedded: Bool, signals: CallSignals? = nil) async -> ExitCode {
        guard var caller = account(callerName, of: target) else {
            Console.error("ringcheck call: the target has no account '\(callerName)' (--as)")
            return .usage
        }
        guard var callee = account(calleeName, of: target) else {
            Console.error("ringcheck call: the target has no account '\(calleeName)' (--to)")
            return .usage
        }
        if let credentials = target.credentials {
            // Accounts that sign in (a login request or a command) do so now, once each.
            do {
                caller.account.authHeaders = try await credentials(caller.role, 0)
                callee.account.authHeaders = try await credentials(callee.role, 0)
            } catch {
                Console.error("ringcheck call: signing in failed: \(error)")
                return .inconclusive
            }
        }
        let prefix = VirtualCallee.freshPrefix("ringcheck")
        var plan = FakeCallPlan(
            caller: caller.account, callee: callee.account, callerInstallationId: prefix + "-caller")
        plan.video = video
        plan.cancelAfter = cancelAfter
        plan.hangupAfter = hangupAfter
        if !embedded, let ringTimeout {
            plan.giveUpAfter = .milliseconds(CheckedNumber.milliseconds(seconds: ringTimeout) ?? 0)
        }
        // Virtual devices ring on the embedded backend always; on a real one only when asked to act,
        // so a real phone is not joined by ringcheck's.
        // The phone registers in the APNs environment the target supports (sandbox needs the capability).
        if embedded || response != nil {
            plan.calleeDevices = VirtualCallee.pair(
                prefix: prefix, apnsEnvironment: target.capabilities.contains(.sandbox) ? .sandbox : .production)
            // The caller's feed is read through an installation registered like a real app's.
            plan.registerCallerInstallation()
        }
        if let response { plan.response = VirtualResponse(action: response, device: "phone", after: responseDelay) }
        plan.removesDevicesAfterwards = !keepDevices

        let printer = CallTimelinePrinter(json: json)
        let fakeCaller: FakeCaller
        do {
            fakeCaller = try FakeCaller(target: target, mocks: mocks, plan: plan) { printer.print($0) }
        } catch {
            Console.error("ringcheck call: cannot start the HTTP client: \(error)")
            return .inconclusive
        }
        if !json { Console.out("Calling \(calleeName) as \(callerName) on \(target.name) (\(target.baseURL))") }
        var interruption: (@Sendable () async -> Void)?
        if let signals {
            signals.callPlaced()
            interruption = { await signals.interrupted() }
        }
        let result = await fakeCaller.run(interruption: interruption)
        let code = Self.exitCode(result.outcome)
        printer.summary(result, exitCode: code)
        return code
    }

    static func exitCode(_ outcome: FakeCallOutcome) -> ExitCode {
        switch outcome {
        case .answered: return .success
        case .misbehaved: return .nonConformant
        case .inconclusive: return .inconclusive
        case .declined: return .callDeclined
        case .unanswered: return .callUnanswered
        case .cancelled: return .callCancelled
        }
    }
}

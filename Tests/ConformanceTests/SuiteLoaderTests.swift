import Foundation
import JSON
import TestSupport
import Testing

@testable import AllProfiles
@testable import Callx
@testable import Conformance

@Suite(.cpuBound) struct SuiteLoaderTests {
    /// A suite folder with a two-requirement catalogue and the given scenario files.
    func suite(_ files: [String: String]) throws -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        try dir.write("suite.yaml", "id: callx\nversion: '1'\ntitle: t\nseed: s.txt\nsections: [One]\n")
        try dir.write(
            "requirements.yaml",
            """
            requirements:
              - {id: CALLX-ARB-1, level: SHOULD, statement: one winner, section: One}
              - {id: CALLX-APNS-5, level: MUST, statement: expiration zero, section: One}
            """)
        for (name, text) in files { try dir.write(name, text) }
        return dir
    }

    func errors(_ text: String) throws -> [String] {
        let dir = try suite(["s.yaml": text])
        do {
            _ = try Suite.load(directory: dir.path)
            return []
        } catch {
            return error.errors.map { $0.description.replacingOccurrences(of: dir.path + "/", with: "") }
        }
    }

    static let header = """
        id: arbitration.race
        title: Two devices answer
        requirements: [CALLX-ARB-1]
        devices:
          b-phone: {user: b, kind: apnsVoip}
          b-tablet: {user: b, kind: fcm, registered: false}

        """

    @Test func shippedSuiteLoads() throws {
        let suite = try Suite.load(directory: ConformanceFixtures.callxSuite)
        #expect(suite.scenarios.count >= 15)
        #expect(Set(suite.scenarios.map(\.id)).count == suite.scenarios.count)
        let race = try #require(suite.scenario("arbitration.two-devices-race"))
        guard case .race(let r) = race.steps[2].step else {
            Issue.record("step 2 is not a race")
            return
        }
        #expect(r.steps.count == 2 && r.winners == 1 && r.requirement == "CALLX-ARB-1")
        #expect(race.device("b-tablet")?.kind == .fcm)
        #expect(race.device("b-phone")?.environment == .production)
    }

    @Test func fullScenarioDecodes() throws {
        let dir = try suite([
            "race.yaml": Self.header + """
                needs: [faults]
                steps:
                  - fault: {device: b-phone, times: 1, respond: {status: 503}, retryAfter: 1}
                  - create: {as: a, callee: b, operationId: op-1, video: true, save: call, expect: {status: [200, 201]}}
                  - expectPush: {to: [b-phone], call: $call.callId, within: 1.5s, match: {callx.revision: {matches: "^[0-9]+$"}}}
                  - race:
                      - answer: {device: b-phone, call: $call.callId, save: x}
                      - answer: {device: b-tablet, call: $call.callId}
                    expect: {winners: 1}
                  - expectNoPush: {to: b-tablet, for: 500ms}
                  - expectEvent:
                      as: a
                      type: call.accepted
                      call: $call.callId
                      match:
                        revision: {type: string, oneOf: ["2", "3"]}
                        occurredAtMs: {range: [0, 9007199254740991]}
                        answeredByInstallationId: $devices.b-phone.installationId
                        media: {absent: true}
                  - request: {as: a, method: GET, path: "/v1/calls/${x.callId}", headers: {X-Trace: "1"}}
                  - waitUntilExpiry: {call: $call}
                  - save: {copy: $x.revision}
                  - pollEvents: {device: b-phone, cursor: $copy}
                """
        ])
        let suite = try Suite.load(directory: dir.path)
        let scenario = try #require(suite.scenarios.first)
        #expect(scenario.needs == [.faults])
        #expect(scenario.steps.count == 10)
        #expect(scenario.steps[2].path == "steps[2]")
        guard let create = scenario.steps[1].step.profileStep(as: CreateCallStep.self) else { throw Failure() }
        #expect(create.actor == .user("a") && create.callee == "b" && create.video == true)
        #expect(create.operationId == .string("op-1") && create.options.save == "call")
        #expect(create.options.expect?.status == [200, 201])
        guard case .expectPush(let push) = scenario.steps[2].step else { throw Failure() }
        #expect(push.within.milliseconds == 1500 && push.count == 1 && push.type == "call.invited")
        #expect(push.match.first?.conditions == [.matches("^[0-9]+$")])
        guard let event = scenario.steps[5].step.profileStep(as: ExpectEventStep.self) else { throw Failure() }
        #expect(event.match.count == 4)
        #expect(event.match[0].conditions == [.type(.string), .oneOf(["2", "3"])])
        #expect(event.match[1].conditions == [.range(min: .number("0"), max: .number("9007199254740991"))])
        #expect(event.match[3].conditions == [.absent(true)])
        guard case .fault(let fault) = scenario.steps[0].step else { throw Failure() }
        #expect(fault.device == "b-phone" && fault.plan.times == 1 && fault.plan.retryAfter == 1)
        guard case .request(let request) = scenario.steps[6].step else { throw Failure() }
        #expect(request.headers["x-trace"] == .string("1") && request.auth == .session)
        #expect(ValueReference.all(in: request.path) == [ValueReference(name: "x", path: "callId")])
        guard let wait = scenario.steps[7].step.profileStep(as: WaitUntilExpiryStep.self) else { throw Failure() }
        #expect(wait.margin.milliseconds == 500)
    }

    @Test func errorsNameFileLineAndField() throws {
        let found = try errors(
            Self.header + """
                steps:
                  - create: {as: a, callee: b, save: call}
                  - race:
                      - answer: {devcie: b-phone, call: $call.callId}
                      - answer: {device: b-tablet, call: $call.callId}
                    expect: {winners: 1}
                """)
        #expect(
            found.contains("s.yaml:10:18: steps[1].race[0].answer: unknown field 'devcie' (did you mean 'device'?)"))
        #expect(
            found.contains { $0.hasPrefix("s.yaml:10:17: steps[1].race[0].answer: missing 'as' (a user) or 'device'") })
    }

    @Test func everyProblemIsCollected() throws {
        let found = try errors(
            Self.header + """
                needs: [fualts]
                steps:
                  - creat: {as: a}
                  - create: {as: z, callee: b, video: "yes"}
                  - answer: {device: b-laptop, call: $cal.callId}
                  - expectPush: {to: b-phone, within: 5 seconds, requirement: CALLX-ARB-9}
                  - expectNoPush: {to: b-phone}
                  - race:
                      - answer: {device: b-phone, call: x}
                      - expectPush: {to: b-phone}
                  - expectEvent: {as: a, type: call.accepted, match: {x: {matches: "("}, y: [1], z: {sometimes: 1}}}
                  - get: {as: a, call: x}
                    save: y
                  - fault: {device: b-phone, connection: explode}
                  - request: {method: FETCH, path: v1}
                """)
        let expected = [
            "s.yaml:7:9: needs: unknown capability 'fualts' (did you mean 'faults'?)",
            "s.yaml:9:5: steps[0]: unknown step 'creat' (did you mean 'create'?)",
            "s.yaml:10:18: steps[1].create.as: unknown user 'z'",
            "s.yaml:10:39: steps[1].create.video: expected true or false, got string",
            "s.yaml:11:22: steps[2].answer.device: unknown device 'b-laptop'",
            "s.yaml:11:38: steps[2].answer.call: '$cal.callId' refers to nothing saved by an earlier step",
            "s.yaml:12:39: steps[3].expectPush.within: '5 seconds' is not a duration",
            "s.yaml:12:63: steps[3].expectPush.requirement: unknown requirement 'CALLX-ARB-9' (did you mean 'CALLX-ARB-1'?)",
            "s.yaml:13:19: steps[4].expectNoPush: missing required field 'for'",
            "s.yaml:16:9: steps[5].race[1]: 'expectPush' cannot run in a race",
            "s.yaml:17:68: steps[6].expectEvent.match.x.matches: '(' is not a valid regular expression",
            "s.yaml:17:77: steps[6].expectEvent.match.y: a list is ambiguous here",
            "s.yaml:17:86: steps[6].expectEvent.match.z: unknown field 'sometimes'",
            "s.yaml:19:5: steps[7]: unknown field 'save' next to 'get' (put it inside 'get'",
            "s.yaml:20:12: steps[8].fault: connection must be one of reset, resetAfterAccept, goaway",
            "s.yaml:21:14: steps[9].request: give 'as' or 'device' to send credentials, or 'auth: none'",
            "s.yaml:21:23: steps[9].request.method: 'FETCH' is not one of",
            "s.yaml:21:36: steps[9].request.path: expected a path starting with '/'",
        ]
        #expect(found.count == expected.count, "\(found.joined(separator: "\n"))")
        for prefix in expected {
            #expect(
                found.contains { $0.hasPrefix(prefix) }, "missing: \(prefix)\nall:\n\(found.joined(separator: "\n"))")
        }
    }

    @Test func requirementsMustExistAndChecksMustBeListed() throws {
        let found = try errors(
            """
            id: x.y
            title: t
            requirements: [CALLX-ARB-1, CALLX-ARB-2]
            steps:
              - create: {as: a, callee: a, expect: {requirement: CALLX-APNS-5}}
            """)
        #expect(found.contains { $0.hasPrefix("s.yaml:3:29: requirements: unknown requirement 'CALLX-ARB-2'") })
        #expect(found.contains { $0.contains("'CALLX-APNS-5' is not in the scenario's requirements") })
    }

    @Test func savesAreVisibleOnlyAfterTheirStep() throws {
        let found = try errors(
            """
            id: x.y
            title: t
            requirements: [CALLX-ARB-1]
            devices: {p: {user: b, kind: fcm}, q: {user: b, kind: fcm}}
            steps:
              - create: {as: a, callee: b, callId: $call.callId, save: call}
              - race:
                  - answer: {device: p, call: $call.callId, save: won}
                  - answer: {device: q, call: $won.callId}
              - get: {as: a, call: $won.callId}
            """)
        #expect(found.count == 2, "\(found)")
        #expect(
            found.contains { $0.hasPrefix("s.yaml:6:40: steps[0].create.callId: '$call.callId' refers to nothing") })
        #expect(found.contains { $0.hasPrefix("s.yaml:9:35: steps[1].race[1].answer.call: '$won.callId'") })
    }

    @Test func structuralMistakes() throws {
        #expect(try errors("- just a list\n").first?.hasPrefix("s.yaml:1:1: expected a mapping") == true)
        #expect(try errors("id: X\ntitle: t\nrequirements: []\nsteps: []\n").count == 3)
        let broken = try errors("id: x.y\ntitle: [unclosed\n")
        #expect(broken.count == 1 && broken[0].hasPrefix("s.yaml:"))
        let dup = try suite([
            "a.yaml": Self.header + "steps: [{get: {as: a, call: x}}]\n",
            "b.yaml": Self.header + "steps: [{get: {as: a, call: x}}]\n",
        ])
        let error = #expect(throws: SuiteLoadError.self) { try Suite.load(directory: dup.path) }
        #expect(
            error?.errors.count == 1 && error?.description.contains("duplicate scenario ID 'arbitration.race'") == true)
    }

    @Test func builtInReferencesAndNewerConditions() throws {
        let found = try errors(
            Self.header + """
                steps:
                  - create: {as: a, callee: b, callId: $devices.b-phone.instalationId, body: {x: $users.b.name}}
                  - get: {as: a, call: $devices.b-fone.token}
                """)
        #expect(found.count == 3, "\(found)")
        #expect(found[0].contains("(did you mean 'installationId'?)"))
        #expect(found[1].contains("needs .userId after the user"))
        #expect(found[2].contains("names no device (did you mean 'b-phone'?)"))

        let dir = try suite([
            "ok.yaml": Self.header + """
                steps:
                  - create: {as: a, callee: b, save: call, expect: {status: any, body: {callId: {notEquals: x}}}}
                  - expectNoPush: {to: b-phone, for: 1s, match: {callx.eventId: {notEquals: $call.callId}}}
                  - create: {as: a, callee: b, expect: {status: any, bodyWhen: 2xx, body: {state: ringing}}}
                """
        ])
        let scenario = try #require(try Suite.load(directory: dir.path).scenarios.first)
        guard let create = scenario.steps[0].step.profileStep(as: CreateCallStep.self),
            case .expectNoPush(let none) = scenario.steps[1].step
        else { throw Failure() }
        #expect(create.options.expect?.anyStatus == true && create.options.expect?.status == nil)
        #expect(create.options.expect?.bodyOnlyOnSuccess == false)
        #expect(none.match.first?.conditions == [.notEquals("$call.callId")])
        let second = try #require(scenario.steps[2].step.profileStep(as: CreateCallStep.self))
        #expect(second.options.expect?.bodyOnlyOnSuccess == true)

        let wrong = try errors(
            Self.header + """
                steps:
                  - create: {as: a, callee: b, save: call, expect: {status: any, bodyWhen: 4xx, body: {state: ringing}}}
                """)
        #expect(wrong.count == 1 && wrong[0].contains("expect.bodyWhen: expected 2xx"), "\(wrong)")
    }

    @Test func withinNeedsAnOriginAndABound() throws {
        let found = try errors(
            Self.header + """
                steps:
                  - create: {as: a, callee: b, save: call}
                  - get: {as: a, call: $call.callId, expect: {body: {a: {within: {max: 5}}}}}
                  - get: {as: a, call: $call.callId, expect: {body: {a: {within: {of: $call.createdAtMs}}}}}
                  - get: {as: a, call: $call.callId, expect: {body: {a: {within: {of: $nope.x, max: soon}}}}}
                """)
        #expect(found.count == 4, "\(found)")
        #expect(found[0].contains("steps[1].get.expect.body.a.within: missing field 'of'"))
        #expect(found[1].contains("steps[2].get.expect.body.a.within: give 'min', 'max' or both"))
        #expect(found.contains { $0.contains("steps[3].get.expect.body.a.within.of: '$nope.x'") })
        #expect(
            found.contains { $0.contains("steps[3].get.expect.body.a.within.max: expected a number of milliseconds") })
    }

    @Test func overflowEventsNeedsACallerAndACallee() throws {
        let found = try errors(
            Self.header + """
                steps:
                  - overflowEvents: {as: a}
                  - overflowEvents: {callee: b}
                  - overflowEvents: {as: a, callee: b, times: 3}
                """)
        #expect(found.count == 3, "\(found)")
        #expect(found[0].contains("steps[0].overflowEvents: missing required field 'callee'"))
        #expect(found[1].contains("steps[1].overflowEvents: missing 'as' (a user) or 'device'"))
        #expect(found[2].contains("steps[2].overflowEvents: unknown field 'times'"))
    }

    @Test func expectNotLoggedNeedsAWindow() throws {
        let found = try errors(
            Self.header + """
                steps:
                  - expectNotLogged: {values: [x]}
                  - expectNotLogged: {for: 1s, values: secret}
                  - expectNotLogged: {for: 1s, values: [$nothing.saved]}
                """)
        #expect(found.count == 3, "\(found)")
        #expect(found[0].contains("steps[0].expectNotLogged: missing required field 'for'"))
        #expect(found[1].contains("steps[1].expectNotLogged.values: expected a list of values"))
        #expect(found[2].contains("steps[2].expectNotLogged.values[0]: '$nothing.saved'"))
    }

    @Test func expectNoPushCountsFromTheStartOrFromNow() throws {
        let found = try errors(
            Self.header + """
                steps:
                  - expectNoPush: {to: b-phone, for: 1s, from: later}
                  - expectNoEvent: {as: a, for: 1s, from: now}
                """)
        #expect(found.count == 2, "\(found)")
        #expect(found[0].contains("steps[0].expectNoPush.from:"))
        #expect(found[1].contains("steps[1].expectNoEvent: unknown field 'from'"))
        let dir = try suite([
            "ok.yaml": Self.header + "steps:\n  - expectNoPush: {to: b-phone, for: 1s, from: now}\n"
                + "  - expectNoPush: {to: b-phone, for: 1s}\n"
        ])
        let steps = try #require(try Suite.load(directory: dir.path).scenarios.first).steps
        guard case .expectNoPush(let now) = steps[0].step, case .expectNoPush(let start) = steps[1].step else {
            throw Failure()
        }
        #expect(now.fromNow && !start.fromNow)
    }

    @Test func durations() {
        #expect(ScenarioDuration("500ms")?.milliseconds == 500)
        #expect(ScenarioDuration("5s")?.milliseconds == 5000)
        #expect(ScenarioDuration("1.5s")?.milliseconds == 1500)
        #expect(ScenarioDuration("2m")?.milliseconds == 120_000)
        for bad in ["", "5", "s", "-1s", "1h", "1e3s", "11m", "5 s"] { #expect(ScenarioDuration(bad) == nil, "\(bad)") }
    }

    struct Failure: Error {}

    /// A matcher may name the requirement its field evidences; it must be one of the scenario's.
    @Test func aMatcherNamesItsOwnRequirement() throws {
        let dir = try suite([
            "s.yaml": """
            id: x.y
            title: t
            requirements: [CALLX-ARB-1, CALLX-APNS-5]
            devices: {b-phone: {user: b, kind: apnsVoip}}
            steps:
              - create: {as: a, callee: b, save: call}
              - expectPush:
                  to: b-phone
                  requirement: CALLX-ARB-1
                  match:
                    headers.apns-expiration: {equals: "0", requirement: CALLX-APNS-5}
                    headers.apns-push-type: voip
            """
        ])
        let loaded = try Suite.load(directory: dir.path)
        guard case .expectPush(let e) = try #require(loaded.scenarios.first).steps[1].step else {
            Issue.record("not an expectPush")
            return
        }
        #expect(e.requirement == "CALLX-ARB-1")
        #expect(e.match.first { $0.path == "headers.apns-expiration" }?.requirement == "CALLX-APNS-5")
        #expect(
            e.match.first { $0.path == "headers.apns-expiration" }?.conditions == [MatchCondition.equals(.string("0"))])
        #expect(e.match.first { $0.path == "headers.apns-push-type" }?.requirement == nil)

        let found = try errors(
            """
            id: x.y
            title: t
            requirements: [CALLX-ARB-1]
            devices: {b-phone: {user: b, kind: apnsVoip}}
            steps:
              - expectPush: {to: b-phone, match: {headers.apns-expiration: {equals: "0", requirement: CALLX-APNS-5}}}
              - expectPush: {to: b-phone, match: {headers.apns-priority: {requirement: CALLX-ARB-1}}}
            """)
        #expect(
            found.contains {
                $0.contains("headers.apns-expiration.requirement: 'CALLX-APNS-5' is not in the scenario's requirements")
            }, "\(found)")
        #expect(found.contains { $0.contains("headers.apns-priority: name a condition") }, "\(found)")
    }
}

@Suite struct CallxSuiteCoverageTests {
    /// Requirements no scenario evidences yet, each for a stated reason. Shrink this list; never grow it silently.
    static let notEvidenced: [String: String] = [
        "CALLX-SEC-2": "checked by the engine on every response, push and event, not by one scenario"
    ]

    @Test func everyRequirementHasAScenarioOrAReason() throws {
        let suite = try Suite.load(directory: ConformanceFixtures.callxSuite)
        let evidenced = Set(suite.scenarios.flatMap(\.requirements))
        for id in suite.catalogue.ids where !evidenced.contains(id) {
            #expect(Self.notEvidenced[id] != nil, "\(id) is evidenced by no scenario")
        }
        for id in Self.notEvidenced.keys {
            #expect(!evidenced.contains(id), "\(id) is evidenced now: remove it from the list")
            #expect(suite.catalogue[id] != nil)
        }
    }

    /// The Callx seed names no HTTP status, so a status check can only evidence a SHOULD: a vendor must
    /// never fail a MUST on our choice of status code. The one exception is a status the seed names in
    /// words: "the same ID with a different payload returns a conflict" (409 Conflict).
    @Test func statusChecksOnlyEvidenceShoulds() throws {
        let namedBySeed: [String: [Int]] = ["CALLX-IDEM-4": [409]]
        let suite = try Suite.load(directory: ConformanceFixtures.callxSuite)
        func expectations(_ steps: [ScenarioStep]) -> [(String, ResponseExpectation)] {
            steps.flatMap { step -> [(String, ResponseExpectation)] in
                switch step.step {
                case .race(let race): return expectations(race.steps)
                case .registerToken(let s): return s.options.expect.map { [(step.path, $0)] } ?? []
                case .deleteToken(let s): return s.options.expect.map { [(step.path, $0)] } ?? []
                case .profile(let p):
                    let options =
                        (p.base as? CreateCallStep)?.options ?? (p.base as? AnswerCallStep)?.options
                        ?? (p.base as? EndCallStep)?.options ?? (p.base as? CallRequestStep)?.options
                        ?? (p.base as? PollEventsStep)?.options
                    return options?.expect.map { [(step.path, $0)] } ?? []
                case .request(let s): return s.options.expect.map { [(step.path, $0)] } ?? []
                default: return []
                }
            }
        }
        for scenario in suite.scenarios {
            for (path, expect) in expectations(scenario.steps) where expect.status != nil {
                if let id = expect.requirement, namedBySeed[id] == expect.status { continue }
                let level = expect.requirement.flatMap { suite.catalogue[$0]?.level }
                #expect(level != .must, "\(scenario.id) \(path): a status check evidences a MUST")
            }
        }
    }

    /// The seed's create body has no video field: only a scenario whose create asks for video may
    /// demand it of the invitation.
    @Test func onlyAScenarioThatAsksForVideoDemandsIt() throws {
        let suite = try Suite.load(directory: ConformanceFixtures.callxSuite)
        func steps(_ list: [ScenarioStep]) -> [Step] {
            list.flatMap { s -> [Step] in
                if case .race(let r) = s.step { return steps(r.steps) }
                return [s.step]
            }
        }
        var demanding: [String] = []
        for scenario in suite.scenarios {
            let all = steps(scenario.steps)
            let asks = all.contains { $0.profileStep(as: CreateCallStep.self)?.video == true }
            let demands = all.contains { step in
                if case .expectPush(let e) = step { return e.match.contains { $0.path == "callx.video" } }
                return false
            }
            if demands {
                demanding.append(scenario.id)
                #expect(asks, "\(scenario.id) demands video of a call it did not create as a video call")
            }
        }
        #expect(demanding == ["payload.video-invitation"])
    }

    /// A target without operationId keys cannot evidence idempotency: a scenario that judges an IDEM
    /// requirement needs the capability, so such a target is never charged with it.
    @Test func idempotencyIsJudgedOnlyWhereTheTargetHasIt() throws {
        let suite = try Suite.load(directory: ConformanceFixtures.callxSuite)
        for scenario in suite.scenarios where scenario.requirements.contains(where: { $0.hasPrefix("CALLX-IDEM-") }) {
            #expect(scenario.needs.contains(.idempotency), "\(scenario.id) judges idempotency without needing it")
        }
    }

    /// FCM takes `android.priority` in any case, so the scenarios do too.
    @Test func theFCMInvitationScenarioTakesThePriorityInAnyCase() throws {
        let suite = try Suite.load(directory: ConformanceFixtures.callxSuite)
        let scenario = try #require(suite.scenario("payload.fcm-invitation"))
        let matcher = try #require(
            scenario.steps.compactMap { s -> PathMatcher? in
                if case .expectPush(let e) = s.step {
                    return e.match.first { $0.path == "body.message.android.priority" }
                }
                return nil
            }.first)
        #expect(matcher.requirement == "CALLX-FCM-3")
        for (priority, holds) in [("HIGH", true), ("high", true), ("High", true), ("NORMAL", false), ("normal", false)]
        {
            let doc: JSONValue = ["body": ["message": ["android": ["priority": .string(priority)]]]]
            #expect(MatcherEvaluator.holds([matcher], in: doc) == holds, "\(priority)")
        }
    }

    @Test func theSeedsEndToEndListHasScenarios() throws {
        let suite = try Suite.load(directory: ConformanceFixtures.callxSuite)
        for id in [
            "basic.answer-and-hang-up", "basic.cancel-before-answer", "arbitration.two-devices-race",
            "idempotency.create-retry", "delivery.reset-after-accept", "restart.ringing-call-survives",
        ] {
            #expect(suite.scenario(id) != nil, "\(id)")
        }
    }
}

@Suite(.cpuBound) struct ScenarioDecoderRobustnessTests {
    /// Truncated and mutated copies of every shipped scenario file load or fail with located errors; none traps.
    @Test func mutatedScenarioFilesNeverTrap() throws {
        let catalogue = try RequirementCatalogue.load(suiteDirectory: ConformanceFixtures.callxSuite)
        var generator = SystemRandomNumberGenerator()
        let replacements = Array(" -:[]{}$,\"'\t\n#&*!|>0a".utf8)
        for file in Suite.scenarioFiles(in: ConformanceFixtures.callxSuite, profiles: Profiles.registry) {
            let original = Array(
                try String(contentsOfFile: ConformanceFixtures.callxSuite + "/" + file, encoding: .utf8).utf8)
            var inputs: [[UInt8]] = stride(from: 0, to: original.count, by: 97).map { Array(original[0..<$0]) }
            for _ in 0..<40 {
                var mutated = original
                for _ in 0..<4 {
                    let i = Int.random(in: 0..<mutated.count, using: &generator)
                    mutated[i] = replacements.randomElement(using: &generator)!
                }
                inputs.append(mutated)
            }
            for input in inputs {
                guard let root = try? YAMLDocument.parse(input, file: file) else { continue }
                var decoder = ScenarioDecoder(file: file, catalogue: catalogue)
                _ = decoder.decodeFile(root)
                for error in decoder.d.errors { #expect(error.mark.line >= 1 && error.file == file) }
            }
        }
    }
}

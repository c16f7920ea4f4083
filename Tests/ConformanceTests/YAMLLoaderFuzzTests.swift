import Foundation
import TestSupport
import Testing

@testable import AllProfiles
@testable import Conformance

/// Bounded random input for the YAML loaders (a fixed seed and count: the same inputs in every CI
/// run, a few seconds): mutations of a real scenario and a real target file, and random bytes. Each
/// input loads, or is refused with diagnostics that each name the file and a line and column inside
/// it; nothing traps, hangs or returns neither.
@Suite(.cpuBound) struct YAMLLoaderFuzzTests {
    static let scenario = """
        id: arbitration.fuzz
        title: "Two devices race"
        requirements: [CALLX-ARB-1]
        users: [c]
        devices:
          b-phone: {user: b, kind: apnsVoip, environment: sandbox}
          b-tablet: {user: b, kind: fcm}
        needs: [faults]
        steps:
          - registerToken: {device: b-tablet, token: 'tok-1'}
          - create: {as: a, callee: b, save: call, expect: {status: [200, 201]}}
          - expectPush: {to: [b-phone, b-tablet], type: call.invited, call: $call.callId, within: 5s}
          - race:
              - answer: {device: b-phone, call: $call.callId}
              - answer: {device: b-tablet, call: "$call.callId"}
            expect: {winners: 1, requirement: CALLX-ARB-1}
          - fault: {device: b-phone, times: 1, respond: {status: 410, reason: Unregistered}}
          - request: {as: a, method: GET, path: "/v1/calls/${call.callId}", headers: {X-A: !!str 1}}
          - expectEvent: {as: a, type: call.accepted, match: {revision: {range: [1, 5]}, state: !!str accepted}}
          - save:
              n: !!int 3
              text: |
                block text

        """

    static let target = """
        name: fuzz backend
        baseURL: https://127.0.0.1:8443/
        tls: {insecureSkipVerify: true}
        capabilities: [faults, shortRing, {eventRetention: 10}]
        eventPageLimit: !!int 5
        users:
          a: {userId: user-a, auth: {bearer: token-a}}
          b: [{userId: user-b, auth: {headers: {X-Key: k}}}]
          c: {userId: user-c, auth: {login: {method: POST, url: /login, body: {u: "{userId}"}, token: data.t}}}
        operations:
          create:
            path: /api/calls
            body: {id: "{callId}", to: "{calleeUserId}", n: [1, 2.5, ~]}
            response: {snapshot: call}
            statuses: {412: 409}
        lifecycle:
          start: [./run.sh, --port, "8443"]
          ready: {url: "https://127.0.0.1:8443/health", timeout: 10s}

        """

    static let structural = Array(":-[]{},'\"|>&*!#%@`?~$ \n\t\\".utf8) + [0x00, 0xC3, 0xFF, 0xEF, 0xBB, 0xBF]

    static func mutate(_ input: [UInt8], _ g: inout SeededGenerator) -> [UInt8] {
        var out = input
        for _ in 0..<Int.random(in: 1...4, using: &g) {
            let byte =
                Bool.random(using: &g) ? structural.randomElement(using: &g)! : UInt8.random(in: 0...255, using: &g)
            let at = Int.random(in: 0..<max(out.count, 1), using: &g)
            switch Int.random(in: 0..<5, using: &g) {
            case 0 where at < out.count: out[at] = byte
            case 1: out.insert(byte, at: min(at, out.count))
            case 2 where at < out.count: out.remove(at: at)
            case 3:
                // Repeat a slice: a line copied, an indentation doubled.
                let end = min(out.count, at + Int.random(in: 1...40, using: &g))
                out.insert(contentsOf: out[min(at, out.count)..<end], at: end)
            default: out = Array(out.prefix(at))
            }
        }
        return out
    }

    static func inputs(_ sample: String, count: Int, seed: UInt64) -> [[UInt8]] {
        var g = SeededGenerator(seed: seed)
        let bytes = Array(sample.utf8)
        return (0..<count).map { i in
            i % 5 == 0
                ? (0..<Int.random(in: 0...80, using: &g)).map { _ in structural.randomElement(using: &g)! }
                : mutate(bytes, &g)
        }
    }

    static func expectLocated(_ errors: [SuiteError], file: String, lines: Int, input: [UInt8]) {
        #expect(!errors.isEmpty, "refused without a diagnostic: \(String(decoding: input, as: UTF8.self))")
        for e in errors {
            #expect(e.file == file)
            #expect(e.mark.line >= 1 && e.mark.line <= lines + 1 && e.mark.column >= 1, "\(e)")
            #expect(!e.message.isEmpty)
        }
    }

    @Test func theUnmutatedSamplesLoad() throws {
        var decoder = ScenarioDecoder(file: "fuzz.yaml", catalogue: nil)
        let scenarios = decoder.decodeFile(try YAMLDocument.parse(Self.scenario, file: "fuzz.yaml"))
        #expect(decoder.d.errors.isEmpty, "\(decoder.d.errors)")
        #expect(scenarios.first?.steps.count == 8)
        #expect(throws: Never.self) { try TargetFile.load(text: Self.target, file: "fuzz-target.yaml") }
    }

    @Test func mutatedScenariosDecodeOrFailWithALocation() {
        var loaded = 0
        var refused = 0
        for input in Self.inputs(Self.scenario, count: 1_500, seed: 0x5EED_0002) {
            let lines = input.count { $0 == UInt8(ascii: "\n") } + 1
            let root: YAMLNode
            do { root = try YAMLDocument.parse(input, file: "fuzz.yaml") } catch {
                refused += 1
                Self.expectLocated([SuiteError(error)], file: "fuzz.yaml", lines: lines, input: input)
                continue
            }
            var decoder = ScenarioDecoder(file: "fuzz.yaml", catalogue: nil)
            let scenarios = decoder.decodeFile(root)
            if decoder.d.errors.isEmpty {
                loaded += 1
                #expect(!scenarios.isEmpty || root.entries?.first?.key == "scenarios")
            } else {
                refused += 1
                Self.expectLocated(decoder.d.errors, file: "fuzz.yaml", lines: lines, input: input)
            }
        }
        #expect(loaded > 20 && refused > 200, "loaded \(loaded), refused \(refused)")
    }

    @Test func mutatedTargetFilesLoadOrFailWithALocation() {
        var loaded = 0
        var refused = 0
        for input in Self.inputs(Self.target, count: 1_500, seed: 0x5EED_0003) {
            let lines = input.count { $0 == UInt8(ascii: "\n") } + 1
            do {
                _ = try TargetFile.load(text: String(decoding: input, as: UTF8.self), file: "fuzz-target.yaml")
                loaded += 1
            } catch {
                refused += 1
                Self.expectLocated(error.errors, file: "fuzz-target.yaml", lines: lines, input: input)
            }
        }
        #expect(loaded > 20 && refused > 200, "loaded \(loaded), refused \(refused)")
    }
}

import Foundation
import JSON
import TestSupport
import Testing

@testable import AllProfiles
@testable import Conformance

/// Loading grows linearly with the file: four times the input may cost about four times the CPU
/// time, never sixteen. Each test compares two sizes in one run (CPU time, fastest of three), so a
/// busy machine does not change the verdict; the bound of 8 leaves room for cache effects.
@Suite(.cpuBound) struct YAMLLoadGrowthTests {
    static let bound = 8.0

    static func mapping(_ keys: Int) -> String {
        (0..<keys).map { "key\($0): value\($0)\n" }.joined()
    }

    static func list(_ items: Int) -> String {
        (0..<items).map { "- item\($0)\n" }.joined()
    }

    /// A scenario of `steps` steps, each saving a value the next one refers to.
    static func scenario(_ steps: Int) -> String {
        var text = """
            id: growth.many-steps
            title: Many steps
            requirements: [CALLX-ARB-1]
            steps:

            """
        text += "  - save: {v0: 1}\n"
        for i in 1..<steps { text += "  - save: {v\(i): $v\(i - 1)}\n" }
        return text
    }

    /// A scenario with `n` devices, each of its own user, and a step for each that names it.
    static func devices(_ n: Int) -> String {
        var text = "id: growth.many-devices\ntitle: Many devices\nrequirements: [CALLX-ARB-1]\ndevices:\n"
        for i in 0..<n { text += "  d\(i): {user: u\(i), kind: fcm}\n" }
        text += "steps:\n"
        for i in 0..<n { text += "  - registerToken: {device: d\(i), as: u\(i), token: $devices.d\(i).token}\n" }
        return text
    }

    /// A target file whose create body has `keys` fields.
    static func target(_ keys: Int) -> String {
        var text = """
            baseURL: http://127.0.0.1:8080
            users:
              a: {userId: user-a, auth: {bearer: token-user-a}}
              b: {userId: user-b, auth: {bearer: token-user-b}}
              c: {userId: user-c, auth: {bearer: token-user-c}}
            operations:
              create:
                body:

            """
        for i in 0..<keys { text += "      field\(i): value\(i)\n" }
        return text
    }

    @Test func aMappingWithManyKeysLoadsInLinearTime() throws {
        let texts = [2_000: Self.mapping(2_000), 8_000: Self.mapping(8_000)]
        let ratio = try GrowthRatio.ratio(small: 2_000, large: 8_000) { n in
            _ = try YAMLDocument.parse(texts[n]!)
        }
        #expect(ratio < Self.bound, "4× the keys took \(ratio)× the time")
    }

    @Test func aLongListLoadsInLinearTime() throws {
        let texts = [4_000: Self.list(4_000), 16_000: Self.list(16_000)]
        let ratio = try GrowthRatio.ratio(small: 4_000, large: 16_000) { n in
            _ = try YAMLDocument.parse(texts[n]!)
        }
        #expect(ratio < Self.bound, "4× the items took \(ratio)× the time")
    }

    @Test func aScenarioWithManyStepsDecodesInLinearTime() throws {
        let roots = [
            1_000: try YAMLDocument.parse(Self.scenario(1_000)), 4_000: try YAMLDocument.parse(Self.scenario(4_000)),
        ]
        let ratio = GrowthRatio.ratio(small: 1_000, large: 4_000) { n in
            var decoder = ScenarioDecoder(file: "growth.yaml", catalogue: nil)
            let scenarios = decoder.decodeFile(roots[n]!)
            #expect(scenarios.first?.steps.count == n, "\(decoder.d.errors.prefix(3))")
        }
        #expect(ratio < Self.bound, "4× the steps took \(ratio)× the time")
    }

    @Test func aScenarioWithManyDevicesDecodesInLinearTime() throws {
        let roots = [
            1_000: try YAMLDocument.parse(Self.devices(1_000)), 4_000: try YAMLDocument.parse(Self.devices(4_000)),
        ]
        let ratio = GrowthRatio.ratio(small: 1_000, large: 4_000) { n in
            var decoder = ScenarioDecoder(file: "growth.yaml", catalogue: nil)
            let scenarios = decoder.decodeFile(roots[n]!)
            #expect(scenarios.first?.allUsers.count == n + 1, "\(decoder.d.errors.prefix(3))")
        }
        #expect(ratio < Self.bound, "4× the devices took \(ratio)× the time")
    }

    @Test func aScenarioFileLoadsInLinearTime() throws {
        let texts = [1_000: Self.scenario(1_000), 4_000: Self.scenario(4_000)]
        let ratio = try GrowthRatio.ratio(small: 1_000, large: 4_000) { n in
            let root = try YAMLDocument.parse(texts[n]!, file: "growth.yaml")
            var decoder = ScenarioDecoder(file: "growth.yaml", catalogue: nil)
            _ = decoder.decodeFile(root)
        }
        #expect(ratio < Self.bound, "4× the steps took \(ratio)× the time")
    }

    @Test func aTargetFileWithManyKeysLoadsInLinearTime() throws {
        let texts = [2_000: Self.target(2_000), 8_000: Self.target(8_000)]
        let ratio = try GrowthRatio.ratio(small: 2_000, large: 8_000) { n in
            _ = try TargetFile.load(text: texts[n]!)
        }
        #expect(ratio < Self.bound, "4× the keys took \(ratio)× the time")
    }
}

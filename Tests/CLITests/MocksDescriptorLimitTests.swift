import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The mocks raise their soft limit on open descriptors to the hard limit when they start: with a
/// soft limit of 1024, a stack serving many backends' connections sheds connections at peaks.
@Suite struct MocksDescriptorLimitTests {
    /// Soft and hard "Max open files" of process `pid`, from /proc.
    static func descriptorLimits(_ pid: pid_t) -> (soft: String, hard: String)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Max open files") })
        else { return nil }
        let fields = line.dropFirst("Max open files".count).split(separator: " ")
        guard fields.count >= 2 else { return nil }
        return (String(fields[0]), String(fields[1]))
    }

    /// Only a hard limit above the lowered soft one can show the raise.
    static let hardLimitAbove256 =
        descriptorLimits(getpid()).map { $0.hard == "unlimited" || (Int($0.hard) ?? 0) > 256 } ?? false

    @Test(.enabled(if: hardLimitAbove256, "the hard limit on open descriptors is 256 or less"))
    func mocksStartedWithALowSoftLimitRaiseItToTheHardLimit() async throws {
        let own = try #require(Self.descriptorLimits(getpid()))
        let dir = TemporaryDirectory(prefix: "ringcheck-mocks-limit")
        let mocks = try MockStackCommandProcess(
            ["--env-file", "mocks.env", "--quiet"], directory: dir, softDescriptorLimit: 256)
        #expect(await mocks.waitForFile("mocks.env"), "\(mocks.stderr)")
        let limits = try #require(Self.descriptorLimits(mocks.pid))
        #expect(limits.hard == own.hard)
        // Up to the kernel's fs.nr_open when the hard limit is unlimited.
        #expect(
            limits.soft == limits.hard || (limits.hard == "unlimited" && Int(limits.soft) ?? 0 > 256),
            "soft \(limits.soft), hard \(limits.hard)")
        mocks.send(SIGTERM)
        #expect(await mocks.exited(within: 30) == 0, "\(mocks.stderr)")
    }
}

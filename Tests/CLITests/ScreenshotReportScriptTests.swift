import Foundation
import TestSupport
import Testing

/// scripts/screenshot-report.sh screenshots the HTML report of a pass, a MUST failure and a SHOULD-only
/// run in headless Chromium (Debian's `chromium`), so a person can look at how the report renders.
@Suite(.heavyTraffic) struct ScreenshotReportScriptTests {
    /// Debian's Chromium, where `apt-get install -y chromium` puts it.
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Width and height from a PNG's IHDR chunk (bytes 16–23).
    static func pngSize(_ path: String) -> (width: Int, height: Int)? {
        guard let data = FileManager.default.contents(atPath: path), data.count > 24,
            Array(data.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        else { return nil }
        let bytes = Array(data)
        let int = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (int(16), int(20))
    }

    @Test(.enabled(if: chromium != nil, "no Chromium: apt-get install -y chromium to screenshot the HTML report"))
    func screenshotsAPassAMUSTFailureAndAShouldOnlyRun() async throws {
        let dir = TemporaryDirectory()
        let script = TargetCommandTests.repositoryRoot + "/scripts/screenshot-report.sh"
        var environment = ProcessInfo.processInfo.environment
        environment["RINGCHECK"] = RingcheckBinary.path
        environment["CHROMIUM"] = Self.chromium
        let r = try await SuiteRunGate.exclusive {
            try await runProcess("/bin/sh", [script, dir.path], timeout: 600, environment: environment)
        }
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        for name in ["pass", "must", "should"] {
            for png in ["\(name).png", "\(name)-requirements.png"] {
                let size = Self.pngSize(dir.file(png))
                #expect(size?.width == 1400 && size?.height == 1000, "\(png): \(String(describing: size))")
            }
        }
        // The runs behind them: a pass, a MUST failure, a warning.
        let must = try String(contentsOfFile: dir.file("must/report.html"), encoding: .utf8)
        #expect(must.contains("v-nonConformant"))
        let should = try String(contentsOfFile: dir.file("should/report.html"), encoding: .utf8)
        #expect(should.contains("v-conformant v-warning"))
    }

    @Test func withoutChromiumTheScriptSaysWhatToInstall() async throws {
        let script = TargetCommandTests.repositoryRoot + "/scripts/screenshot-report.sh"
        var environment = ProcessInfo.processInfo.environment
        environment["CHROMIUM"] = "/nonexistent/chromium"
        environment["RINGCHECK"] = RingcheckBinary.path
        let dir = TemporaryDirectory()
        let r = try await runProcess("/bin/sh", [script, dir.path], timeout: 60, environment: environment)
        #expect(r.status == 2)
        #expect(r.stderr.contains("apt-get install -y chromium"), "\(r.stderr)")
    }
}

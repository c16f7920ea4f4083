import Testing

@testable import AllProfiles
@testable import Conformance

/// `lifecycle.instances`: a second backend instance for the scenarios that must run alone, and the files
/// that cannot have one (refused with line, column and field).
@Suite struct TargetFileInstancesTests {
    static let start = "start: [./backend, --port, \"${RINGCHECK_BACKEND_PORT}\"]"

    func errors(_ text: String) -> [String] {
        do {
            _ = try TargetFile.load(text: text, file: "t.yaml", users: .suite)
            return []
        } catch { return error.errors.map(\.description) }
    }

    func file(baseURL: String = "http://127.0.0.1:${RINGCHECK_BACKEND_PORT}", lifecycle: String) -> String {
        "baseURL: \(baseURL)\n\(TargetFileLoaderTests.users)\nlifecycle: {\(lifecycle)}\n"
    }

    @Test func twoInstancesLoadAndOneIsTheDefault() throws {
        let two = try TargetFile.load(
            text: file(lifecycle: Self.start + ", instances: 2"), file: "t.yaml", users: .suite)
        #expect(two.lifecycle?.instances == 2)
        let one = try TargetFile.load(text: file(lifecycle: Self.start), file: "t.yaml", users: .suite)
        #expect(one.lifecycle?.instances == 1)
    }

    @Test func aCountOtherThanOneOrTwoIsRefused() {
        #expect(
            errors(file(lifecycle: Self.start + ", instances: 3")) == [
                "t.yaml:6:81: lifecycle.instances: 3 is more than 2 (1, or 2 for a second instance)"
            ])
        #expect(errors(file(lifecycle: Self.start + ", instances: 0")).first?.contains("must be at least 1") == true)
        #expect(errors(file(lifecycle: Self.start + ", instances: two")).first?.contains("whole number") == true)
    }

    @Test func aSecondInstanceNeedsAStartCommandAndItsOwnPort() {
        let noStart = errors(file(lifecycle: "ready: {url: \"http://127.0.0.1:1/\"}, instances: 2"))
        #expect(
            noStart == [
                "t.yaml:6:50: lifecycle.instances: a second instance needs lifecycle.start (ringcheck starts each instance with it)"
            ])
        let fixedPort = errors(file(baseURL: "http://127.0.0.1:8080", lifecycle: Self.start + ", instances: 2"))
        #expect(fixedPort.count == 1)
        #expect(fixedPort.first?.contains("baseURL must name ${RINGCHECK_BACKEND_PORT}") == true, "\(fixedPort)")
    }
}

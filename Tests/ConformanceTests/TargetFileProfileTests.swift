import Testing

@testable import AllProfiles
@testable import Conformance

/// A target file's `profile:`: a registered profile's name, or nothing.
@Suite struct TargetFileProfileTests {
    static let base = """
        baseURL: http://127.0.0.1:9
        users:
          a: {userId: ua, auth: {bearer: ta}}
          b: {userId: ub, auth: {bearer: tb}}
          c: {userId: uc, auth: {bearer: tc}}

        """

    func errors(_ text: String) -> [String] {
        do {
            _ = try TargetFile.load(text: text, file: "t.yaml", users: .suite)
            return []
        } catch { return error.errors.map(\.description) }
    }

    @Test func aRegisteredProfileIsKeptAndNoneIsNil() throws {
        let named = try TargetFile.load(text: "profile: callx\n" + Self.base, file: "t.yaml", users: .suite)
        #expect(named.profile == "callx")
        let none = try TargetFile.load(text: Self.base, file: "t.yaml", users: .suite)
        #expect(none.profile == nil)
        // The template leaves it to --profile.
        #expect(try TargetFile.load(text: TargetFile.template, file: "t.yaml", users: .suite).profile == nil)
    }

    @Test func anUnknownOrEmptyProfileIsAnErrorAtItsLine() {
        #expect(
            errors(Self.base + "profile: calx\n").contains {
                $0.hasPrefix("t.yaml:6:10: profile: unknown profile 'calx' (did you mean 'callx'?)")
            }, "\(errors(Self.base + "profile: calx\n"))")
        #expect(errors("profile: ''\n" + Self.base).contains { $0.contains("profile: must not be empty") })
        #expect(errors("profile: [callx]\n" + Self.base).contains { $0.hasPrefix("t.yaml:1:10: profile:") })
    }
}

import Testing

@testable import Conformance

/// `cleanUp:` in a target file: on or off, or on with what the backend's 404 on a delete means.
@Suite struct TargetFileCleanUpTests {
    static let head = """
        baseURL: http://127.0.0.1:8080
        users:
          a: {userId: ua, auth: {bearer: ta}}
          b: {userId: ub, auth: {bearer: tb}}
          c: {userId: uc, auth: {bearer: tc}}

        """

    func load(_ text: String) throws(SuiteLoadError) -> TargetFile {
        try TargetFile.load(text: Self.head + text, file: "t.yaml", users: .suite)
    }

    func errors(_ text: String) -> [String] {
        do {
            _ = try load(text)
            return []
        } catch { return error.errors.map(\.description) }
    }

    @Test func a404CountsAsCleanedUnlessTheFileSaysOtherwise() throws {
        let plain = try load("")
        #expect(plain.cleanUp && plain.cleanUpNotFoundIsCleaned)
        #expect(plain.target(defaultAppId: "app").cleanUpNotFoundIsCleaned)
        let failed = try load("cleanUp: {notFound: failed}")
        #expect(failed.cleanUp && !failed.cleanUpNotFoundIsCleaned)
        #expect(!failed.target(defaultAppId: "app").cleanUpNotFoundIsCleaned)
        let cleaned = try load("cleanUp: {notFound: cleaned}")
        #expect(cleaned.cleanUp && cleaned.cleanUpNotFoundIsCleaned)
        #expect(try !load("cleanUp: false").cleanUp)
    }

    @Test func aWrongWordOrKeyIsNamed() {
        #expect(
            errors("cleanUp: {notFound: gone}") == [
                "t.yaml:6:21: cleanUp.notFound: 'gone' is not one of 'cleaned', 'failed'"
            ])
        let misspelt = errors("cleanUp: {notfound: failed}")
        #expect(misspelt.count == 1 && misspelt[0].contains("notFound"), "\(misspelt)")
    }
}

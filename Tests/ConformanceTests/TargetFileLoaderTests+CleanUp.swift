import Testing

@testable import Conformance

/// `cleanUp:` in a target file: on or off, or on with what the backend's 404 on a delete means.
extension TargetFileLoaderTests {
    static let cleanUpHead = "baseURL: http://127.0.0.1:8080\n\(users)\n"

    @Test func a404CountsAsCleanedUnlessTheFileSaysOtherwise() throws {
        let plain = try load(Self.cleanUpHead)
        #expect(plain.cleanUp && plain.cleanUpNotFoundIsCleaned)
        #expect(plain.target(defaultAppId: "app").cleanUpNotFoundIsCleaned)
        let failed = try load(Self.cleanUpHead + "cleanUp: {notFound: failed}")
        #expect(failed.cleanUp && !failed.cleanUpNotFoundIsCleaned)
        #expect(!failed.target(defaultAppId: "app").cleanUpNotFoundIsCleaned)
        let cleaned = try load(Self.cleanUpHead + "cleanUp: {notFound: cleaned}")
        #expect(cleaned.cleanUp && cleaned.cleanUpNotFoundIsCleaned)
        #expect(try !load(Self.cleanUpHead + "cleanUp: false").cleanUp)
    }

    @Test func aWrongCleanUpWordOrKeyIsNamed() {
        #expect(
            errors(Self.cleanUpHead + "cleanUp: {notFound: gone}") == [
                "t.yaml:6:21: cleanUp.notFound: 'gone' is not one of 'cleaned', 'failed'"
            ])
        let misspelt = errors(Self.cleanUpHead + "cleanUp: {notfound: failed}")
        #expect(misspelt.count == 1 && misspelt[0].contains("notFound"), "\(misspelt)")
    }
}

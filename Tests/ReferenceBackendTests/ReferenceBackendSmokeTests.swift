import Testing

@testable import ReferenceBackend

@Suite struct ReferenceBackendSmokeTests {
    @Test func sqliteLinks() { #expect(ReferenceBackendPlaceholder.sqliteVersion() >= 3_040_000) }
}

import Testing

@testable import Reports

@Suite struct ReportsSmokeTests {
    @Test func moduleLinks() { #expect(Bool(true)) }
}

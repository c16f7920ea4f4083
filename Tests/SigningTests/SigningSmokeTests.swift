import Testing

@testable import Signing

@Suite struct SigningSmokeTests {
    @Test func moduleLinks() { #expect(Bool(true)) }
}

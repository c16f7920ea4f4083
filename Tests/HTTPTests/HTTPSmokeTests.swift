import Testing

@testable import HTTP

@Suite struct HTTPSmokeTests {
    @Test func moduleLinks() { #expect(Bool(true)) }
}

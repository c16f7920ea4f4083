import Testing

@testable import PushMocks

@Suite struct PushMocksSmokeTests {
    @Test func moduleLinks() { #expect(Bool(true)) }
}

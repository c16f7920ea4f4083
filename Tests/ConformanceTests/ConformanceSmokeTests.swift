import Testing

@testable import Conformance

@Suite struct ConformanceSmokeTests {
    @Test func libyamlLinks() { #expect(ConformancePlaceholder.yamlVersion().hasPrefix("0.2")) }
}

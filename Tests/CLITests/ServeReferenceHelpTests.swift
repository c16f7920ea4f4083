import ReferenceBackend
import TestSupport
import Testing

/// `ringcheck serve-reference --help` names every API shape the command accepts, in the option's line and
/// in its API SHAPES section.
@Suite struct ServeReferenceHelpTests {
    @Test func everyAPIShapeIsInTheHelp() async throws {
        let r = try await RingcheckBinary.run(["serve-reference", "--help"])
        #expect(r.status == 0, "\(r.stderr)")
        let shapes = APIShape.allCases.map(\.rawValue)
        let list = shapes.dropLast().joined(separator: ", ") + " or " + (shapes.last ?? "")
        #expect(r.stdout.contains("Which HTTP API to serve: \(list)"), "\(r.stdout)")
        for shape in shapes {
            #expect(r.stdout.contains("\n  \(shape) "), "API SHAPES has no '\(shape)' entry")
        }
    }
}

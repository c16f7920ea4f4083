/// A reference's defect switch as the engine sees it: a `String` enum, one case per switch, its raw
/// value the switch's name, with a one-line `summary`. `ReferenceBackend`'s `ReferenceDefect` (which the
/// engine does not import) asks the same, so a defect enum there joins with one empty extension in its
/// profile's module; a defect declared in the profile's own module conforms directly:
///
/// ```swift
/// extension PagerDefect: ReferenceKitDefect {}   // a ReferenceBackend defect
///
/// package enum ProbeDefect: String, ReferenceKitDefect {      // a profile's own
///     case skipCheck = "skip-check"
///     package var summary: String { "the check is skipped" }
/// }
/// ```
package protocol ReferenceKitDefect: RawRepresentable, CaseIterable, Hashable, Sendable
where RawValue == String, AllCases == [Self] {
    /// One line for `--help`: what the reference does wrong with this switch on.
    var summary: String { get }
}

extension Set where Element: ReferenceKitDefect {
    /// The switches' names, sorted: how a banner, a target's name and a child's arguments list them.
    package var sortedNames: [String] { map(\.rawValue).sorted() }
}

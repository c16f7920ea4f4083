import AllProfiles
import Conformance

/// The registered profiles' reference kits (of `Profiles.registry`: `Profiles.all`, or the registry a caller of
/// `Ringcheck.dispatch(_:profiles:)` injected): `serve-reference
/// <profile>` (its accepted profiles, its help), `run --profile NAME`'s embedded reference and
/// `--reference-defect`, and `run --profile all` come from this list. A registered profile that is not a
/// `ReferenceKitProvider` can only be run with `--target`.
extension ReferenceKits {
    static var registered: ReferenceKits { ReferenceKits(profiles: Profiles.registry.all) }

    /// The kit `serve-reference` serves without a profile: the default profile's.
    static var defaultKit: any ReferenceKit { registered.named(Profiles.defaultProfile.name) ?? registered.all[0] }

    /// `serve-reference --help`'s profile sections: each kit's intro, defect heading and defect rows.
    var helpSections: String { all.map { $0.helpSection }.joined(separator: "\n\n") }

    /// The kits with the default profile's first, then the others in registry order.
    var defaultFirst: [any ReferenceKit] { all.filter(\.isDefault) + all.filter { !$0.isDefault } }

    /// The names of the options the kits declare (`ReferenceKit.serveOptions`), each once, in registry order.
    var serveOptionNames: [String] {
        var seen: Set<String> = []
        return all.flatMap { $0.serveOptions.map(\.name) }.filter { seen.insert($0).inserted }
    }
}

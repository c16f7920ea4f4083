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
}

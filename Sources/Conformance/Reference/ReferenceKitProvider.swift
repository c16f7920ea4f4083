/// A profile that brings its own reference backend: `serve-reference <name>`, its help, `run --profile
/// NAME` without `--target` (the embedded reference), `run --reference-defect`, `run --profile all` and
/// `load`'s embedded backend are generated from the registered profiles that conform. A profile without
/// a reference (only run with `--target`) does not conform. The conformance is the kit's one line:
///
/// ```swift
/// extension ProbeProfile: ReferenceKitProvider {
///     package var referenceKit: any ReferenceKit { ProbeReferenceKit() }
/// }
/// ```
package protocol ReferenceKitProvider: Profile {
    /// This profile's reference kit (its `profile` is this profile).
    var referenceKit: any ReferenceKit { get }
}

/// The reference kits of `profiles`, in their order: one per profile that is a `ReferenceKitProvider`.
///
/// ```swift
/// let kits = ReferenceKits(profiles: [PagerProfile(), ProbeProfile()])
/// kits.named("probe")?.title        // "the probe reference"
/// ```
package struct ReferenceKits: Sendable {
    package let all: [any ReferenceKit]

    package init(profiles: [any Profile]) {
        all = profiles.compactMap { ($0 as? any ReferenceKitProvider)?.referenceKit }
    }

    /// The kit of profile `name`, if it has one.
    package func named(_ name: String) -> (any ReferenceKit)? { all.first { $0.name == name } }

    /// The kits' names as a sentence's list: "pager, probe or relay".
    package var namesSentence: String { all.map { $0.name }.sentenceList("or") }
}

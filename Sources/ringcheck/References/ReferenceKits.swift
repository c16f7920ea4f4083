import AllProfiles
import Conformance

/// Every profile's reference kit, one line each: `serve-reference <profile>` (its accepted profiles, its
/// help), `run --profile NAME`'s embedded reference and `--reference-defect`, and `run --profile all` come
/// from this list. A profile registered in `Profiles.all` without a line here can only be run with `--target`.
enum ReferenceKits {
    static let all: [any ReferenceKit] = [
        CallxReferenceKit(), DialStackReferenceKit(), PushServiceReferenceKit(), OneSignalReferenceKit(),
    ]

    /// The kit of profile `name`, if it has one.
    static func named(_ name: String) -> (any ReferenceKit)? { all.first { $0.name == name } }

    /// The kit `serve-reference` serves without a profile: the default profile's.
    static var defaultKit: any ReferenceKit { named(Profiles.defaultProfile.name) ?? all[0] }

    /// The kits' names as a sentence's list: "callx, dialstack, push-service or onesignal".
    static var namesSentence: String {
        let names = all.map { $0.name }
        guard names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}

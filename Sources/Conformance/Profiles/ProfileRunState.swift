/// What a profile keeps of one scenario run beside the engine's own state (devices, users, saved
/// values, the timeline, failures): a type of the profile's own (`Profile.RunState`), made fresh for
/// each run and reached only through the profile's type, never by a name and a cast.
///
/// ```swift
/// struct PagerRunState: ProfileRunState {
///     var pagesSent: [String] = []
///     /// The one-time codes the backend issued: reports shorten them like tokens.
///     var codes: [String] = []
///     var reportSecrets: [String] { codes }
/// }
///
/// struct PagerProfile: Profile {
///     typealias RunState = PagerRunState
///     // …
/// }
///
/// extension RunContext {
///     /// The pager profile's state of this run.
///     var pager: PagerRunState {
///         get { profileStates[PagerProfile.self] }
///         _modify { yield &profileStates[PagerProfile.self] }
///     }
/// }
/// // In a step: context.pager.pagesSent.append(id)
/// ```
public protocol ProfileRunState: Sendable {
    /// The state at the start of a run.
    init()
    /// Values of this run that no report may show in full (Callx: the media credentials the backend
    /// issued); reports shorten them as they do device tokens. None by default.
    var reportSecrets: [String] { get }
}

extension ProfileRunState {
    public var reportSecrets: [String] { [] }
}

/// The state of a profile that keeps nothing of a run (the default `Profile.RunState`).
public struct NoRunState: ProfileRunState {
    public init() {}
}

/// Every profile's state of one run, each under its profile's type: `states[P.self]` is a
/// `P.RunState`, made fresh on first use (a profile may borrow another's step, whose state then lives
/// beside its own). Only the engine's run holds one (`RunContext.profileStates`).
public struct ProfileRunStates: Sendable {
    private var boxes: [ObjectIdentifier: any ProfileRunState] = [:]

    /// Profile `profile`'s state. Each box is stored under its profile's type as that profile's
    /// `RunState`, so the cast always succeeds; a missing box is a fresh state.
    public subscript<P: Profile>(_ profile: P.Type) -> P.RunState {
        get { boxes[ObjectIdentifier(profile)] as? P.RunState ?? P.RunState() }
        _modify {
            let key = ObjectIdentifier(profile)
            // Taken out while it changes, so that the change copies nothing.
            var state = boxes.removeValue(forKey: key) as? P.RunState ?? P.RunState()
            defer { boxes[key] = state }
            yield &state
        }
        set { boxes[ObjectIdentifier(profile)] = newValue }
    }

    /// The report secrets of every profile's state (`ProfileRunState.reportSecrets`).
    var reportSecrets: [String] { boxes.values.flatMap(\.reportSecrets) }
}

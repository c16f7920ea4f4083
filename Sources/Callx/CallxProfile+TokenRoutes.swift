import Conformance

extension CallxProfile {
    /// The reference design's token routes (`pushToken`) are Callx's own API: its clean-up deletes there even
    /// when the target file maps only `registerToken`.
    public var ownsReferenceTokenRoutes: Bool { true }
}

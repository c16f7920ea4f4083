/// What a target file's `operations.<name>:` may say for one operation: its name and the placeholders its
/// path, header and body templates may use, and the answer parts only it reads. The engine declares the
/// token operations' (`TokenAPIMapping.syntax`); a profile declares its own in
/// `Profile.targetFileOperations`, and the engine's decoder (`decodeOperation`) reads both alike.
///
/// ```swift
/// extension PagerProfile {
///     var targetFileOperations: [OperationSyntax] {
///         [OperationSyntax(name: "page", placeholders: ["userId", "installationId", "pageId"])]
///     }
/// }
/// ```
public struct OperationSyntax: Sendable, Equatable {
    /// The key under `operations:` (`registerToken`).
    public var name: String
    /// The placeholders its templates may use (`{installationId}`).
    public var placeholders: [String]
    /// Its `response.fields` name the members of a media session (`{jwtExp: PATH}` allowed).
    public var readsMedia: Bool
    /// It may say `gapStatus:` (a feed whose lost cursor is answered with a status of its own).
    public var readsGapStatus: Bool

    public init(name: String, placeholders: [String], readsMedia: Bool = false, readsGapStatus: Bool = false) {
        self.name = name
        self.placeholders = placeholders
        self.readsMedia = readsMedia
        self.readsGapStatus = readsGapStatus
    }
}

extension TargetFileDecoder {
    /// Callx's call operations of `operations:` (`entries`: create, answer, end, get, mediaSession, events)
    /// over the reference design's defaults, beside the engine's reading of the token operations
    /// (`tokens`); the file-wide `installation:` (`tokens.installation`) applies wherever an operation does
    /// not say otherwise, and `mark` is where an error about an operation the file does not give points.
    mutating func decodeCallOperations(
        _ entries: [String: YAMLMapEntry], tokens: TokenAPIMapping, answerByMedia: Bool, mark: YAMLMark
    ) -> TargetMapping {
        var mapping = TargetMapping(tokens: tokens)
        // Answer last: with answerByMediaRequest it copies the media-session mapping.
        for operation in TargetOperation.callOperations.filter({ $0 != .answer }) + [.answer] {
            let given = entries[operation.rawValue]
            if operation == .answer, answerByMedia, given == nil {
                // Answering is the callee device's media request: same mapping as mediaSession.
                var m = mapping[.mediaSession]
                m.response.media = m.response.media == "" ? nil : m.response.media
                mapping.operations[.answer] = m
                continue
            }
            if given != nil { mapping.declared.insert(operation) }
            let m = decodeMappedOperation(
                operation.syntax, reference: .reference(operation), given: given, installation: tokens.installation,
                mark: mark)
            if m != .reference(operation) { mapping.operations[operation] = m }
        }
        return mapping
    }
}

extension TargetFileDecoder {
    /// The file's mapping of the reference design (its call operations of `operations:` with
    /// `answerByMediaRequest`, `values.reason` and `values.state`, `numbers:`) over the engine's reading of
    /// the token API and the file-wide `installation:` (`TargetFile.tokenAPI`); a target that answers by media request lacks the
    /// `answerEndpoint` capability (`answerByMediaRequest` is no capability itself), and one declaring
    /// `idempotency` must send `{operationId}` on create, answer and end.
    mutating func decodeMapping(_ section: TargetFileSection, into file: inout TargetFile) -> TargetMapping {
        let answerByMedia = section.declaredCapabilityNames.contains(Self.answerByMediaRequest)
        let capabilities = section.root.entries?.first(where: { $0.key == "capabilities" })
        file.capabilities.remove(Capability(rawValue: Self.answerByMediaRequest))
        if answerByMedia, file.capabilities.contains(.answerEndpoint), let e = capabilities {
            d.error(e.value.mark, "capabilities", "'answerEndpoint' and 'answerByMediaRequest' exclude each other")
        }
        var mapping = decodeCallOperations(
            section.operations, tokens: file.tokenAPI, answerByMedia: answerByMedia, mark: section.operationsMark)
        mapping.values = decodeValues(section.values, tokens: file.tokenAPI)
        if let e = section["numbers"] { mapping.numbers = decodeNumbers(e.value) }
        if !answerByMedia { file.capabilities.insert(.answerEndpoint) }
        if file.capabilities.contains(.idempotency), let e = capabilities {
            for operation in [TargetOperation.create, .answer, .end] where !mapping[operation].carriesOperationId {
                d.error(
                    e.value.mark, "capabilities",
                    "'idempotency' is declared, but operations.\(operation.rawValue) sends no {operationId}")
            }
        }
        return mapping
    }

    /// The `capabilities:` name of a target whose callee answers by asking for a media session.
    static let answerByMediaRequest = "answerByMediaRequest"
}

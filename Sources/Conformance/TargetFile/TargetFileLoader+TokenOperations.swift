import JSON

extension TargetFileDecoder {
    /// `bodyByKind: {apnsVoip: {…}, fcm: {…}}`: a body template per canonical token kind, for the operations
    /// that know the kind (a platform's own fields need not go to the other one).
    mutating func decodeBodyByKind(
        _ e: YAMLMapEntry, _ operation: OperationSyntax, _ known: [String], _ path: String
    ) -> [String: JSONValue] {
        guard operation.placeholders.contains("kind") else {
            d.error(
                e.keyMark, path,
                "'bodyByKind' applies to operations about one token kind (registerToken, deleteToken), not \(operation.name)"
            )
            return [:]
        }
        guard let entries = e.value.entries else {
            d.error(e.value.mark, path, "expected a mapping of token kinds to body templates, got \(e.value.kindName)")
            return [:]
        }
        let kinds = TokenAPIMapping.enumerations["kind"] ?? []
        var out: [String: JSONValue] = [:]
        for entry in entries {
            guard kinds.contains(entry.key) else {
                d.error(
                    entry.keyMark, "\(path).\(entry.key)",
                    "'\(entry.key)' is no token kind of the reference design\(Diagnostics.suggestion(entry.key, kinds)) (known: \(kinds.joined(separator: ", ")))"
                )
                continue
            }
            let template = entry.value.json
            checkPlaceholders(
                Self.bodyPlaceholders(template), operation, known, entry.value.mark, "\(path).\(entry.key)")
            out[entry.key] = template
        }
        return out
    }

    /// registerToken's `response: {save: {NAME: PATH}}`: values of the answer (a device ID the backend made
    /// up, at dotted PATH) that deleteToken can use as `{NAME}`.
    mutating func decodeSave(_ e: YAMLMapEntry, _ operation: OperationSyntax, _ path: String) -> [String: String] {
        guard operation.name == RequestOperation.registerToken.rawValue else {
            d.error(
                e.keyMark, path,
                "'save' applies to registerToken only (its answer's values go to deleteToken), not \(operation.name)"
            )
            return [:]
        }
        guard let map = stringMap(e.value, path) else { return [:] }
        var out: [String: String] = [:]
        let taken = Set(operationSyntax.flatMap(\.placeholders))
        for entry in e.value.entries ?? [] {
            guard let source = map[entry.key] else { continue }
            if !Self.isPlaceholderName(entry.key) {
                d.error(
                    entry.keyMark, "\(path).\(entry.key)",
                    "'\(entry.key)' cannot be a placeholder name (letters, digits and _, starting with a letter)")
            } else if taken.contains(entry.key) {
                d.error(
                    entry.keyMark, "\(path).\(entry.key)",
                    "'{\(entry.key)}' is already a placeholder ringcheck fills; save the value under another name")
            } else if source.isEmpty {
                d.error(entry.value.mark, "\(path).\(entry.key)", "expected a dotted path in the answer, such as id")
            } else {
                out[entry.key] = source
            }
        }
        return out
    }

    /// A saved value's name: what `RequestTemplate.placeholders(in:)` reads back between braces unambiguously.
    static func isPlaceholderName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

import JSON

/// The engine's part of `operations:`, `values:` and `installation:`: the token API every profile's file
/// may map (`TokenAPIMapping`). The entries of those keys that a profile declares
/// (`Profile.targetFileOperations`, `targetFileValueNames`) go to that profile in its `TargetFileSection`.
extension TargetFileDecoder {
    /// The top-level keys whose entries the engine and the profiles share.
    static let sharedKeys = ["installation", "operations", "values"]

    /// Every enumeration `values:` may name: the engine's token enumerations and each registered profile's
    /// (`Profile.targetFileValueNames`), sorted.
    var valueNames: [String] {
        Set(TokenAPIMapping.enumerations.keys).union(profiles.all.flatMap(\.targetFileValueNames)).sorted()
    }

    /// The entries of `operations:` and `values:` by key (unknown names reported once, here), for the
    /// engine's token API and the profiles' sections.
    mutating func sharedEntries(_ f: [String: YAMLMapEntry]) -> (
        operations: [String: YAMLMapEntry], values: [String: YAMLMapEntry]
    ) {
        let operations = f["operations"].flatMap {
            d.mapping($0.value, "operations", known: operationSyntax.map(\.name))
        }
        let values = f["values"].flatMap { d.mapping($0.value, "values", known: valueNames) }
        return (operations ?? [:], values ?? [:])
    }

    /// The token API of the file: the file-wide `installation:`, `operations.registerToken` and
    /// `operations.deleteToken` over the reference route (each checked for an installation placed in a
    /// path without `{installationId}`; `mark` is where such an error about an operation the file does not
    /// give points), and `values.kind` and `values.apnsEnvironment`.
    mutating func decodeTokenAPI(
        installation: YAMLMapEntry?, operations: [String: YAMLMapEntry], values: [String: YAMLMapEntry],
        mark: YAMLMark
    ) -> TokenAPIMapping {
        var api = TokenAPIMapping()
        api.installation = installation.flatMap { decodeInstallation($0.value, "installation") }
        for syntax in TokenAPIMapping.syntax {
            let operation = RequestOperation(rawValue: syntax.name)
            let given = operations[syntax.name]
            if given != nil { api.declared.insert(operation) }
            // deleteToken may also use what registerToken's answer saved (decoded first).
            let m = decodeMappedOperation(
                syntax, reference: TokenAPIMapping.reference(operation), given: given, installation: api.installation,
                saved: operation == .deleteToken ? api.savedRegistrationValues : [], mark: mark)
            if m != TokenAPIMapping.reference(operation) { api.operations[operation] = m }
        }
        for (name, canonical) in TokenAPIMapping.enumerations.sorted(by: { $0.key < $1.key }) {
            if let e = values[name],
                let map = decodeValueMap(
                    e, canonical: canonical, typed: TokenAPIMapping.typedEnumerations.contains(name))
            {
                api.values[name] = map
            }
        }
        return api
    }

    /// One operation of `operations:` (`given`, nil when the file does not name it) over its `reference`
    /// mapping: the file-wide `installation` placement holds wherever the operation does not say otherwise
    /// (also for one the reference design sends without an installation: the backend may need the
    /// caller's device); `saved` are the extra placeholders registerToken's answer gives; an installation
    /// placed in a path without `{installationId}` is an error at the operation, else at `mark`.
    mutating func decodeMappedOperation(
        _ syntax: OperationSyntax, reference: OperationMapping, given: YAMLMapEntry?,
        installation: InstallationPlacement?, saved: [String] = [], mark: YAMLMark
    ) -> OperationMapping {
        var m = reference
        if let installation, given?.value["installation"] == nil { m.installation = installation }
        if let given { decodeOperation(given.value, syntax, saved: saved, into: &m) }
        checkInstallation(m, syntax.name, mark: given?.value.mark ?? mark)
        return m
    }

    /// One enumeration of `values:` (`kind: {apnsVoip: voip}`): the reference design's values (`canonical`,
    /// each key checked against them) to the target's, words unless `typed` (then any JSON scalar, keeping
    /// its YAML type).
    mutating func decodeValueMap(_ e: YAMLMapEntry, canonical: [String], typed: Bool) -> [String: JSONValue]? {
        let path = "values." + e.key
        guard let map = typed ? scalarMap(e.value, path) : stringMap(e.value, path)?.mapValues(JSONValue.string)
        else { return nil }
        for entry in e.value.entries ?? [] where !canonical.contains(entry.key) {
            d.error(
                entry.keyMark, "\(path).\(entry.key)",
                "'\(entry.key)' is no \(e.key) of the reference design\(Diagnostics.suggestion(entry.key, canonical)) (known: \(canonical.joined(separator: ", ")))"
            )
        }
        return map
    }
}

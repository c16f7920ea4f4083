import ReferenceBackend

extension ParsedArguments {
    /// The defects named by `--reference-defect` (repeatable); a usage error naming every defect
    /// when one is unknown.
    func referenceDefects() throws -> Set<Defect> {
        let (parsed, unknown) = Defect.parse(all("reference-defect"))
        if !unknown.isEmpty {
            throw UsageError(
                message:
                    "unknown defect '\(unknown.joined(separator: "', '"))'; the defects are: \(Defect.allCases.map(\.name).joined(separator: ", "))",
                command: command)
        }
        return parsed
    }
}

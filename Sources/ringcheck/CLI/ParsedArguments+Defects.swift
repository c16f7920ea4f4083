import Callx
import ReferenceBackend

extension ParsedArguments {
    /// The defects named by `--reference-defect` (repeatable); a usage error naming every defect
    /// when one is unknown.
    func referenceDefects() throws -> Set<CallxDefect> {
        try CallxReferenceKit().defects(all("reference-defect"), for: command, context: "", list: .names)
    }
}

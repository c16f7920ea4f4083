extension TargetFileDecoder {
    /// `cleanUp: true | false`, or `cleanUp: {notFound: cleaned | failed}` (on): whether a delete the backend
    /// answers 404 counts as cleaned, the token being gone already (the default), or as a failed delete.
    mutating func decodeCleanUp(_ node: YAMLNode, into file: inout TargetFile) {
        if node.scalarText != nil {
            file.cleanUp = d.bool(node, "cleanUp") ?? true
            return
        }
        guard let f = d.mapping(node, "cleanUp", known: ["notFound"]) else { return }
        file.cleanUp = true
        if let e = f["notFound"], let choice = d.choice(e.value, "cleanUp.notFound", ["cleaned", "failed"]) {
            file.cleanUpNotFoundIsCleaned = choice == "cleaned"
        }
    }
}

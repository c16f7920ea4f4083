extension TargetFileDecoder {
    /// `installation: {in: header, name: X-Device-Id}` (or `in: path`, `in: body`, `in: query`, `in: none`):
    /// where a request carries the device it is made from; `path` names the field in errors.
    package mutating func decodeInstallation(_ node: YAMLNode, _ path: String) -> InstallationPlacement? {
        guard let f = d.mapping(node, path, known: ["in", "name"], required: ["in"]) else { return nil }
        guard
            let place = f["in"].flatMap({
                d.choice($0.value, path + ".in", ["path", "header", "body", "query", "none"])
            })
        else { return nil }
        let name = f["name"].flatMap { d.nonEmptyString($0.value, path + ".name") }
        switch place {
        case "path", "none":
            if let e = f["name"] { d.error(e.keyMark, path, "'name' does not apply to 'in: \(place)'") }
            return place == "path" ? .path : InstallationPlacement.none
        case "header":
            guard let name else {
                d.error(node.mark, path, "'in: header' needs 'name' (the header, such as X-Device-Id)")
                return nil
            }
            return .header(name)
        case "body": return .body(name ?? "installationId")
        default: return .query(name ?? "installationId")
        }
    }
}

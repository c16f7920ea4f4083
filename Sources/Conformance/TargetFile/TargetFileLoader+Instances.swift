extension TargetFileDecoder {
    /// `lifecycle.instances: 2` asks ringcheck to start a second instance of the backend for the scenarios
    /// that must run alone; that instance needs a `start` command and a port of its own, so `baseURL` must
    /// name `${RINGCHECK_BACKEND_PORT}` (each instance gets its own port and state folder).
    ///
    /// ```yaml
    /// baseURL: http://127.0.0.1:${RINGCHECK_BACKEND_PORT}
    /// lifecycle:
    ///   start: [./my-backend, --port, "${RINGCHECK_BACKEND_PORT}", --db, "${RINGCHECK_BACKEND_STATE_DIR}/db"]
    ///   instances: 2
    /// ```
    mutating func checkInstances(_ node: YAMLNode, _ file: TargetFile) {
        guard let lifecycle = file.lifecycle, lifecycle.instances > 1,
            let entry = node.entries?.first(where: { $0.key == "instances" })
        else { return }
        if lifecycle.start == nil {
            d.error(
                entry.keyMark, "lifecycle.instances",
                "a second instance needs lifecycle.start (ringcheck starts each instance with it)")
        }
        let port = "${\(TargetRunVariables.backendPort)}"
        if !file.baseURL.contains(port) {
            d.error(
                entry.keyMark, "lifecycle.instances",
                "each instance listens on a port of its own: baseURL must name \(port) (it is '\(file.baseURL)')")
        }
    }
}

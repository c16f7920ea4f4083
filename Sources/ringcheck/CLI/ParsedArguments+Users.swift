import ReferenceBackend

extension ParsedArguments {
    /// The users of `--users FILE`, nil without it; a configuration error for a file that cannot be read.
    func usersFile() throws -> UserDirectory? {
        guard let path = value("users") else { return nil }
        do { return try UserDirectory.load(path: path) } catch {
            throw ConfigurationError(message: "--users: \(error)")
        }
    }
}

extension MockKeyMaterial {
    /// The base64 lines of a PEM private key, each long enough to be unmistakable in a push or a
    /// report (the `-----BEGIN…` lines and short ones left out); none for nil.
    public static func keyLines(ofPEM pem: String?) -> [String] {
        guard let pem else { return [] }
        return pem.split(whereSeparator: \.isNewline).map(String.init).filter {
            !$0.hasPrefix("-----") && $0.count >= 16
        }
    }
}

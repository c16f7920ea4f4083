extension Array where Element == String {
    /// The names as a sentence lists them: `a, b or c` (`conjunction` "or"), `a and b`, `a`; "" for none.
    ///
    /// ```swift
    /// ["run", "load", "trigger"].sentenceList("or")  // "run, load or trigger"
    /// ```
    package func sentenceList(_ conjunction: String) -> String {
        guard let last, count > 1 else { return first ?? "" }
        return dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}

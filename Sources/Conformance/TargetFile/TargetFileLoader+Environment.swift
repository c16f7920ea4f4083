import Foundation

extension TargetFileDecoder {
    /// A literal secret, or `${NAME}` read from ringcheck's environment (an unset or empty one is an error).
    /// A `${NAME}` inside other text is an error: only a whole value is read, and sending it literally would
    /// put the text `${NAME}` on the wire.
    package mutating func expandSecret(_ text: String, mark: YAMLMark, field: String) -> String? {
        guard text.hasPrefix("${"), text.hasSuffix("}") else {
            guard !text.contains("${") else {
                d.error(
                    mark, field, "'\(text)': only a whole value is read from the environment (\(field): \"${NAME}\")")
                return nil
            }
            return text
        }
        let name = String(text.dropFirst(2).dropLast())
        guard Self.isVariableName(name) else {
            d.error(mark, field, "'\(text)' is not ${NAME} with an environment variable name")
            return nil
        }
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else {
            d.error(mark, field, "\(name) is not set in ringcheck's environment (\(field): \(text))")
            return nil
        }
        return value
    }

    package static func isVariableName(_ s: String) -> Bool {
        guard let first = s.first, first == "_" || (first.isASCII && first.isLetter) else { return false }
        return s.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }
}

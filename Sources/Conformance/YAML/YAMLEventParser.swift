import CYAML

/// One libyaml parse event, copied out of the C structure so it outlives `yaml_event_delete`.
enum YAMLEvent: Equatable {
    case streamStart
    case streamEnd
    case documentStart(YAMLMark)
    case documentEnd
    case alias(anchor: String, mark: YAMLMark)
    case scalar(text: String, style: YAMLScalarStyle, anchor: String?, tag: String?, mark: YAMLMark)
    case sequenceStart(anchor: String?, tag: String?, mark: YAMLMark)
    case sequenceEnd
    case mappingStart(anchor: String?, tag: String?, mark: YAMLMark)
    case mappingEnd
}

/// Owns one libyaml parser and the copy of the input it reads (libyaml keeps a pointer to it),
/// and frees both when it goes away. Not thread-safe: used by one loader at a time.
final class YAMLEventParser {
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let input: UnsafeMutableBufferPointer<UInt8>
    private let file: String
    private var initialized: Bool

    init(bytes: [UInt8], file: String) {
        self.file = file
        parser = .allocate(capacity: 1)
        parser.initialize(to: yaml_parser_t())
        input = .allocate(capacity: max(bytes.count, 1))
        _ = input.initialize(from: bytes)
        initialized = yaml_parser_initialize(parser) == 1
        if initialized { yaml_parser_set_input_string(parser, input.baseAddress, bytes.count) }
    }

    deinit {
        if initialized { yaml_parser_delete(parser) }
        parser.deinitialize(count: 1)
        parser.deallocate()
        input.deallocate()
    }

    /// The next event, or the parser's error with its position.
    func next() throws(YAMLError) -> YAMLEvent {
        guard initialized else {
            throw YAMLError(
                file: file, mark: YAMLMark(line: 1, column: 1), message: "libyaml could not allocate a parser")
        }
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else { throw currentError() }
        defer { yaml_event_delete(&event) }
        let mark = YAMLMark(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
        switch event.type {
        case YAML_STREAM_START_EVENT: return .streamStart
        case YAML_STREAM_END_EVENT: return .streamEnd
        case YAML_DOCUMENT_START_EVENT: return .documentStart(mark)
        case YAML_DOCUMENT_END_EVENT: return .documentEnd
        case YAML_ALIAS_EVENT:
            return .alias(anchor: Self.string(event.data.alias.anchor) ?? "", mark: mark)
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let text =
                scalar.value.map {
                    String(decoding: UnsafeBufferPointer(start: $0, count: Int(scalar.length)), as: UTF8.self)
                } ?? ""
            return .scalar(
                text: text, style: Self.style(scalar.style), anchor: Self.string(scalar.anchor),
                tag: Self.string(scalar.tag), mark: mark)
        case YAML_SEQUENCE_START_EVENT:
            let start = event.data.sequence_start
            return .sequenceStart(anchor: Self.string(start.anchor), tag: Self.string(start.tag), mark: mark)
        case YAML_SEQUENCE_END_EVENT: return .sequenceEnd
        case YAML_MAPPING_START_EVENT:
            let start = event.data.mapping_start
            return .mappingStart(anchor: Self.string(start.anchor), tag: Self.string(start.tag), mark: mark)
        case YAML_MAPPING_END_EVENT: return .mappingEnd
        default:
            throw YAMLError(file: file, mark: mark, message: "libyaml returned an unexpected event")
        }
    }

    // MARK: - Errors

    /// The parser's error as a `YAMLError`: the problem, where it was found, and the construct it was in.
    private func currentError() -> YAMLError {
        let p = parser.pointee
        let problem = p.problem.map { String(cString: $0) } ?? "unknown error"
        var mark: YAMLMark
        var message: String
        switch p.error {
        case YAML_READER_ERROR:
            // Reader errors carry a byte offset, not a mark; the scanner's own mark is where it stopped.
            mark = YAMLMark(line: Int(p.mark.line) + 1, column: Int(p.mark.column) + 1)
            message = "\(problem) (byte \(p.problem_offset)); the file must be UTF-8 text"
        case YAML_MEMORY_ERROR:
            mark = YAMLMark(line: Int(p.mark.line) + 1, column: Int(p.mark.column) + 1)
            message = "libyaml ran out of memory"
        default:
            mark = YAMLMark(line: Int(p.problem_mark.line) + 1, column: Int(p.problem_mark.column) + 1)
            message = problem
            if let context = p.context.map({ String(cString: $0) }) {
                let at = YAMLMark(line: Int(p.context_mark.line) + 1, column: Int(p.context_mark.column) + 1)
                message += " (\(context) at \(at))"
            }
            let index = Int(p.problem_mark.index)
            if index < input.count, input[index] == 0x09 {
                message += "; tabs cannot indent YAML, use spaces"
            }
        }
        return YAMLError(file: file, mark: mark, message: message)
    }

    // MARK: - Conversions

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }

    private static func style(_ style: yaml_scalar_style_t) -> YAMLScalarStyle {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: return .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: return .literal
        case YAML_FOLDED_SCALAR_STYLE: return .folded
        default: return .plain
        }
    }
}

import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Validates XML against an XML Schema written with the constructs `Tests/Schemas/junit-10.xsd` uses:
/// global `xs:element`s (`type="xs:string"` or an inline `xs:complexType`, `mixed` or not), content models
/// of `xs:sequence`, `xs:choice` and `xs:element ref=` with `minOccurs`/`maxOccurs`, `xs:attribute`s with
/// `use="required"`, and named `xs:simpleType`s restricting `xs:string` by `xs:pattern`. Any other construct
/// in the schema is an error, so the checker never silently accepts what it does not understand.
public struct XSDChecker {
    struct Declaration {
        var textOnly: Bool
        var mixed: Bool
        /// The children's names as `<name>` tokens must match this (anchored) pattern.
        var content: String
        var attributes: [String: (required: Bool, type: String)]
    }

    var elements: [String: Declaration] = [:]
    var patterns: [String: String] = [:]

    /// The schema in file `path`.
    public init(file path: String) throws {
        let doc = try XMLDocument(contentsOf: URL(fileURLWithPath: path), options: [])
        guard let root = doc.rootElement(), root.localName == "schema" else {
            throw SchemaError(message: "\(path): not an xs:schema")
        }
        for node in root.children ?? [] {
            guard let e = node as? XMLElement else { continue }
            switch e.localName {
            case "simpleType":
                guard let name = e.attribute(forName: "name")?.stringValue,
                    let restriction = Self.only(e, "restriction"),
                    restriction.attribute(forName: "base")?.stringValue == "xs:string",
                    let pattern = Self.only(restriction, "pattern")?.attribute(forName: "value")?.stringValue
                else { throw SchemaError(message: "\(path): unsupported xs:simpleType \(e.xmlString)") }
                patterns[name] = pattern
            case "element":
                guard let name = e.attribute(forName: "name")?.stringValue else {
                    throw SchemaError(message: "\(path): a global xs:element without a name")
                }
                elements[name] = try Self.declaration(e)
            default: throw SchemaError(message: "\(path): unsupported top-level xs:\(e.localName ?? "?")")
            }
        }
    }

    static func only(_ e: XMLElement, _ name: String) -> XMLElement? {
        let matches = (e.children ?? []).compactMap { $0 as? XMLElement }
        return matches.count == 1 && matches[0].localName == name ? matches[0] : nil
    }

    static func declaration(_ e: XMLElement) throws -> Declaration {
        if let type = e.attribute(forName: "type")?.stringValue {
            guard type == "xs:string" else { throw SchemaError(message: "unsupported element type \(type)") }
            return Declaration(textOnly: true, mixed: true, content: "", attributes: [:])
        }
        guard let complex = only(e, "complexType") else {
            throw SchemaError(message: "element \(e.xmlString) has neither type= nor one xs:complexType")
        }
        var d = Declaration(
            textOnly: false, mixed: complex.attribute(forName: "mixed")?.stringValue == "true", content: "",
            attributes: [:])
        for child in (complex.children ?? []).compactMap({ $0 as? XMLElement }) {
            switch child.localName {
            case "sequence", "choice": d.content = try particle(child)
            case "attribute":
                guard let name = child.attribute(forName: "name")?.stringValue else {
                    throw SchemaError(message: "an xs:attribute without a name")
                }
                d.attributes[name] = (
                    child.attribute(forName: "use")?.stringValue == "required",
                    child.attribute(forName: "type")?.stringValue ?? "xs:string"
                )
            default: throw SchemaError(message: "unsupported xs:\(child.localName ?? "?") in an xs:complexType")
            }
        }
        return d
    }

    /// The pattern of one particle (`xs:sequence`, `xs:choice` or `xs:element ref=`) with its occurrence.
    static func particle(_ e: XMLElement) throws -> String {
        let inner: String
        switch e.localName {
        case "element":
            guard let ref = e.attribute(forName: "ref")?.stringValue else {
                throw SchemaError(message: "only xs:element ref= can appear in a content model")
            }
            inner = NSRegularExpression.escapedPattern(for: "<\(ref)>")
        case "sequence":
            inner = try (e.children ?? []).compactMap { $0 as? XMLElement }.map(particle).joined()
        case "choice":
            inner = try (e.children ?? []).compactMap { $0 as? XMLElement }.map(particle).joined(separator: "|")
        default: throw SchemaError(message: "unsupported xs:\(e.localName ?? "?") in a content model")
        }
        let min = Int(e.attribute(forName: "minOccurs")?.stringValue ?? "1") ?? 1
        let maxText = e.attribute(forName: "maxOccurs")?.stringValue ?? "1"
        let max = maxText == "unbounded" ? "" : maxText
        return "(?:\(inner)){\(min),\(max)}"
    }

    /// Every violation of `xml`, as `path: what`; empty when it is valid.
    public func violations(of xml: String) -> [String] {
        let doc: XMLDocument
        do { doc = try XMLDocument(data: Data(xml.utf8), options: []) } catch {
            return ["not well-formed XML: \(error)"]
        }
        guard let root = doc.rootElement() else { return ["no root element"] }
        var out: [String] = []
        check(root, path: "/" + (root.name ?? "?"), into: &out)
        return out
    }

    func check(_ e: XMLElement, path: String, into out: inout [String]) {
        let name = e.name ?? "?"
        guard let d = elements[name] else {
            out.append("\(path): element <\(name)> is not in the schema")
            return
        }
        for a in e.attributes ?? [] {
            let attr = a.name ?? "?"
            guard let spec = d.attributes[attr] else {
                out.append("\(path): attribute \(attr) is not allowed on <\(name)>")
                continue
            }
            if let pattern = patterns[spec.type], let value = a.stringValue,
                value.range(of: "^(?:\(pattern))$", options: .regularExpression) == nil
            {
                out.append("\(path): \(attr)=\"\(value)\" is not a \(spec.type)")
            }
        }
        for (attr, spec) in d.attributes where spec.required && e.attribute(forName: attr) == nil {
            out.append("\(path): <\(name)> lacks the required attribute \(attr)")
        }
        let children = (e.children ?? []).compactMap { $0 as? XMLElement }
        if !d.mixed {
            let text = (e.children ?? []).filter { $0.kind == .text }.compactMap(\.stringValue).joined()
            if !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                out.append("\(path): <\(name)> holds text, which the schema does not allow")
            }
        }
        if d.textOnly {
            if let first = children.first {
                out.append("\(path): <\(name)> holds <\(first.name ?? "?")>; only text is allowed")
            }
            return
        }
        let tokens = children.map { "<\($0.name ?? "?")>" }.joined()
        if tokens.range(of: "^(?:\(d.content))$", options: .regularExpression) == nil {
            out.append("\(path): children \(tokens.isEmpty ? "(none)" : tokens) do not fit <\(name)>'s content model")
        }
        var seen: [String: Int] = [:]
        for child in children {
            let childName = child.name ?? "?"
            seen[childName, default: 0] += 1
            check(child, path: "\(path)/\(childName)[\(seen[childName]!)]", into: &out)
        }
    }
}

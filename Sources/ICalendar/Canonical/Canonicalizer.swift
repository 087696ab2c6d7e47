/// Rewrites a component tree into calgw's canonical form, which `calgw fmt` writes: names
/// upper-cased (done by the parser), TEXT values escaped exactly as RFC 5545 §3.3.11 says
/// (`\n` for newlines, `\,` `\;` `\\`, no unknown escapes), and nothing else changed. Property
/// order, unknown properties and components are left as they are.
public struct Canonicalizer: Sendable {
    /// A canonicalizer; it holds no settings.
    public init() {}

    /// A canonical copy of `component`.
    public func canonicalize(_ component: Component) -> Component {
        var c = component
        canonicalize(&c)
        return c
    }

    /// Canonicalizes in place, touching only what changes (the tree is not copied).
    public func canonicalize(_ component: inout Component) {
        for i in component.properties.indices {
            if let changed = canonicalValue(of: component.properties[i]) {
                component.properties[i].value = changed
            }
        }
        // A child is written to only when it changes: writing makes the tree's arrays unique,
        // a copy of every child when the tree was shared with its parse.
        for i in component.components.indices where !isCanonical(component.components[i]) {
            canonicalize(&component.components[i])
        }
    }

    /// True when `component` and everything in it is canonical already.
    func isCanonical(_ component: Component) -> Bool {
        component.properties.allSatisfy { canonicalValue(of: $0) == nil }
            && component.components.allSatisfy(isCanonical)
    }

    /// The canonical value when it differs from the property's value, else nil.
    public func canonicalValue(of property: Property) -> String? {
        canonicalValue(property.value, name: property.name, parameterText: property.parameterText)
    }

    /// The canonical value of a property named `name` with these parameters (their canonical
    /// text) and `value` when it differs from `value`, else nil: as ``canonicalValue(of:)``,
    /// for a caller that reads the property where it is rather than copy it.
    public func canonicalValue(_ value: String, name: String, parameterText: String) -> String? {
        // A value with no unescaped `;` or `,` and only defined escapes is canonical whatever its
        // type and however lists split: so are nearly all, and their type is not looked up.
        guard !Self.isCanonicalText(value, commasAreSeparators: false) else { return nil }
        return rewritten(value, name: name, parameterText: parameterText)
    }

    /// The canonical value of a value that is not canonical text as it is, when its property's
    /// type makes it TEXT (or a list of TEXT) and it differs; else nil.
    private func rewritten(_ value: String, name: String, parameterText: String) -> String? {
        guard ValueType.defaultType(forProperty: name) == .text,
            ParameterText.values(of: "VALUE", in: parameterText).first.map({ $0.uppercased() == "TEXT" }) ?? true
        else { return nil }
        switch name {
        case "REQUEST-STATUS", "GEO":
            return nil  // structured values with meaningful separators
        case "CATEGORIES", "RESOURCES":
            guard !Self.isCanonicalText(value, commasAreSeparators: true) else { return nil }
            let canonical = TextValue.joinList(TextValue.splitList(value))
            return canonical == value ? nil : canonical
        default:
            let canonical = TextValue.escape(TextValue.unescape(value))
            return canonical == value ? nil : canonical
        }
    }

    /// As ``canonicalValue(_:name:parameterText:)``, for a property read as bytes
    /// (``PlainItemReader``): strings are made only for a value that is not canonical text
    /// already and whose property's type is TEXT, so a rule, a date list or an escaped
    /// description makes none.
    public func canonicalValue(
        _ value: UnsafeBufferPointer<UInt8>, name: UnsafeBufferPointer<UInt8>, parameterText: UnsafeBufferPointer<UInt8>
    ) -> String? {
        guard !Self.isCanonicalText(value, commasAreSeparators: false) else { return nil }
        let name = String(decoding: name, as: UTF8.self)
        guard ValueType.defaultType(forProperty: name) == .text else { return nil }
        return rewritten(
            String(decoding: value, as: UTF8.self), name: name,
            parameterText: String(decoding: parameterText, as: UTF8.self))
    }

    /// A fast byte-level test: every `;` (and `,`, unless it separates list items) is escaped,
    /// and every escape is one RFC 5545 defines, with `\n` in lower case.
    static func isCanonicalText(_ value: String, commasAreSeparators: Bool) -> Bool {
        // Over the bytes in one piece, a short string's too (it has none to lend, and its view
        // of bytes was read one by one).
        var value = value
        return value.withUTF8 { isCanonicalText($0, commasAreSeparators: commasAreSeparators) }
    }

    /// Byte by byte. Reading eight bytes at a time where none is one the test looks at cost
    /// more than it saved over the descriptions of `Scripts/bench/content` (an escape every few
    /// bytes): each word was read, then its bytes.
    private static func isCanonicalText(_ value: UnsafeBufferPointer<UInt8>, commasAreSeparators: Bool) -> Bool {
        var escaping = false
        for b in value {
            if escaping {
                switch b {
                case UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "n"): escaping = false
                default: return false
                }
            } else {
                switch b {
                case UInt8(ascii: "\\"): escaping = true
                case UInt8(ascii: ";"): return false
                case UInt8(ascii: ","): if !commasAreSeparators { return false }
                case 0x0D, 0x0A: return false
                default: break
                }
            }
        }
        return !escaping
    }
}

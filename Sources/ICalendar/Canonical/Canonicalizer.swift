/// Rewrites a component tree into calgw's canonical form, which `calgw fmt` writes: names
/// upper-cased (done by the parser), TEXT values escaped exactly as RFC 5545 §3.3.11 says
/// (`\n` for newlines, `\,` `\;` `\\`, no unknown escapes), and nothing else changed. Property
/// order, unknown properties and components are left as they are.
public struct Canonicalizer: Sendable {
    public init() {}

    public func canonicalize(_ component: Component) -> Component {
        var c = component
        c.properties = c.properties.map(canonicalize)
        c.components = c.components.map(canonicalize)
        return c
    }

    func canonicalize(_ property: Property) -> Property {
        guard property[parameter: "VALUE"] == nil || property.valueType == .text,
              ValueType.defaultType(forProperty: property.name) == .text else { return property }
        var p = property
        switch p.name {
        case "CATEGORIES", "RESOURCES":
            p.value = TextValue.joinList(TextValue.splitList(p.value))
        case "REQUEST-STATUS", "GEO":
            return property  // structured values with meaningful separators
        default:
            p.value = TextValue.escape(TextValue.unescape(p.value))
        }
        return p
    }
}

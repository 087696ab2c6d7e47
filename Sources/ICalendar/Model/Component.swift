/// A calendar component (RFC 5545 §3.6): a name, properties and sub-components, in order.
///
/// The tree is lossless: properties and components calgw does not model are kept where they
/// were, so parse → serialize → parse gives an equal tree.
public struct Component: Hashable, Sendable {
    /// The upper-cased component name: `VCALENDAR`, `VEVENT`, `VALARM`, `X-FOO`, ...
    public var name: String
    /// The properties, in source order.
    public var properties: [Property]
    /// The sub-components (VEVENTs in a VCALENDAR, VALARMs in a VEVENT), in source order.
    public var components: [Component]
    /// The 1-based line of the BEGIN line in the source; 0 when not parsed. Not part of equality.
    public var line: Int = 0

    /// A component named `name` (upper-cased), holding these properties and components.
    public init(name: String, properties: [Property] = [], components: [Component] = []) {
        self.name = name.asciiUppercased
        self.properties = properties
        self.components = components
    }

    /// The first property with this name.
    public subscript(name: String) -> Property? {
        let key = name.asciiUppercased
        return properties.first { $0.name == key }
    }

    /// Every property with this name, in order.
    public func properties(named name: String) -> [Property] {
        let key = name.asciiUppercased
        return properties.filter { $0.name == key }
    }

    /// Sub-components with this name, in order.
    public func components(named name: String) -> [Component] {
        let key = name.asciiUppercased
        return components.filter { $0.name == key }
    }

    /// Replaces the first property with the same name (keeping its position) and removes any
    /// others of that name; appends when there is none.
    public mutating func set(_ property: Property) {
        if let i = properties.firstIndex(where: { $0.name == property.name }) {
            properties[i] = property
            var j = properties.count - 1
            while j > i {
                if properties[j].name == property.name { properties.remove(at: j) }
                j -= 1
            }
        } else {
            properties.append(property)
        }
    }

    /// Removes every property with this name.
    public mutating func remove(_ name: String) {
        let key = name.asciiUppercased
        properties.removeAll { $0.name == key }
    }

    /// Appends a property.
    public mutating func append(_ property: Property) {
        properties.append(property)
    }

    /// The number of components in this tree, this one included.
    public var treeSize: Int { 1 + components.reduce(0) { $0 + $1.treeSize } }

    /// Equal names, properties and components, in order; source lines do not count.
    public static func == (a: Component, b: Component) -> Bool {
        a.name == b.name && a.properties == b.properties && a.components == b.components
    }

    /// Hashes what equality compares: the name, properties and components.
    public func hash(into h: inout Hasher) {
        h.combine(name)
        h.combine(properties)
        h.combine(components)
    }
}

/// A content line (RFC 5545 §3.1): a name, parameters and a value.
///
/// The value is kept exactly as written (TEXT escapes intact) so that a property calgw does not
/// understand is carried through unchanged. Typed accessors decode it on demand.
public struct Property: Hashable, Sendable {
    /// The upper-cased property name, e.g. `DTSTART`, `X-WR-CALNAME`.
    public var name: String
    /// The parameters in canonical text form, as the serializer writes them (`""` when none).
    public private(set) var parameterText: String
    /// The value as written, escapes intact.
    public var value: String
    /// The 1-based line in the source file where the property starts; 0 when not parsed from a
    /// file. Not part of equality.
    public var line: Int = 0

    /// A property named `name` (upper-cased) with these parameters and `value` as written.
    public init(name: String, parameters: [Parameter] = [], value: String) {
        self.name = name.asciiUppercased
        self.parameterText = ParameterText.encode(parameters)
        self.value = value
    }

    /// The parser's initializer: the name is upper case already, the parameters encoded.
    init(uppercasedName: String, parameterText: String, value: String) {
        self.name = uppercasedName
        self.parameterText = parameterText
        self.value = value
    }

    /// The parameters, in their original order.
    public var parameters: [Parameter] {
        get { ParameterText.decode(parameterText) }
        set { parameterText = ParameterText.encode(newValue) }
    }

    /// A property whose value is `text` encoded as TEXT.
    public static func text(_ name: String, _ text: String, parameters: [Parameter] = []) -> Property {
        Property(name: name, parameters: parameters, value: TextValue.escape(text))
    }

    /// A DATE or DATE-TIME property, with `VALUE=DATE` or `TZID` set to match the value.
    public static func dateTime(_ name: String, _ value: DateTimeValue, parameters: [Parameter] = []) -> Property {
        var p = Property(
            name: name, parameters: parameters.filter { $0.name != "TZID" && $0.name != "VALUE" },
            value: value.description)
        if value.isDate { p.parameters.insert(Parameter("VALUE", "DATE"), at: 0) }
        if let tzid = value.tzid { p.parameters.insert(Parameter("TZID", tzid), at: 0) }
        return p
    }

    // MARK: Parameters

    /// The first value of the named parameter.
    public subscript(parameter name: String) -> String? {
        parameterValues(name).first
    }

    /// All values of the named parameter.
    public func parameterValues(_ name: String) -> [String] {
        ParameterText.values(of: name.asciiUppercased, in: parameterText)
    }

    /// Sets (or with nil, removes) a parameter, keeping its position when present.
    public mutating func setParameter(_ name: String, _ value: String?) {
        let key = name.asciiUppercased
        if let value {
            if let i = parameters.firstIndex(where: { $0.name == key }) {
                var kept = parameters.enumerated().filter { $0.offset == i || $0.element.name != key }.map(\.element)
                kept[kept.firstIndex { $0.name == key }!].values = [value]
                parameters = kept
            } else {
                parameters.append(Parameter(key, value))
            }
        } else {
            parameters.removeAll { $0.name == key }
        }
    }

    // MARK: Typed values

    /// The value type: the VALUE parameter, else the property's default type.
    public var valueType: ValueType? {
        if let v = self[parameter: "VALUE"] { return ValueType(rawValue: v.uppercased()) }
        return ValueType.defaultType(forProperty: name)
    }

    /// The value decoded as TEXT.
    public var text: String { TextValue.unescape(value) }

    /// The value as a list of TEXT items (CATEGORIES, RESOURCES).
    public var textList: [String] { TextValue.splitList(value) }

    /// The value as an INTEGER.
    public var integer: Int? { Int(value.trimmingCharacters(in: " ")) }

    /// The TZID parameter, with quotes and surrounding spaces already removed by the parser.
    public var tzid: String? {
        // Looked up for every property with parameters when a calendar is hashed: most have none.
        parameterText.containsUTF8(";TZID=") ? ParameterText.firstValue(of: "TZID", in: parameterText) : nil
    }

    /// The value as a DATE or DATE-TIME, its TZID applied. For list-valued properties (EXDATE,
    /// RDATE) this is the first value.
    public var dateTime: DateTimeValue? { dateTime(tzid: tzid) }

    /// ``dateTime`` with `tzid` as the property's TZID: for a reader that has it already (the
    /// DTEND of an event is most often in the zone of its DTSTART, written with the same
    /// parameters), as looking it up in the parameters costs more than the date itself.
    public func dateTime(tzid: String?) -> DateTimeValue? {
        // Nearly always one value: read without splitting and trimming a list.
        var text = value
        let isList = text.withUTF8 { $0.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: " ") } }
        guard isList else {
            return DateTimeValue(parsing: value, tzid: tzid)
        }
        return dateTimes(tzid: tzid).first
    }

    /// Every DATE / DATE-TIME in a comma-separated list, its TZID applied.
    public var dateTimes: [DateTimeValue] { dateTimes(tzid: tzid) }

    private func dateTimes(tzid: String?) -> [DateTimeValue] {
        value.split(separator: ",").compactMap {
            DateTimeValue(parsing: $0.trimmingCharacters(in: " "), tzid: tzid)
        }
    }

    /// Every PERIOD in a comma-separated list (RDATE;VALUE=PERIOD, FREEBUSY).
    public var periods: [Period] {
        let tzid = self.tzid
        return value.split(separator: ",").compactMap { Period(parsing: $0, tzid: tzid) }
    }

    /// The value as a DURATION.
    public var duration: ICalDuration? { ICalDuration(parsing: value) }

    /// The value as a RECUR, with UNTIL interpreted in `tzid` when written without `Z`.
    public func recurrenceRule(tzid: String? = nil) throws -> RecurrenceRule {
        try RecurrenceRule(parsing: value, tzid: tzid)
    }

    /// The value as a UTC-OFFSET.
    public var utcOffset: UTCOffset? { UTCOffset(parsing: value) }

    /// Equal names, values and parameters; source lines do not count.
    public static func == (a: Property, b: Property) -> Bool {
        a.name == b.name && a.value == b.value && a.parameterText == b.parameterText
    }

    /// Hashes what equality compares: the name, the value and the parameters.
    public func hash(into h: inout Hasher) {
        h.combine(name)
        h.combine(value)
        h.combine(parameterText)
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: Character) -> String {
        // Nearly every value neither starts nor ends with the character: no Character (grapheme)
        // is then looked at, as a byte other than its last or first cannot start or end it.
        let text = String(self)
        if set.utf8.count == 1, let byte = set.utf8.first, text.utf8.first != byte, text.utf8.last != byte {
            return text
        }
        var s = Substring(text)
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return String(s)
    }
}

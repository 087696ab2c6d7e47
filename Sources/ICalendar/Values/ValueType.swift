/// The value data types of RFC 5545 §3.3.
public enum ValueType: String, CaseIterable, Hashable, Sendable {
    case binary = "BINARY", boolean = "BOOLEAN", calAddress = "CAL-ADDRESS", date = "DATE"
    case dateTime = "DATE-TIME", duration = "DURATION", float = "FLOAT", integer = "INTEGER"
    case period = "PERIOD", recur = "RECUR", text = "TEXT", time = "TIME", uri = "URI"
    case utcOffset = "UTC-OFFSET"

    /// The default value type of a property (RFC 5545 §3.7–3.8, RFC 7986), or nil for
    /// unknown properties, whose values are treated as opaque text.
    public static func defaultType(forProperty name: String) -> ValueType? {
        defaultTypes[name]
    }

    private static let defaultTypes: [String: ValueType] = {
        var table: [String: ValueType] = [:]
        func set(_ type: ValueType, _ names: [String]) { for n in names { table[n] = type } }
        set(
            .dateTime,
            [
                "DTSTART", "DTEND", "DUE", "RECURRENCE-ID", "EXDATE", "RDATE", "DTSTAMP", "CREATED",
                "LAST-MODIFIED", "COMPLETED", "ACKNOWLEDGED",
            ])
        set(.duration, ["TRIGGER", "DURATION", "REFRESH-INTERVAL"])
        set(.period, ["FREEBUSY"])
        set(.recur, ["RRULE", "EXRULE"])
        set(.utcOffset, ["TZOFFSETFROM", "TZOFFSETTO"])
        set(.integer, ["PRIORITY", "SEQUENCE", "PERCENT-COMPLETE", "REPEAT"])
        set(.float, ["GEO"])
        set(.calAddress, ["ATTENDEE", "ORGANIZER"])
        set(.uri, ["URL", "TZURL", "SOURCE", "ATTACH", "IMAGE", "CONFERENCE"])
        set(
            .text,
            [
                "CALSCALE", "METHOD", "PRODID", "VERSION", "CATEGORIES", "CLASS", "COMMENT",
                "DESCRIPTION", "LOCATION", "RESOURCES", "STATUS", "SUMMARY", "TRANSP", "TZID", "TZNAME",
                "CONTACT", "RELATED-TO", "UID", "ACTION", "REQUEST-STATUS", "NAME", "COLOR",
            ])
        return table
    }()

    /// Properties that may appear at most once in a component (RFC 5545 §3.6).
    public static func isSingleValued(_ name: String) -> Bool {
        switch name {
        case "UID", "DTSTAMP", "DTSTART", "DTEND", "DURATION", "DUE", "SUMMARY", "DESCRIPTION",
            "LOCATION", "CLASS", "CREATED", "LAST-MODIFIED", "ORGANIZER", "PRIORITY", "SEQUENCE",
            "STATUS", "TRANSP", "URL", "RECURRENCE-ID", "GEO", "COMPLETED", "PERCENT-COMPLETE",
            "VERSION", "PRODID", "CALSCALE", "METHOD", "TZID", "TZURL", "TZOFFSETFROM", "TZOFFSETTO":
            return true
        default:
            return false
        }
    }
}

/// Checks a value's text against a value type, for lint. Returns a reason when it does not fit.
public enum ValueChecker {
    /// Why `text` is not a valid `type` (`tzid` applying to date-times); nil when it is.
    public static func problem(with text: String, as type: ValueType, tzid: String? = nil) -> String? {
        let ok: Bool
        switch type {
        case .boolean: ok = ["TRUE", "FALSE"].contains(text.uppercased())
        case .integer: ok = Int(text.hasPrefix("+") ? String(text.dropFirst()) : text) != nil
        case .float:
            ok = text.split(separator: ";", omittingEmptySubsequences: false).allSatisfy { Double($0) != nil }
        case .date: ok = text.split(separator: ",").allSatisfy { DateTimeValue(parsing: $0)?.isDate == true }
        case .dateTime:
            ok = text.split(separator: ",").allSatisfy {
                DateTimeValue(parsing: $0, tzid: tzid).map { !$0.isDate } == true
            }
        case .duration: ok = ICalDuration(parsing: text) != nil
        case .period: ok = text.split(separator: ",").allSatisfy { Period(parsing: $0, tzid: tzid) != nil }
        case .recur:
            do { _ = try RecurrenceRule(parsing: text); ok = true } catch { return "\(error)" }
        case .utcOffset: ok = UTCOffset(parsing: text) != nil
        case .time:
            ok = text.split(separator: ",").allSatisfy { t in
                let b = Array(t.utf8)
                return (b.count == 6 || (b.count == 7 && (b[6] == UInt8(ascii: "Z"))))
                    && DateTimeValue.parseTime(b, at: 0) != nil
            }
        case .binary: ok = Base64.isValid(text)
        case .calAddress, .uri: ok = !text.isEmpty && text.contains(":")
        case .text: ok = true
        }
        return ok ? nil : "'\(text.prefix(80))' is not a valid \(type.rawValue)"
    }
}

/// BINARY values are base64 (RFC 4648) with ENCODING=BASE64.
public enum Base64 {
    /// True for base64 text: the alphabet of RFC 4648, a length divisible by 4, at most two `=` at
    /// the end.
    public static func isValid(_ text: String) -> Bool {
        var n = 0
        var padding = 0
        for c in text.utf8 {
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                if padding > 0 { return false }
            case UInt8(ascii: "="): padding += 1
            default: return false
            }
            n += 1
        }
        return n % 4 == 0 && padding <= 2
    }
}

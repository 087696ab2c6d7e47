import ICalendar

/// A length given on the command line: RFC 5545 (`PT1H30M`, `P1D`) or the short forms
/// people type (`90m`, `1h30m`, `2d`, `1w`).
enum DurationArgument {
    static func parse(_ text: String, option: String) throws -> ICalDuration {
        if let iso = ICalDuration(parsing: text.uppercased()), !iso.isNegative { return iso }
        var result = ICalDuration()
        var digits = ""
        var sawUnit = false
        for c in text.lowercased() {
            if c.isNumber { digits.append(c); continue }
            guard let n = Int(digits), n >= 0 else { throw invalid(text, option) }
            switch c {
            case "w": result.weeks += n
            case "d": result.days += n
            case "h": result.hours += n
            case "m": result.minutes += n
            case "s": result.seconds += n
            default: throw invalid(text, option)
            }
            digits = ""
            sawUnit = true
        }
        guard digits.isEmpty, sawUnit else { throw invalid(text, option) }
        return result
    }

    static func invalid(_ text: String, _ option: String) -> CLIError {
        CLIError("\(option) \(text) is not a length of time", hint: "write 90m, 1h30m, 2d, or PT1H30M", status: .usage)
    }
}

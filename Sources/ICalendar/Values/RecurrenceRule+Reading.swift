extension RecurrenceRule {
    /// The rule as calendar readers take it, also from a value that RFC 5545 refuses but real
    /// files carry: a negative COUNT is left out, so the rule repeats without end, as
    /// recurring-ical-events reads it (its issue 128), rather than the series losing its rule.
    /// Nil when the value cannot be read even so.
    /// - Parameter tzid: the zone of DTSTART, for an UNTIL written without `Z`.
    public static func reading(_ text: String, tzid: String? = nil) -> RecurrenceRule? {
        if let rule = try? RecurrenceRule(parsing: text, tzid: tzid) { return rule }
        guard negativeCount(in: text) != nil else { return nil }
        let kept = text.split(separator: ";").filter { part in
            let kv = part.split(separator: "=", maxSplits: 1)
            return
                !(kv.count == 2 && kv[0].trimmingSpaces.uppercased() == "COUNT" && (Int(kv[1].trimmingSpaces) ?? 0) < 0)
        }
        return try? RecurrenceRule(parsing: kept.joined(separator: ";"), tzid: tzid)
    }

    /// The COUNT of `text` when it is a negative integer (`-2`), else nil.
    public static func negativeCount(in text: String) -> Int? {
        for part in text.split(separator: ";") {
            let kv = part.split(separator: "=", maxSplits: 1)
            if kv.count == 2, kv[0].trimmingSpaces.uppercased() == "COUNT", let n = Int(kv[1].trimmingSpaces), n < 0 {
                return n
            }
        }
        return nil
    }
}

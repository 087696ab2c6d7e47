/// A UTC-OFFSET value (RFC 5545 §3.3.14), e.g. `+0100` or `-053000`.
public struct UTCOffset: Hashable, Sendable, CustomStringConvertible {
    /// Seconds east of UTC.
    public var seconds: Int

    /// The offset `seconds` east of UTC.
    public init(seconds: Int) { self.seconds = seconds }

    /// Parses `±HHMM` or `±HHMMSS`; nil for another form or minutes or seconds past 59.
    public init?(parsing text: some StringProtocol) {
        let b = Array(text.utf8)
        guard b.count == 5 || b.count == 7, b[0] == UInt8(ascii: "+") || b[0] == UInt8(ascii: "-"),
            let h = digits(b, 1, 2), let m = digits(b, 3, 2), m < 60
        else { return nil }
        var s = 0
        if b.count == 7 { guard let sec = digits(b, 5, 2), sec < 60 else { return nil }; s = sec }
        let total = h * 3600 + m * 60 + s
        self.seconds = b[0] == UInt8(ascii: "-") ? -total : total
    }

    /// The RFC 5545 form, `+0100` or `-053000` (seconds only when there are some).
    public var description: String {
        let a = abs(seconds)
        var s = (seconds < 0 ? "-" : "+") + pad(a / 3600, 2) + pad(a / 60 % 60, 2)
        if a % 60 != 0 { s += pad(a % 60, 2) }
        return s
    }

    /// `+01:00`, the RFC 3339 form (seconds dropped, as RFC 3339 has none).
    public var rfc3339: String {
        let a = abs(seconds)
        return (seconds < 0 ? "-" : "+") + pad(a / 3600, 2) + ":" + pad(a / 60 % 60, 2)
    }
}

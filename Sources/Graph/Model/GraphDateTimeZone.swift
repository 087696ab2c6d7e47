import ICalendar

/// `start`, `end`: a wall-clock time and the zone it is read in.
///
/// Graph writes seven fractional digits (`2019-03-15T12:00:00.0000000`) and no offset; the zone
/// is a Windows name (`Pacific Standard Time`), one of the IANA names Graph accepts, or `UTC`
/// when the request asked for UTC (`Prefer: outlook.timezone="UTC"`).
public struct GraphDateTimeZone: Hashable, Sendable, Codable {
    /// The wall-clock time, without an offset.
    public var dateTime: String
    /// The zone's name.
    public var timeZone: String?

    /// `dateTime` in `timeZone`.
    public init(dateTime: String, timeZone: String?) {
        self.dateTime = dateTime
        self.timeZone = timeZone
    }

    /// `local` in `timeZone`, written as Graph writes it, without fractional digits.
    public init(_ local: LocalDateTime, timeZone: String) {
        self.init(dateTime: local.isoString, timeZone: timeZone)
    }

    /// The wall-clock time; nil when `dateTime` is not one.
    public var local: LocalDateTime? { GraphTimestamp(parsing: dateTime)?.local }
}

/// A Graph date-time text: `2019-03-15T12:00:00`, with any number of fractional digits
/// (dropped) and an optional `Z` or `±hh:mm` offset.
///
/// `originalStart`, `createdDateTime` and `lastModifiedDateTime` are instants (they end in
/// `Z`); `start.dateTime` and `end.dateTime` are wall-clock times.
public struct GraphTimestamp: Hashable, Sendable {
    /// The wall-clock fields as written.
    public var local: LocalDateTime
    /// Seconds east of UTC when the text had an offset (`Z` is 0); nil when it had none.
    public var offset: Int?

    /// Parses `text`; nil when it is not a date-time.
    public init?(parsing text: String) {
        let b = Array(text.utf8)
        func number(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= b.count else { return nil }
            var n = 0
            for i in at..<(at + count) {
                guard b[i] >= 48 && b[i] <= 57 else { return nil }
                n = n * 10 + Int(b[i] - 48)
            }
            return n
        }
        guard b.count >= 19, b[4] == 45, b[7] == 45, b[10] == 84 || b[10] == 116 || b[10] == 32, b[13] == 58,
            b[16] == 58, let y = number(0, 4), let mo = number(5, 2), let d = number(8, 2),
            let h = number(11, 2), let mi = number(14, 2), let s = number(17, 2)
        else { return nil }
        let value = LocalDateTime(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
        guard value.date.isValid, value.time.isValid else { return nil }
        var i = 19
        if i < b.count, b[i] == 46 {
            i += 1
            while i < b.count, b[i] >= 48 && b[i] <= 57 { i += 1 }
        }
        var offset: Int?
        if i < b.count {
            if b[i] == 90 || b[i] == 122, i + 1 == b.count {
                offset = 0
            } else if b[i] == 43 || b[i] == 45, b.count == i + 6, b[i + 3] == 58, let oh = number(i + 1, 2),
                let om = number(i + 4, 2)
            {
                offset = (b[i] == 45 ? -1 : 1) * (oh * 3600 + om * 60)
            } else {
                return nil
            }
        }
        self.local = value
        self.offset = offset
    }

    /// The instant, in seconds since 1970 UTC, when the text had an offset.
    public var instant: Int64? { offset.map { local.secondsSinceEpoch - Int64($0) } }
}

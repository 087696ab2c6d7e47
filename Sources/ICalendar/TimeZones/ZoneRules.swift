import Foundation

/// A time zone as calendar arithmetic needs it: the UTC offset in force at any instant, and the
/// conversion of wall-clock times to instants with RFC 5545's rules for DST gaps and overlaps.
///
/// Instants are seconds since 1970-01-01T00:00:00Z (`Int64`), cheap to compare and add.
public protocol ZoneRules: Sendable {
    /// The name the zone is known by (an IANA id, or the TZID of an embedded VTIMEZONE).
    var identifier: String { get }
    /// Seconds east of UTC in force at the instant `utc`.
    func offset(atUTC utc: Int64) -> Int

    /// Instants around `utc` over which the offset stays what it is at `utc` (at least `utc`
    /// itself), so callers converting many times can skip lookups; nil when unknown.
    func constantOffsetInterval(containing utc: Int64) -> Range<Int64>?
}

extension ZoneRules {
    /// Nil: a zone that cannot tell has its offset looked up at every instant.
    public func constantOffsetInterval(containing utc: Int64) -> Range<Int64>? { nil }
}

extension ZoneRules {
    /// The wall-clock time at the instant `utc`.
    public func local(atUTC utc: Int64) -> LocalDateTime {
        LocalDateTime(secondsSinceEpoch: utc + Int64(offset(atUTC: utc)))
    }

    /// The instant of a wall-clock time (RFC 5545 §3.3.5): a time that does not exist (in a DST
    /// gap) is read with the offset before the gap, which moves it forward by the gap's length;
    /// a time that exists twice (in an overlap) is the first of the two instants.
    public func utc(forLocal local: LocalDateTime) -> Int64 {
        let wall = local.secondsSinceEpoch
        let before = offset(atUTC: wall - 86_400)
        let after = offset(atUTC: wall + 86_400)
        let candidateBefore = wall - Int64(before)
        if before == after {
            let o = offset(atUTC: candidateBefore)
            if o == before { return candidateBefore }
            // Two transitions within two days (rare): settle on the offset at the first guess.
            return wall - Int64(o)
        }
        let candidateAfter = wall - Int64(after)
        let beforeValid = offset(atUTC: candidateBefore) == before
        let afterValid = offset(atUTC: candidateAfter) == after
        switch (beforeValid, afterValid) {
        case (true, true): return min(candidateBefore, candidateAfter)
        case (true, false): return candidateBefore
        case (false, true): return candidateAfter
        case (false, false): return candidateBefore  // in the gap
        }
    }
}

/// UTC, or any zone with one offset forever.
public struct FixedOffsetZone: ZoneRules {
    /// The zone's name, `UTC` unless given.
    public let identifier: String
    /// The offset, in seconds east of UTC.
    public let seconds: Int

    /// A zone `seconds` east of UTC, named `identifier`; UTC unless given.
    public init(identifier: String = "UTC", seconds: Int = 0) {
        self.identifier = identifier
        self.seconds = seconds
    }

    /// UTC.
    public static let utc = FixedOffsetZone()
    /// The one offset, at every instant.
    public func offset(atUTC utc: Int64) -> Int { seconds }
    /// Every instant: the offset never changes.
    public func constantOffsetInterval(containing utc: Int64) -> Range<Int64>? { Int64.min..<Int64.max }
}

/// An IANA zone from the system's time-zone database, through Foundation.
public struct SystemZone: ZoneRules {
    /// The identifier as the system's database spells it.
    public let identifier: String
    private let zone: TimeZone

    /// Nil when the system does not know the identifier.
    public init?(identifier: String) {
        guard !identifier.isEmpty, let zone = TimeZone(identifier: identifier) else { return nil }
        self.identifier = zone.identifier
        self.zone = zone
    }

    /// The offset the system's database gives for the instant.
    public func offset(atUTC utc: Int64) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(utc)))
    }

    /// From `utc` to the zone's next transition (a year on when it has none).
    public func constantOffsetInterval(containing utc: Int64) -> Range<Int64>? {
        let next = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: TimeInterval(utc)))
        let end = next.map { Int64($0.timeIntervalSince1970.rounded(.down)) } ?? (utc + 366 * 86_400)
        guard end > utc, offset(atUTC: end - 1) == offset(atUTC: utc) else { return nil }
        return utc..<end
    }
}

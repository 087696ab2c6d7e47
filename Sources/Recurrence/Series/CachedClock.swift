import ICalendar

/// A zone that remembers the stretch of time over which its offset is constant, so the many
/// wall-clock → instant conversions of one expansion rarely reach the zone database.
///
/// Made for one query on one thread: the cache is mutable and not synchronised.
final class CachedClock: ZoneRules, @unchecked Sendable {
    let zone: any ZoneRules
    private var interval: Range<Int64> = 0..<0
    private var cachedOffset = 0

    init(_ zone: any ZoneRules) { self.zone = zone }

    var identifier: String { zone.identifier }

    func offset(atUTC utc: Int64) -> Int {
        if interval.contains(utc) { return cachedOffset }
        let o = zone.offset(atUTC: utc)
        if let range = zone.constantOffsetInterval(containing: utc) {
            interval = range
            cachedOffset = o
        }
        return o
    }

    func constantOffsetInterval(containing utc: Int64) -> Range<Int64>? {
        interval.contains(utc) ? interval : zone.constantOffsetInterval(containing: utc)
    }
}

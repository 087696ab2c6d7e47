import Foundation
import ICalendar
import Synchronization

/// Zone names between Graph and iCalendar: Graph reads and writes Windows names (`W. Europe
/// Standard Time`), calgw's files IANA names (`Europe/Berlin`).
///
/// Reading goes through `TimeZoneResolver`, which knows CLDR's table. Writing takes CLDR's
/// Windows name for the zone; for a zone CLDR names under an older spelling (`Asia/Kolkata`,
/// which CLDR calls `Asia/Calcutta`) the older spelling's; for any other zone the first
/// Windows zone (by name) whose offsets and changes agree with it over twenty years from the
/// event's year, so `Europe/Amsterdam` is written as a zone with Berlin's clock.
enum GraphZones {
    /// The IANA identifier of a Graph zone name: a Windows name, an IANA name, `UTC` or
    /// `tzone://Microsoft/Utc`. Nil for `tzone://Microsoft/Custom` and unknown names.
    static func iana(forGraphName name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return nil }
        if isUTC(trimmed) || trimmed.lowercased() == "tzone://microsoft/utc" { return "UTC" }
        if trimmed.lowercased().hasPrefix("tzone://") { return nil }
        return TimeZoneResolver.ianaIdentifier(for: trimmed)
    }

    /// The zone rules of an IANA identifier (UTC as a fixed zone).
    static func rules(_ iana: String) -> (any ZoneRules)? {
        if isUTC(iana) { return FixedOffsetZone.utc }
        return SystemZone(identifier: iana)
    }

    /// Whether the name is one of UTC's.
    static func isUTC(_ name: String) -> Bool {
        ["utc", "etc/utc", "gmt", "etc/gmt", "z", "zulu", "etc/zulu", "universal", "etc/universal"].contains(
            name.lowercased())
    }

    /// The Windows name to write for an IANA zone, judged over twenty years from `year`;
    /// `UTC` for UTC. Nil when no Windows zone keeps the same clock.
    static func windowsName(forIANA iana: String, year: Int) -> String? {
        if isUTC(iana) { return "UTC" }
        if let name = TimeZoneResolver.windowsName(forIANA: iana) { return name }
        if let older = olderSpelling[iana], let name = TimeZoneResolver.windowsName(forIANA: older) { return name }
        let key = "\(iana)\u{0}\(year)"
        if let hit = cache.withLock({ $0[key] }) { return hit }
        let found = equivalentWindowsName(iana, year: year)
        cache.withLock { $0[key] = found }
        return found
    }

    /// Newer IANA spellings of zones CLDR's table still names the old way.
    static let olderSpelling: [String: String] = [
        "Asia/Kolkata": "Asia/Calcutta", "Europe/Kyiv": "Europe/Kiev",
        "America/Argentina/Buenos_Aires": "America/Buenos_Aires", "America/Nuuk": "America/Godthab",
        "America/Indiana/Indianapolis": "America/Indianapolis", "Asia/Yangon": "Asia/Rangoon",
        "Asia/Kathmandu": "Asia/Katmandu", "Asia/Istanbul": "Europe/Istanbul",
    ]

    private static let cache = Mutex<[String: String?]>([:])

    private static func equivalentWindowsName(_ iana: String, year: Int) -> String? {
        guard let zone = TimeZone(identifier: iana) else { return nil }
        let from = Date(
            timeIntervalSince1970: TimeInterval(LocalDateTime(year: year, month: 1, day: 1).secondsSinceEpoch))
        let to = Date(
            timeIntervalSince1970: TimeInterval(LocalDateTime(year: year + 20, month: 1, day: 1).secondsSinceEpoch))
        let clock = changes(of: zone, from: from, to: to)
        for (windows, candidate) in TimeZoneResolver.ianaByWindowsName.sorted(by: { $0.key < $1.key }) {
            guard let other = TimeZone(identifier: candidate), changes(of: other, from: from, to: to) == clock else {
                continue
            }
            return windows
        }
        return nil
    }

    /// The offset at `from`, then each change until `to` with the offset after it.
    private static func changes(of zone: TimeZone, from: Date, to: Date) -> [Int64] {
        var result: [Int64] = [Int64(zone.secondsFromGMT(for: from))]
        var at = from
        while let next = zone.nextDaylightSavingTimeTransition(after: at), next < to, result.count < 200 {
            result.append(Int64(next.timeIntervalSince1970.rounded()))
            result.append(Int64(zone.secondsFromGMT(for: next)))
            at = next
        }
        return result
    }
}

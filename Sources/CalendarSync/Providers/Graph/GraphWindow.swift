import Foundation

/// The span of time a Graph calendar is synced over: Graph lists a calendar's events only in
/// a window (`calendarView/delta` requires one, of at most 1,825 days), fixed for the life of
/// a delta token. Its ends are snapped to the first of a month (UTC), so the window moves
/// forward once a month, not every day: a moved window starts a new listing round.
struct GraphWindow: Equatable, Sendable {
    /// The first instant in the window.
    var start: Date
    /// The first instant after it.
    var end: Date

    /// The longest window Graph takes, in days.
    static let maximumDays = 1825

    /// The window `text` (`-365d..+730d`, relative to `now`) gives, snapped outward to months
    /// and cut to Graph's maximum; the default one when `text` is nil or not a window.
    init(_ text: String?, now: Date = Date()) {
        let range = text.flatMap { SyncWindow.parse($0, now: now) }
        let from =
            range.map { Date(timeIntervalSince1970: TimeInterval($0.lowerBound)) }
            ?? now.addingTimeInterval(-365 * 86_400)
        let to =
            range.map { Date(timeIntervalSince1970: TimeInterval($0.upperBound)) }
            ?? now.addingTimeInterval(730 * 86_400)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let startMonth = calendar.date(from: calendar.dateComponents([.year, .month], from: from))!
        var endMonth = calendar.date(from: calendar.dateComponents([.year, .month], from: to))!
        if endMonth < to { endMonth = calendar.date(byAdding: .month, value: 1, to: endMonth)! }
        let longest = startMonth.addingTimeInterval(TimeInterval(Self.maximumDays) * 86_400)
        start = startMonth
        end = min(endMonth, longest)
    }

    /// `startDateTime=…&endDateTime=…`, as calendarView and its delta take them.
    var query: String {
        "startDateTime=\(Self.format(start))&endDateTime=\(Self.format(end))"
    }

    /// The window as text, to tell whether a token was made for it.
    var key: String { "\(Self.format(start))/\(Self.format(end))" }

    static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}

import CalendarSync
import Foundation

/// One line of `calgw status` for a pending item or a conflict: what happens, when the
/// event starts, its summary, and where it is.
enum StatusLine {
    static func item(_ item: PendingItem) -> String {
        var line = item.action.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
        line += " " + start(item.start).padding(toLength: 17, withPad: " ", startingAt: 0)
        line += " " + (item.summary.map { "\"\($0)\"" } ?? item.uid)
        if let place = item.path ?? item.href { line += "  " + place }
        if item.waiting == true { line += "  (left for the other direction)" }
        return line
    }

    static func conflict(_ item: PendingItem) -> String {
        var line = "\(item.uid): local \"\(item.localSummary ?? "")\", remote \"\(item.remoteSummary ?? "")\""
        line += item.strategy == "pending" ? "; left for calgw sync" : "; \(item.strategy ?? "merge") resolves it"
        if let place = item.path ?? item.href { line += "  " + place }
        return line
    }

    /// `20260301T100000Z` as `2026-03-01 10:00Z`, `20260301` as `2026-03-01`; else as given.
    static func start(_ value: String?) -> String {
        guard let value else { return "-" }
        let chars = Array(value)
        guard chars.count >= 8, chars.prefix(8).allSatisfy(\.isNumber) else { return value }
        var out = "\(String(chars[0..<4]))-\(String(chars[4..<6]))-\(String(chars[6..<8]))"
        if chars.count >= 13, chars[8] == "T" { out += " \(String(chars[9..<11])):\(String(chars[11..<13]))" }
        if value.hasSuffix("Z") { out += "Z" }
        return out
    }
}

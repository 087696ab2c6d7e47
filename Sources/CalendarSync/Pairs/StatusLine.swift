import Foundation

/// One line of `calgw status` for a pending item or a conflict: what happens, when the
/// event starts, its summary, and where it is.
public enum StatusLine {
    public static func item(_ item: PendingItem) -> String {
        var line = item.action.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
        // A column of 17, never cut (`2026-03-01 10:00+01:00` is longer); a task without a
        // start shows its due time, called due.
        let when = item.start == nil && item.due != nil ? "due " + start(item.due) : start(item.start)
        line += " " + when.padding(toLength: max(17, when.count), withPad: " ", startingAt: 0)
        line += " " + (item.summary.map { "\"\($0)\"" } ?? item.uid)
        if let place = item.path ?? item.href { line += "  " + place }
        if item.waiting == true { line += "  (left for the other direction)" }
        return line
    }

    public static func conflict(_ item: PendingItem) -> String {
        var line = "\(item.uid): local \"\(item.localSummary ?? "")\", remote \"\(item.remoteSummary ?? "")\""
        line +=
            item.strategy == .pending ? "; left for calgw sync" : "; \(item.strategy?.rawValue ?? "merge") resolves it"
        if let place = item.path ?? item.href { line += "  " + place }
        return line
    }

    /// A start as `status --json` gives it (RFC 3339) in a few characters: `2026-03-01T10:00:00+00:00`
    /// as `2026-03-01 10:00Z`, `2026-03-01T10:00:00+01:00` as `2026-03-01 10:00+01:00`, a
    /// floating time without a zone, a date as it is.
    public static func start(_ value: String?) -> String {
        guard let value else { return "-" }
        let chars = Array(value)
        guard chars.count >= 16, chars[10] == "T" else { return value }
        let offset = chars.count > 19 ? String(chars[19...]) : ""
        return String(chars[0..<10]) + " " + String(chars[11..<16]) + (offset == "+00:00" ? "Z" : offset)
    }
}

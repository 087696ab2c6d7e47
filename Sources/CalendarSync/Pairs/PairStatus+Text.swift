import Foundation
import OAuth

extension PairStatus.Record {
    /// `calgw status`'s text for the pair: what a sync would do on each side, item by item
    /// (the first `limit` of each list and a count of the rest; nil: every one), conflicts,
    /// what is held back, broken files and UIDs held twice.
    public func lines(limit: Int?) -> [String] {
        let s = self
        var out: [String] = []
        out.append("pair \(s.pair): \(s.synced) items synced, last sync \(s.lastSync ?? "never")")
        if let signIn = s.signIn { out.append("  " + signIn.line(pair: s.pair)) }
        func counts(_ c: KeyPath<SyncReport.Counts, Int>) -> String {
            "\(s.pending.created[keyPath: c]) to create, \(s.pending.updated[keyPath: c]) to update, \(s.pending.deleted[keyPath: c]) to delete"
        }
        func list<T>(_ rows: [T], _ line: (T) -> String) {
            let limit = limit ?? rows.count
            for row in rows.prefix(limit) { out.append("      " + line(row)) }
            if rows.count > limit {
                out.append("      … and \(rows.count - limit) more (--all-items lists every one)")
            }
        }
        /// A titled list with its count, when it has rows.
        func section<T>(_ title: String, _ rows: [T], _ line: (T) -> String) {
            guard !rows.isEmpty else { return }
            out.append("  \(title): \(rows.count)")
            list(rows, line)
        }
        let changes = { (side: Side) in s.items.filter { $0.side == side } }
        switch s.unreadable {
        case "remote":
            out.append("  local:  not known: the remote side could not be read")
            out.append("  remote: \(counts(\.remote)) (the local changes)")
            list(changes(.remote), StatusLine.item)
        case "local":
            out.append("  local:  not known: the file does not parse (see below)")
            out.append("  remote: not known until it does")
        case "both":
            out.append("  local:  not known")
            out.append("  remote: not known")
        default:
            out.append("  local:  \(counts(\.local))")
            list(changes(.local), StatusLine.item)
            out.append("  remote: \(counts(\.remote))")
            list(changes(.remote), StatusLine.item)
        }
        for line in s.notes { out.append("  \(line)") }
        section("held back (kept in the vdir, sent again when they change)", s.heldBack) { "\($0.uid): \($0.reason)" }
        if let kept = s.keptLocally {
            out.append("  kept locally: \(kept) local change\(kept == 1 ? "" : "s") the read-only feed does not take")
        }
        section("conflicts", s.conflicts, StatusLine.conflict)
        section("broken files (a sync stops on them until they are fixed)", s.broken) {
            "\($0.path):\($0.line): \($0.problem)"
        }
        section("UIDs held twice (neither is synced)", s.duplicates) {
            "\($0.uid) on the \($0.side.rawValue) side: \($0.locations.joined(separator: ", "))"
        }
        for line in s.skipped where !s.broken.contains(where: { line.hasPrefix("\($0.path):") }) {
            out.append("  skipped: \(line)")
        }
        if let m = s.massDeletion { out.append("  warning: \(m)") }
        return out
    }
}

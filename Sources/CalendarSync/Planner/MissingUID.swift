import Foundation
import ICalendar

/// Gives a hand-written vdir file without a UID one. The UID line goes right after each
/// `BEGIN:VEVENT`, `BEGIN:VTODO` or `BEGIN:VJOURNAL` that lacks one, with the file's own
/// line ending; nothing else in the file changes.
enum MissingUID {
    static let objectLines: Set<String> = ["BEGIN:VEVENT", "BEGIN:VTODO", "BEGIN:VJOURNAL"]

    /// `data` with `uid` added to every calendar object without a UID.
    static func inserting(_ uid: String, into data: Data) -> Data {
        let text = String(decoding: data, as: UTF8.self)
        let newline = text.contains("\r\n") ? "\r\n" : "\n"
        let lines = text.physicalLines  // by scalar: a CRLF file splits too
        // Which objects have a UID: scan each object's lines (folded continuations start with a space or tab).
        var out: [Substring] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            out.append(line)
            let bare = String(line.droppingCarriageReturn)
            if objectLines.contains(bare.uppercased()) {
                let end = "END:" + bare.dropFirst(6).uppercased()
                var depth = 0, hasUID = false, j = index + 1
                while j < lines.count {
                    let l = lines[j].droppingCarriageReturn.uppercased()
                    if l.hasPrefix("BEGIN:") { depth += 1 }
                    if l.hasPrefix("END:") { if depth == 0 && l == end { break }; depth -= 1 }
                    if depth == 0 && (l.hasPrefix("UID:") || l.hasPrefix("UID;")) { hasUID = true }
                    j += 1
                }
                if !hasUID { out.append(Substring("UID:" + uid + (newline == "\r\n" ? "\r" : ""))) }
            }
            index += 1
        }
        return Data(out.joined(separator: "\n").utf8)
    }

}

import Foundation

/// The join block Outlook appends to an online meeting's HTML body (event-update.md calls it
/// the meeting blob): a rule of underscores, "Microsoft Teams meeting", the join link, and on
/// Teams' own blocks a closing rule. A body written without it leaves the meeting no longer
/// online, so notes edited in the vdir are written with the block kept after them.
public struct OnlineMeetingBlock: Hashable, Sendable {
    /// The block's HTML, as the body holds it.
    public let html: String
    /// The join link the block holds.
    public let joinLink: String

    /// The block in the HTML body `html`: from the element that opens the rule of underscores
    /// before the first join link (`…/meetup-join/…`) to the end of the closing rule after it,
    /// or to the end of the body; nil when the body holds no join link.
    public init?(in html: String) {
        guard let link = html.range(of: "/meetup-join/") ?? html.range(of: "meetup-join") else { return nil }
        guard let rule = html.range(of: Self.rule, options: .backwards, range: html.startIndex..<link.lowerBound),
            let open = html.range(
                of: "<div", options: [.backwards, .caseInsensitive], range: html.startIndex..<rule.lowerBound)
        else { return nil }
        var end =
            html.range(of: "</body>", options: .caseInsensitive, range: link.upperBound..<html.endIndex)?.lowerBound
            ?? html.endIndex
        if let closing = html.range(of: Self.rule, range: link.upperBound..<end),
            let div = html.range(of: "</div>", options: .caseInsensitive, range: closing.upperBound..<end)
        {
            end = div.upperBound
        }
        self.html = String(html[open.lowerBound..<end])
        let quoteStart = html[..<link.lowerBound].lastIndex { $0 == "\"" || $0 == "'" }
        let linkEnd = html[link.upperBound...].firstIndex { $0 == "\"" || $0 == "'" || $0 == "<" || $0 == " " }
        joinLink = String(
            html[(quoteStart.map { html.index(after: $0) } ?? link.lowerBound)..<(linkEnd ?? link.upperBound)])
    }

    /// The rule Outlook draws around the block (a run of underscores).
    static let rule = "________________"

    /// The notes `body` with the block after them, as HTML: the notes' own copy of the block's
    /// words (DESCRIPTION holds them as text, read from the body) taken out first, so they
    /// are not there twice. A body that holds the join link already is returned as it is.
    public func kept(in body: GraphItemBody) -> GraphItemBody {
        let content = body.content ?? ""
        if content.contains(joinLink) { return body }
        var notes: String
        if body.contentType == .html {
            notes = content
        } else {
            notes = Self.escaped(Self.removingLines(of: HTMLText.plainText(html), from: content))
        }
        if !notes.isEmpty { notes += "<br>\r\n" }
        return GraphItemBody(contentType: .html, content: notes + html)
    }

    /// `text` without the run of its lines that says `block`'s lines in order (blank lines
    /// between them aside), and without the blank lines before that run; `text` itself when
    /// no run does.
    static func removingLines(of block: String, from text: String) -> String {
        let wanted = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .map(String.init)
        guard !wanted.isEmpty else { return text }
        for start in lines.indices where lines[start].trimmingCharacters(in: .whitespaces) == wanted[0] {
            var index = start, matched = 0
            while index < lines.count, matched < wanted.count {
                let line = lines[index].trimmingCharacters(in: .whitespaces)
                if line == wanted[matched] {
                    matched += 1
                } else if !line.isEmpty {
                    break
                }
                index += 1
            }
            guard matched == wanted.count else { continue }
            var before = Array(lines[..<start])
            while before.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { before.removeLast() }
            return (before + lines[index...]).joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return text
    }

    /// `text` as HTML: its characters escaped, its line ends `<br>`.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\r\n", with: "\n")
            .replacingOccurrences(of: "\n", with: "<br>\r\n")
    }
}

/// `body`: the event's notes, as text or HTML.
public struct GraphItemBody: Hashable, Sendable, Codable {
    /// `text` or `html`; Graph answers `html` unless asked for text.
    public var contentType: GraphBodyType?
    /// The notes.
    public var content: String?

    /// A body of `content` in `contentType`.
    public init(contentType: GraphBodyType? = nil, content: String? = nil) {
        self.contentType = contentType
        self.content = content
    }
}

extension GraphItemBody {
    /// Whether the two bodies say the same words, whatever their form: an HTML body and the
    /// text calgw reads it as (its DESCRIPTION) do. An update that would write such a text over
    /// the HTML changes nothing a reader sees, and would drop what only the HTML holds (an
    /// online meeting's join block).
    public func saysTheSame(as other: GraphItemBody) -> Bool {
        func words(_ body: GraphItemBody) -> [Substring] {
            let content = body.content ?? ""
            let text = body.contentType == .html ? HTMLText.plainText(content) : content
            return text.split(whereSeparator: { $0.isWhitespace })
        }
        return words(self) == words(other)
    }
}

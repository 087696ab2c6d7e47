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

import CalDAV

extension ItemHref {
    /// A server's href as the storage contract carries it: its path.
    init(_ href: Href) { self.init(href.path) }
}

extension ItemETag {
    /// A server's ETag as the storage contract carries it.
    init(_ etag: ETag) { self.init(etag.value) }
}

extension ETag {
    /// The ETag a storage etag stands for, for a conditional request.
    init(_ etag: ItemETag) { self.init(etag.value) }
}

extension WriteIntent {
    /// What the server is told of a write made with this intent.
    var scheduling: SchedulingIntent { self == .personsAction ? .personsAction : .copy }
}

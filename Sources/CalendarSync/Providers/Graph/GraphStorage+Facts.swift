extension GraphStorage {
    /// What an Outlook calendar through Graph does (the registry's `graph` entry): it mails a
    /// meeting's attendees on every write, and marks nothing on the event.
    static let facts = ServerFacts.named("graph") ?? .generic
}

import Foundation

/// One calendar of a pair, as the `event` commands edit it: its vdir and its journal. For a
/// single-calendar pair that is the pair's own; for an account pair, one calendar's folder
/// and the journal its account runs keep.
public struct PairCalendar: Sendable, Equatable {
    /// The folder name within an account pair; nil for a single-calendar pair.
    public var collection: String?
    /// The vdir the calendar's events are written to.
    public var folder: URL
    /// The journal that records what of it is on the server.
    public var journal: URL
}

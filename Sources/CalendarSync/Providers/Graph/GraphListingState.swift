import Foundation

/// What a Graph calendar's change token holds between runs: the delta round's link, the
/// window it was made for, and the series masters known with their change keys. Masters are
/// never in a delta round (only their occurrences and exceptions are), so a change of a series
/// is found by asking its master again; an occurrence deleted in Outlook leaves no trace in
/// the round at all, so every known master is asked whenever the folder changed since they
/// were last asked (``SeriesCheck``).
struct GraphListingState: Codable, Equatable {
    /// The `@odata.deltaLink` of the last round, followed verbatim.
    var deltaLink: String
    /// ``GraphWindow/key`` of the window the link was made for.
    var window: String
    /// The series masters known, by id, with their change keys.
    var masters: [String: String]
    /// Whether the account may write to the calendar (`canEdit`), as read at the first round.
    var canEdit: Bool = true
    /// How many single events and series masters the calendar held when last listed whole
    /// (nil: not listed yet): what a listing of their change keys costs, against asking each
    /// series in `$batch`.
    var events: Int?
    /// The folder's commit stamp (``GraphExtendedProperty/commitStampID``) at which every
    /// series in `masters` was known current; nil when Graph gave none.
    var stamp: String?
    /// When every known series was last asked its change key.
    var checked: Date?

    /// The state a token holds; nil for a token of another form (a relisting then).
    init?(_ token: ChangeToken) {
        guard token.value.hasPrefix(Self.prefix),
            let state = try? JSONDecoder().decode(Self.self, from: Data(token.value.dropFirst(Self.prefix.count).utf8))
        else { return nil }
        self = state
    }

    init(
        deltaLink: String, window: String, masters: [String: String], canEdit: Bool, events: Int? = nil,
        stamp: String? = nil, checked: Date? = nil
    ) {
        self.deltaLink = deltaLink
        self.window = window
        self.masters = masters
        self.canEdit = canEdit
        self.events = events
        self.stamp = stamp
        self.checked = checked
    }

    /// The state as a change token.
    var token: ChangeToken {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return ChangeToken(Self.prefix + json)
    }

    private static let prefix = "graph:"
}

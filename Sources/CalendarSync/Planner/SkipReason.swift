import Foundation

/// Why an item is left out of a run, typed so that the report tells each kind its own way
/// (``SyncReport/add(_:)``) instead of lines being added and then found again by their text.
public struct SkipReason: Sendable, Hashable {
    /// What kept the item out.
    public enum Kind: Sendable, Hashable {
        /// It does not parse, or changed into something that does not: left alone on both
        /// sides, a line among the run's skips.
        case unreadable
        /// A vdir file broken by a hand edit: its problem, at its line, is among the run's
        /// errors with a hint (from the scan's problems), so the skip adds nothing of its own.
        case handEdit
        /// Two or more items of a side with one UID: an error of the run naming each place;
        /// none of them is synced, and the rest is.
        case sharedUID
    }

    /// What kept the item out.
    public var kind: Kind
    /// The line that says so.
    public var text: String

    /// A reason of `kind`, said by `text`.
    public init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = text
    }
}

extension SyncReport {
    /// Tells a skipped item the way its kind is told: a skip, an error, or nothing more.
    mutating func add(_ reason: SkipReason) {
        switch reason.kind {
        case .unreadable: skipped.append(reason.text)
        case .handEdit: break
        case .sharedUID: addError(reason.text)
        }
    }
}

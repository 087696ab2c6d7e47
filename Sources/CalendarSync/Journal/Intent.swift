import Foundation

/// A write about to be made to one side, committed to the journal before it is made.
///
/// A run that was killed leaves intents `pending`; the next run looks at each one (did the
/// write land?), records what it finds, then plans from both sides' actual state, so the
/// interrupted work is finished or its effect rolled into the next plan, never repeated blindly.
public struct Intent: Sendable, Hashable {
    /// The kind of write.
    public enum Operation: String, Sendable, Hashable, Codable { case create, update, delete }

    /// The intent's row in the journal once recorded (intents recorded together share it); nil
    /// before.
    public var id: Int64?
    /// The item written.
    public var key: ItemKey
    /// Whether the write creates, updates or deletes.
    public var operation: Operation
    /// The side written.
    public var side: Side
    /// The href written (for a create: the name asked for).
    public var href: ItemHref?
    /// The etag the write is conditional on.
    public var ifMatch: ItemETag?
    /// The hash of the content written (nil for a delete).
    public var newHash: ContentHash?
    /// For a write that copies an item from the other side: that side's version of it, as read.
    /// Once the write lands the item is equal on both sides, so recovery can record the journal
    /// row the interrupted run would have recorded (nil for a delete, and for a write that
    /// leaves the sides different until a second write: a merge's first half, a conflict copy).
    public var source: SideRecord?

    /// An intent, not yet recorded unless `id` is given.
    public init(
        id: Int64? = nil, key: ItemKey, operation: Operation, side: Side, href: ItemHref?, ifMatch: ItemETag?,
        newHash: ContentHash?,
        source: SideRecord? = nil
    ) {
        self.id = id
        self.key = key
        self.operation = operation
        self.side = side
        self.href = href
        self.ifMatch = ifMatch
        self.newHash = newHash
        self.source = source
    }
}

/// How an intent's write ended, as the journal records it.
public enum IntentOutcome: Sendable, Hashable {
    /// The write landed.
    case done
    /// The write failed; nothing changed on that side.
    case failed(String)
    /// Of intents recorded together, some landed and `failed` of `of` did not.
    case doneExcept(failed: Int, of: Int, firstReason: String)
    /// Nobody knows: the request went out and no answer came (the connection broke, the run
    /// was cancelled). The server may have made the write, so the intent stays pending and the
    /// next run's recovery looks at the item, as after a kill.
    case unknown(String)

    /// The intent's state column.
    var state: String {
        switch self {
        case .done, .doneExcept: "done"
        case .failed: "failed"
        case .unknown: "pending"
        }
    }

    /// The outcome column: what a person reading the journal sees.
    var text: String {
        switch self {
        case .done: "done"
        case .failed(let reason): "failed: \(reason)"
        case .doneExcept(let failed, let count, let reason):
            "done but \(failed) of \(count) failed, the first: \(reason)"
        case .unknown(let reason): "not known: \(reason)"
        }
    }
}

/// How the journal's item table changes when an intent's write succeeded.
public enum JournalChange: Sendable {
    /// The item is in sync on both sides with this content as the new merge base
    /// (nil: keep the base the journal has).
    case upsert(JournalItem, base: Data?)
    /// The item is gone from both sides.
    case remove(ItemKey)
    /// Nothing to record yet (the item is not yet equal on both sides).
    case none
}

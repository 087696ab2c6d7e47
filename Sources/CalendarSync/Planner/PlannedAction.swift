/// One step of a plan, for one item.
///
/// The cases that carry two items or more are boxed (`indirect`), so that an action takes the
/// room of one item: inline, a conflict's two items and journal row made every action of a
/// plan about 490 bytes, and a first push of 100,000 files held 100,000 of them.
public enum PlannedAction: Sendable, Hashable {
    /// Copy `source` (from the other side) to `side`, where the item does not exist.
    case create(on: Side, source: SideItem)
    /// Overwrite `target` on `side` with `source` (from the other side), if `target` is unchanged.
    indirect case update(on: Side, target: SideItem, source: SideItem)
    /// Delete `target` on `side`, if it is unchanged.
    case delete(on: Side, target: SideItem)
    /// Both sides changed differently (or both created the item): the strategy decides.
    indirect case conflict(local: SideItem, remote: SideItem, journal: JournalItem?)
    /// Both sides hold equal content; only the journal learns the current versions.
    indirect case record(local: SideItem, remote: SideItem)
    /// Gone from both sides; only the journal forgets it.
    case forget(ItemKey)
    /// A write the direction does not allow this run (`pull`/`push`); it stays pending.
    indirect case pending(PlannedAction)
    /// Not synced, with the reason (two items with one UID on a side).
    case skip(ItemKey, reason: SkipReason)

    /// Whether this action copies an item whose content the scan did not keep (it is read
    /// before the write).
    var lacksItsSource: Bool {
        switch self {
        case .create(_, let s), .update(_, _, let s): s.data == nil
        default: false
        }
    }

    /// The item this action is about.
    public var key: ItemKey {
        switch self {
        case .create(_, let s), .update(_, _, let s): s.key
        case .delete(_, let t): t.key
        case .conflict(let l, _, _), .record(let l, _): l.key
        case .forget(let k), .skip(let k, _): k
        case .pending(let a): a.key
        }
    }

    /// The side this action writes, nil for conflicts (maybe both) and journal-only actions.
    public var writes: Side? {
        switch self {
        case .create(let side, _), .update(let side, _, _), .delete(let side, _): side
        default: nil
        }
    }

    /// True for actions that change nothing on either side.
    public var isJournalOnly: Bool {
        switch self {
        case .record, .forget: true
        default: false
        }
    }
}

/// What a run will do: an action per item that needs one, and the safety verdict.
public struct SyncPlan: Sendable {
    /// One action per item that needs one.
    public var actions: [PlannedAction]
    /// Set when a side is empty while the journal knows items and the plan would delete them
    /// on the other side, or when the plan would delete more than half of what the journal
    /// knows (see ``SyncPolicy/massDeleteShareMinimum``): the run is refused unless mass
    /// deletion is allowed.
    public var massDeletion: MassDeletion?
    /// Hrefs of items that do not parse, per side: reported, never deleted or uploaded.
    public var unparseable: [Side: [ItemHref]]
    /// Items outside the sync window that the journal does not know (they keep the side's
    /// listing from being skipped next time, so they are seen when they enter the window).
    public var outsideWindow = 0
    /// Those items, per side (without their bytes), for the journal's outside-window table.
    public var outsideItems: [Side: [SideItem]] = [:]
    /// Of those, the vdir's events read in this run and left out (a first sync's history
    /// beyond the window), for the run to say so.
    public var newLocalOutsideWindow = 0

    /// A run that would delete too much: what tripped the guard, for its message.
    public struct MassDeletion: Sendable, Hashable {
        /// The side found empty; nil when neither is (the run would delete more than half of
        /// the items the journal knows).
        public var emptySide: Side?
        /// How many items the run would delete (on the other side of an emptied one; else on
        /// both sides together).
        public var deletions: Int
        /// How many items the journal knows.
        public var known: Int

        /// A verdict that `deletions` of the `known` items would go, `emptySide` found empty if
        /// either was.
        public init(emptySide: Side?, deletions: Int, known: Int) {
            self.emptySide = emptySide
            self.deletions = deletions
            self.known = known
        }

        /// What the run would do, in words: `the local side is empty while the journal knows 5
        /// items; refusing to delete 5 on the remote side`, or `the run would delete 11 of the
        /// 20 items the journal knows (more than half); refusing`.
        public var message: String {
            if let side = emptySide {
                return
                    "the \(side.rawValue) side is empty while the journal knows \(known) items; refusing to delete \(deletions) on the \(side.other.rawValue) side"
            }
            return
                "the run would delete \(deletions) of the \(known) items the journal knows (more than half); refusing"
        }

        /// What to do about it.
        public var recovery: String {
            let place =
                switch emptySide {
                case .local?: "the folder"
                case .remote?: "the URL"
                case nil: "the folder and the URL"
                }
            return
                "check that \(place) \(emptySide == nil ? "are" : "is") right; if the deletion is meant, run again with --allow-mass-delete"
        }
    }

    /// A plan of `actions`, with its verdict and what did not parse; nothing outside the window.
    public init(actions: [PlannedAction], massDeletion: MassDeletion? = nil, unparseable: [Side: [ItemHref]] = [:]) {
        self.actions = actions
        self.massDeletion = massDeletion
        self.unparseable = unparseable
    }

    /// The rows of `journal` this plan acts on, by key (the first row of a key): all the
    /// executor and the token check need, however many rows the plan was made from.
    func rowsActedOn(in journal: [JournalItem]) -> [ItemKey: JournalItem] {
        let acted = Set(actions.map(\.key))
        var rows: [ItemKey: JournalItem] = [:]
        for item in journal where acted.contains(item.key) && rows[item.key] == nil { rows[item.key] = item }
        return rows
    }

    /// Actions that write to at least one side or resolve a conflict.
    public var writes: [PlannedAction] {
        actions.filter { a in
            switch a {
            case .create, .update, .delete, .conflict: true
            default: false
            }
        }
    }
}

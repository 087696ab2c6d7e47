/// Which ways a run may write.
public enum SyncDirection: String, Sendable, Hashable, Codable {
    /// Remote changes to the vdir only (`calgw pull`).
    case pull
    /// Local changes to the server only (`calgw push`).
    case push
    /// Both ways (`calgw sync`).
    case both

    /// True when this direction writes `side`.
    public func writes(_ side: Side) -> Bool {
        switch self {
        case .pull: side == .local
        case .push: side == .remote
        case .both: true
        }
    }
}

/// How a run behaves: direction, conflict strategy and safety rails.
public struct SyncPolicy: Sendable, Hashable {
    /// Which sides may be written (default: both).
    public var direction: SyncDirection = .both
    /// How conflicts are resolved (default: merge).
    public var conflict: ConflictStrategy = .merge
    /// Propagate the emptying of a side (default false: refuse, exit 4).
    public var allowMassDelete = false
    /// A side that is empty while the journal knows at least this many items counts as a
    /// mass deletion (default 2).
    public var massDeleteThreshold = 2
    /// A run that would delete more than half of the items the journal knows counts as a mass
    /// deletion once the journal knows at least this many (default 20), though neither side
    /// is empty.
    public var massDeleteShareMinimum = 20
    /// Only items overlapping this window (seconds since 1970) are synced; items outside it
    /// are neither copied nor deleted on either side. Nil: everything (default).
    public var window: ClosedRange<Int64>?
    /// Only items of these kinds are taken up (`item_types`); an item of another kind that the
    /// journal does not know stays where it is on both sides, untouched. Nil: every kind.
    public var itemTypes: ComponentKinds?
    /// The remote side is never written (a subscription to a read-only feed; default false).
    /// A pull then resolves a conflict instead of leaving it pending: the local edit is kept as
    /// a conflict copy, a new local item under a new UID, and the remote version is taken;
    /// under `remote-wins` the remote version is taken without a copy.
    public var remoteIsReadOnly = false
    /// The UIDs whose writes in this run are the person's own action (a reply to an
    /// invitation): a scheduling server sends the messages they call for. Every other write is
    /// a copy, for which it is asked to send nothing (see ``WriteIntent``).
    public var personsActions: Set<String> = []
    /// Of ``personsActions``, the UIDs whose action answers an invitation (`calgw event
    /// reply`): if the organizer changed the meeting since the person's copy, the answer is
    /// not sent, since it answers a version the person has not seen.
    public var answers: Set<String> = []
    /// Whether the person's actions may schedule at all (a pair's `scheduling`); false: the
    /// journal's awaited actions (``Journal/awaitedActions()``) are sent as copies too.
    public var schedules = true

    /// A policy in `direction` resolving conflicts by `conflict`, the mass-deletion guard on unless
    /// allowed.
    public init(direction: SyncDirection = .both, conflict: ConflictStrategy = .merge, allowMassDelete: Bool = false) {
        self.direction = direction
        self.conflict = conflict
        self.allowMassDelete = allowMassDelete
    }
}

import Foundation

/// The one write step every planned create, update and delete goes through, on its own or in a
/// batch (``executeBatch(_:journal:)``): its intent (``intent(for:name:)``), the write
/// (``write(_:asking:refused:)``), the flush of every side that holds writes back, and its
/// outcome — the item's journal row and the report's count (``landed(_:written:)``).
extension Executor {
    /// The intent of a planned write, recorded before it is made.
    /// - Parameter name: for a create, the name asked for (by default the one the key gives).
    static func intent(for action: PlannedAction, name: String? = nil) -> Intent {
        switch action {
        case .create(let side, let s):
            .creating(s.key, named: name ?? stem(for: s.key), on: side, hash: s.hash, copying: s.record)
        case .update(let side, let t, let s): .updating(t, on: side, hash: s.hash, copying: s.record)
        case .delete(let side, let t): .deleting(t, on: side)
        default:
            Intent(key: action.key, operation: .update, side: .local, href: nil, ifMatch: nil, newHash: nil)
        }
    }

    /// Makes one planned write, with the ``WriteIntent`` of its item; the written item (nil
    /// for a delete).
    /// - Parameters:
    ///   - asking: called with the name about to be written, before each attempt (a write on
    ///     its own records its intent there; a batch recorded them all before).
    ///   - refused: called with a name a create found taken by other content.
    func write(
        _ action: PlannedAction, asking: (String) throws -> Void = { _ in },
        refused: (ItemHref) throws -> Void = { _ in }
    ) async throws -> SideItem? {
        switch action {
        case .create(let side, let s):
            let item = try await createItem(
                s.data!, hash: s.hash, key: s.key, span: s.span, on: side, asking: asking, refused: refused)
            try effect()
            return item
        case .update(let side, let t, let s):
            try asking(t.href.value)
            let version = try await storage(side).update(
                href: t.href, data: outgoing(s.data!, to: side, key: t.key), ifMatch: t.etag,
                as: writeIntent(for: t.key))
            try effect()
            return SideItem(
                key: t.key, href: version.href, etag: version.etag, hash: s.hash, data: s.data, span: s.span)
        case .delete(let side, let t):
            try asking(t.href.value)
            try await storage(side).delete(href: t.href, ifMatch: t.etag, as: writeIntent(for: t.key))
            try effect()
            return nil
        default:
            return nil
        }
    }

    /// What a write that landed changes: the item's journal row (returned, to be committed
    /// once the write is durable), the report's count, and what is noted of it (a version the
    /// storage rewrote, a person's action sent).
    func landed(_ action: PlannedAction, written: SideItem?) -> JournalChange {
        switch action {
        case .create(let side, let source), .update(let side, _, let source):
            guard let w = written else { return .none }
            noteRewrite(of: w, on: side, copying: source)
            if side == .local, case .update = action { noteAnswersAskedAgain(w, copying: source) }
            noteSent(source.key, to: side)
            if case .create = action { report.created[side] += 1 } else { report.updated[side] += 1 }
            return .upsert(side == .local ? Self.row(w, source) : Self.row(source, w), base: source.data)
        case .delete(let side, let target):
            noteSent(target.key, to: side)
            noteUntoldMeeting(target, on: side)
            report.deleted[side] += 1
            return .remove(target.key)
        default:
            return .none
        }
    }

    /// Says that a meeting whose file was deleted by hand went from a scheduling server as a
    /// copy's deletion: the server was asked to tell nobody (a file deleted is no message), so
    /// the organizer still counts on the person, or the attendees on the meeting.
    func noteUntoldMeeting(_ target: SideItem, on side: Side) {
        guard side == .remote, !isPersonsAction(target.key), remote.capabilities.scheduleInbox != nil,
            let base = try? journal.base(for: target.key), MeetingContent.isMeeting(base)
        else { return }
        report.notes.append(
            "\(target.key): a meeting whose file was deleted is deleted from the server too, and nobody was told: "
                + "tell the organizer (or, for a meeting you organize, its attendees) yourself; "
                + "`calgw event reply UID --decline` and `calgw event delete UID` send the message")
    }

    /// A planned write made on its own (among actions that are not plain writes): its source
    /// read where the scan kept no bytes, its intent recorded as each name is asked for, the
    /// write, every side flushed, its outcome committed.
    func writeOnItsOwn(_ planned: PlannedAction) async throws {
        let action = try await withSourceRead(planned)
        var intent: Intent?
        let written: SideItem?
        do {
            written = try await write(
                action,
                asking: { name in
                    intent = try self.journal.record(Self.intent(for: action, name: name))
                    try self.effect()
                },
                refused: { href in
                    if let intent { try self.journal.fail(intent, reason: "\(href) exists with other content") }
                })
        } catch let error as RunInterrupted {
            throw error
        } catch {
            // A write that may have landed stays pending: the next run's recovery looks.
            if let intent, !Self.mayHaveLanded(error) { try? journal.fail(intent, reason: Self.describe(error)) }
            throw error
        }
        try await flushAll()
        try journal.complete(intent!, change: landed(action, written: written))
        try effect()
    }

    /// `action` with its source's bytes, read now where the scan did not keep them.
    private func withSourceRead(_ action: PlannedAction) async throws -> PlannedAction {
        switch action {
        case .create(let side, let source): .create(on: side, source: try await data(of: source, on: side.other))
        case .update(let side, let target, let source):
            .update(on: side, target: target, source: try await data(of: source, on: side.other))
        default: action
        }
    }

    /// Flushes every side that holds writes back, before the journal records them.
    func flushAll() async throws {
        for side in Side.allCases { try await makeDurable(side) }
    }
}

import ICalendar
import Recurrence

/// The person's part in the meeting an `event` command changes, by the account's calendar
/// addresses (``OwnAddresses``): what an organizer's change must carry (``OrganizerChange``)
/// and what an attendee may not change (``AttendeeChange``) depend on it.
public enum MeetingRole {
    /// Not a meeting (no ORGANIZER).
    case none
    /// The person organizes it (or calgw cannot tell: their addresses are not at hand, and
    /// the change goes as before, as the organizer's).
    case organizer(Set<String>)
    /// The person is invited to it, by someone else.
    case attendee(organizer: String?)

    /// The person's part in `calendar`'s meeting `uid`, asking the server for their addresses
    /// when none are kept (not `offline`).
    public static func of(_ calendar: Component, uid: String, pair: Pair, offline: Bool) async -> MeetingRole {
        let events = calendar.components.filter { $0.name == "VEVENT" && $0["UID"]?.text == uid }
        guard let organizer = events.lazy.compactMap({ $0["ORGANIZER"] }).first else { return .none }
        guard let own = try? await OwnAddresses.resolve(given: [], pair: pair, offline: offline) else {
            return .organizer([])
        }
        let mine = Set(own.addresses.map(CalendarUser.normalized))
        if events.contains(where: { OwnPart.organizes($0, addresses: mine) }) { return .organizer(mine) }
        if events.contains(where: { OwnPart.attendee($0, addresses: mine) != nil }) {
            return .attendee(organizer: organizer.value)
        }
        return .organizer(mine)
    }

    /// `result` as an organizer's change must go: SEQUENCE past what the attendees were sent,
    /// their answers asked again when it moves the meeting; unchanged for anyone else.
    public func announcing(_ result: SpanEditResult, before: Component, newSeriesMoved: Bool = false) -> SpanEditResult
    {
        guard case .organizer(let addresses) = self else { return result }
        let change = OrganizerChange(before: before, organizer: addresses)
        return SpanEditResult(
            resource: result.resource.map { change.announced($0) },
            newSeries: result.newSeries.map { change.announced($0, newSeriesMoved: newSeriesMoved) })
    }

    /// What a change of the meeting by the person sends: an update (organizer), a reply
    /// (attendee, who only declines by deleting), nothing for a plain event.
    public func message(deleting: Bool) -> SchedulingReport.Message? {
        switch self {
        case .none: nil
        case .organizer: deleting ? .cancellation : .update
        case .attendee: deleting ? .reply : nil
        }
    }

    /// Throws the words of an ``AttendeeChange/Refusal`` when the person attends and `fields` (the
    /// organizer's) are not empty.
    public func refuse(_ fields: [String], uid: String) throws {
        guard case .attendee(let organizer) = self, !fields.isEmpty else { return }
        let refusal = AttendeeChange.Refusal(uid: uid, organizer: organizer, organizersFields: fields)
        throw EventCommandError(refusal.description, recovery: refusal.recovery)
    }
}

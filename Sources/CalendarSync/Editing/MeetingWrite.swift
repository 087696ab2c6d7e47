import ICalendar

/// What an `event` command's write of a meeting means, pure: whose action it is, what the
/// server is asked to send, what a failure leaves undelivered, and a new event made a meeting.
public enum MeetingWrite {
    /// The UIDs a person's edit of `calendar` acts on as their own (see
    /// ``SyncPolicy/personsActions``): a meeting's (it has an ORGANIZER), so a scheduling server
    /// sends its update, cancellation or reply; none for a plain event.
    public static func personsActions(_ calendar: Component, uid: String) -> Set<String> {
        calendar.components.contains { $0["ORGANIZER"] != nil } ? [uid] : []
    }

    /// What the write of a meeting asked the server to send, read from the version the
    /// server stored (the vdir holds it after the push); nil when it sends nothing. A deletion
    /// leaves no version: what the storage learnt on it (`deletion`) says what was sent.
    public static func scheduling(
        _ message: SchedulingReport.Message?, acting: Set<String>, pushed: Bool, pair: Pair, offline: Bool,
        stored: Component?, before: Component, uid: String, deletion: DeletionScheduling? = nil
    ) -> SchedulingReport? {
        guard let message, !acting.isEmpty else { return nil }
        // What the server said of itself when last asked (discover, init, an address looked
        // up): a server that does not schedule is asked nothing, and calgw does not say it was.
        let serverSchedules = pair.serverSchedules
        let reason: String? =
            !pair.schedules || serverSchedules == false
            ? SchedulingNote.unsent(pair: pair, serverSchedules: serverSchedules)
            : offline
                ? "--offline: the push that sends the change asks the server"
                : !pushed
                    ? "the change is not on the server yet; the push that sends it asks the server"
                    : serverSchedules == nil
                        ? "whether the server sends meeting messages is not known (it could not be asked); "
                            + "calgw discover on the pair's remote tells" : nil
        var recipients = SchedulingReport.recipients(
            of: message, in: stored ?? before, uid: uid, statuses: stored != nil)
        if stored == nil, let deletion {
            recipients = recipients.map { $0.deleted(deletion) }
        }
        return SchedulingReport(message: message, asked: reason == nil, reason: reason, recipients: recipients)
    }

    /// What a change the server failed on did not deliver, for the error that ends the command.
    public static func undelivered(
        _ message: SchedulingReport.Message?, in calendar: Component, uid: String, _ outcome: EventPush.Outcome
    ) -> String {
        let reason = outcome.pendingReason ?? "the server failed on it"
        guard message == .reply else {
            return "the change to \(uid) is saved in the vdir but not on the server: \(reason)"
        }
        let organizer =
            calendar.components.lazy.compactMap { $0["ORGANIZER"]?.value }.first
            .map(CalendarUser.normalized) ?? "the organizer"
        return "your answer was not delivered to \(organizer): \(reason); it is saved in the vdir"
    }

    /// `resource` as a meeting `organizer` organizes (and attends), inviting `attendees`.
    public static func meeting(_ resource: Component, organizer: String, attendees: [String]) -> Component {
        var result = resource
        for i in result.components.indices where result.components[i].name == "VEVENT" {
            result.components[i].properties.append(Property(name: "ORGANIZER", value: organizer))
            result.components[i].properties.append(
                Property(
                    name: "ATTENDEE",
                    parameters: [
                        Parameter(name: "ROLE", values: ["CHAIR"]), Parameter(name: "PARTSTAT", values: ["ACCEPTED"]),
                    ], value: organizer))
            // Each person once, the organizer not again (they attend already).
            for invitee in Invitee.distinct(attendees.compactMap(Invitee.init(parsing:)), organizer: organizer) {
                result.components[i].properties.append(invitee.attendee)
            }
        }
        return result
    }
}

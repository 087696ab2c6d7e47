import ICalendar

/// RFC 5546's processing of a message by the person it reached, on the vdir's copy of the
/// meeting. Mail is not authenticated (RFC 6047 §3, §6), so, as established iTIP
/// implementations do, a message may change only what its sender may: a REPLY only the
/// answer of the attendee who sent it, and only of one invited; a REQUEST or CANCEL only a
/// meeting held from the same organizer. Pure.
extension ITipMessage {
    /// `copy` (the VCALENDAR holding the vdir's copy of the meeting; nil when no pair holds it)
    /// as this message leaves it.
    /// - Parameters:
    ///   - sender: who the mail says sent it; nil for a bare object (no sender to check).
    ///   - own: the person's calendar addresses, normalised.
    ///   - takesLarge: take an invitation held for its size (``outOfProportion``).
    public func apply(to copy: Component?, sender: ITipSender?, own: Set<String>, takesLarge: Bool = false)
        -> ITipOutcome
    {
        if [.request, .publish].contains(method), !takesLarge, let why = outOfProportion {
            return .refused("held, since \(why): nothing written; calgw itip --take-large takes it")
        }
        let outcome = applying(to: copy, sender: sender, own: own)
        switch outcome {
        case .added(let made), .updated(let made):
            if let why = Self.invalidity(of: made) { return .refused(why) }
            return outcome
        default: return outcome
        }
    }

    private func applying(to copy: Component?, sender: ITipSender?, own: Set<String>) -> ITipOutcome {
        switch method {
        case .request, .publish: request(copy, sender: sender, own: own)
        case .cancel: cancel(copy, sender: sender, own: own)
        case .reply: reply(copy, sender: sender, own: own)
        case .counter: counter(copy, sender: sender, own: own)
        case .declineCounter: declineCounter(copy, sender: sender, own: own)
        case .add, .refresh:
            .unchanged("calgw does not act on \(method.rawValue) messages: answer it from your mail program")
        }
    }

    /// A proposal of another time: checked as an answer is (from the one invited attendee it
    /// names, to a meeting the person organizes), then said, with the command that takes it.
    private func counter(_ copy: Component?, sender: ITipSender?, own: Set<String>) -> ITipOutcome {
        guard let copy else { return .unchanged("no pair holds \(uid): a proposal for a meeting you do not hold") }
        let attendee: String
        switch answeringAttendee(copy, sender: sender, own: own) {
        case .success(let named): attendee = named
        case .failure(let refusal): return refusal.outcome
        }
        let counter = ITipCounter(message: self, copy: copy)
        return .proposed(
            counter.proposal(from: attendee, zone: InvitationView.readerZone), taking: counter.takingCommand())
    }

    /// The organizer's refusal of the person's proposal: nothing changes; said when it comes
    /// from the meeting's organizer.
    private func declineCounter(_ copy: Component?, sender: ITipSender?, own: Set<String>) -> ITipOutcome {
        guard let copy else { return .unchanged("no pair holds \(uid): nothing was proposed for it") }
        if let refusal = otherOrganizer(copy, own: own) ?? notFromOrganizer(copy, sender: sender) { return refusal }
        let counter = ITipCounter(message: self, copy: copy)
        return .unchanged(counter.refusal(from: organizer ?? "the organizer", zone: InvitationView.readerZone))
    }

    private func request(_ copy: Component?, sender: ITipSender?, own: Set<String>) -> ITipOutcome {
        if let organizer, own.contains(organizer) {
            return .refused("it is from you (\(organizer)): a meeting you organize changes by your own edits")
        }
        guard let copy else {
            let invited = events.contains { OwnPart.attendee($0, addresses: own) != nil }
            guard invited || (method == .publish && events.allSatisfy({ $0["ATTENDEE"] == nil })) else {
                return .refused(
                    "it names none of your addresses (\(own.sorted().joined(separator: ", "))): give yours in the pair's "
                        + "addresses, or with --address")
            }
            return .added(Self.copy(of: calendar))
        }
        if let refusal = otherOrganizer(copy, own: own) ?? notFromOrganizer(copy, sender: sender) { return refusal }
        if let single = occurrenceOfNoSeries(copy) { return single }
        guard let message = OrganizerMessage(requestOrCancel(.request)) else {
            return .refused("it names no ORGANIZER")
        }
        switch message.apply(to: copy, own: own) {
        case .applied(let updated): return .updated(updated)
        case .stale: return .unchanged("the copy is as new as this message, or newer (SEQUENCE, then DTSTAMP)")
        case .notApplicable: return .refused("it is not from the meeting's organizer")
        }
    }

    private func cancel(_ copy: Component?, sender: ITipSender?, own: Set<String>) -> ITipOutcome {
        guard let copy else { return .unchanged("no pair holds \(uid): nothing to cancel") }
        if let refusal = otherOrganizer(copy, own: own) ?? notFromOrganizer(copy, sender: sender) { return refusal }
        if let single = occurrenceOfNoSeries(copy) { return single }
        guard let message = OrganizerMessage(calendar) else { return .refused("it names no ORGANIZER") }
        switch message.apply(to: copy, own: own) {
        case .applied(let cancelled): return .cancelled(cancelled)
        case .stale: return .unchanged("the copy is cancelled already, or newer than this cancellation")
        case .notApplicable: return .refused("it is not from the meeting's organizer")
        }
    }

    private func reply(_ copy: Component?, sender: ITipSender?, own: Set<String>) -> ITipOutcome {
        guard let copy else { return .unchanged("no pair holds \(uid): an answer to a meeting you do not hold") }
        if case .failure(let refusal) = answeringAttendee(copy, sender: sender, own: own) { return refusal.outcome }
        guard let answer = AttendeeReply(calendar) else { return .refused("it is no REPLY of one meeting") }
        switch answer.apply(to: copy, own: own) {
        case .applied(let answered): return .answerRecorded(answered)
        case .stale: return .unchanged("the copy holds this answer already, or a newer version of the meeting")
        case .notApplicable:
            return .unchanged("the copy holds no occurrence \(recurrenceID ?? "") to record the answer in")
        }
    }

    /// Why a message may not speak for an attendee, as an error for `Result`.
    private struct Refusal: Error { var outcome: ITipOutcome }

    /// The one attendee a REPLY or COUNTER speaks for, when it may: to a meeting the person
    /// organizes, naming exactly one attendee who is invited, in a mail from that attendee
    /// alone.
    private func answeringAttendee(_ copy: Component, sender: ITipSender?, own: Set<String>) -> Result<
        String, Refusal
    > {
        let mine = copy.components.filter { $0["UID"]?.text == uid }
        guard mine.contains(where: { OwnPart.organizes($0, addresses: own) }) else {
            return .failure(Refusal(outcome: .refused("you do not organize \(uid): an answer goes to its organizer")))
        }
        let answering = Set(
            events.flatMap { $0.properties(named: "ATTENDEE") }.map { CalendarUser.normalized($0.value) })
        guard let attendee = answering.first, answering.count == 1 else {
            return .failure(
                Refusal(
                    outcome: .refused(
                        "a \(method.rawValue) speaks for exactly one attendee; this one names \(answering.count)")))
        }
        if let sender, sender.from.count != 1 || !sender.includes(attendee) {
            return .failure(
                Refusal(outcome: .refused("the mail comes from \(sender.named) but answers for \(attendee)")))
        }
        let invited = mine.contains { event in
            event.properties(named: "ATTENDEE").contains { CalendarUser.normalized($0.value) == attendee }
        }
        guard invited else { return .failure(Refusal(outcome: .refused("\(attendee) is not invited to \(uid)"))) }
        return .success(attendee)
    }

    /// A refusal when the copy is the person's own meeting or one from another organizer.
    private func otherOrganizer(_ copy: Component, own: Set<String>) -> ITipOutcome? {
        let held = copy.components.filter { $0["UID"]?.text == uid }
        guard let holder = held.lazy.compactMap({ $0["ORGANIZER"]?.value }).first.map(CalendarUser.normalized) else {
            return .refused("you hold \(uid) as an event without an organizer: a message cannot make it a meeting")
        }
        if own.contains(holder) {
            return .refused("you organize \(uid): a \(method.rawValue) by mail cannot change it")
        }
        if let organizer, organizer != holder {
            return .refused("you hold \(uid) from \(holder); this message is from \(organizer)")
        }
        return nil
    }

    /// Nothing to do when the message speaks only of occurrences (RECURRENCE-ID) and the copy
    /// holds the UID as one event that does not recur (Thunderbird's test mails reuse one UID
    /// for a single event and a series): no occurrence of it is the one meant.
    private func occurrenceOfNoSeries(_ copy: Component) -> ITipOutcome? {
        guard !events.isEmpty, events.allSatisfy({ $0["RECURRENCE-ID"] != nil }) else { return nil }
        let held = copy.components.filter { $0["UID"]?.text == uid }
        guard let master = held.first(where: { $0["RECURRENCE-ID"] == nil }), master["RRULE"] == nil,
            master["RDATE"] == nil, !held.contains(where: { $0["RECURRENCE-ID"] != nil })
        else { return nil }
        return .unchanged(
            "you hold \(uid) as one event, not a series: a message about one of its occurrences does not apply")
    }

    /// A refusal when a mail that would change a held meeting comes from neither its ORGANIZER
    /// nor that ORGANIZER's SENT-BY (From or Sender): anyone can write an ORGANIZER line.
    private func notFromOrganizer(_ copy: Component, sender: ITipSender?) -> ITipOutcome? {
        guard let sender else { return nil }
        let organizers = copy.components.filter { $0["UID"]?.text == uid }.compactMap { $0["ORGANIZER"] }
        let allowed = Set(
            organizers.flatMap { line in
                [CalendarUser.normalized(line.value)]
                    + (line[parameter: "SENT-BY"].map { [CalendarUser.normalized($0)] } ?? [])
            })
        guard !allowed.contains(where: sender.includes) else { return nil }
        return .refused(
            "the mail comes from \(sender.named), not from the meeting's organizer "
                + "(\(allowed.sorted().joined(separator: " or "))): only the organizer changes a meeting you hold")
    }

    /// The message as OrganizerMessage reads it: PUBLISH is applied as a REQUEST.
    private func requestOrCancel(_ method: OrganizerMessage.Method) -> Component {
        var calendar = calendar
        calendar.set(Property(name: "METHOD", value: method.rawValue))
        return calendar
    }

    /// The copy a new invitation makes: the message without its METHOD, its delivery marks off.
    static func copy(of message: Component) -> Component {
        var copy = message
        copy.properties.removeAll { $0.name == "METHOD" }
        for c in copy.components.indices where ["VEVENT", "VTODO"].contains(copy.components[c].name) {
            for p in copy.components[c].properties.indices
            where ["ATTENDEE", "ORGANIZER"].contains(copy.components[c].properties[p].name) {
                copy.components[c].properties[p].setParameter("SCHEDULE-STATUS", nil)
            }
        }
        return copy
    }
}

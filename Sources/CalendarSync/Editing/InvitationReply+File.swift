import ICalendar

extension InvitationReply {
    /// What answering `uid` in `file` comes to: the calendar with the person's answer, the
    /// index of the event answered (the occurrence's exception, made from the series when it
    /// has none; else the series, or the one event), and the addresses taken as the person's.
    public struct Answered {
        public var calendar: Component
        public var index: Int
        public var own: OwnAddresses
    }

    /// `answer` (with `comment`) to `uid` in `file` of `pair`, or to its `occurrence` (an
    /// original start, read in `zone`): the person is found by `given` addresses and the
    /// pair's; when none of the cached ones is invited, the account is asked again (not
    /// `offline`), since it may have gained one.
    /// - Throws: ``Refusal`` (not invited, an address that does not read), what finding the
    ///   occurrence throws, ``EventCommandError`` when the file holds no event of `uid`.
    public static func answering(
        _ answer: Answer, comment: String?, uid: String, occurrence: String?, in file: EventFile, zone: String?,
        given: [String], pair: Pair, offline: Bool, now: DateTimeValue
    ) async throws -> Answered {
        var resource = file.calendar
        let index: Int
        if let occurrence {
            (resource, index) = try SeriesEdit.occurrence(occurrence, of: file, uid: uid, zone: zone)
        } else {
            guard
                let master = resource.components.firstIndex(where: {
                    ["VEVENT", "VTODO"].contains($0.name) && $0["UID"]?.text == uid && $0["RECURRENCE-ID"] == nil
                }) ?? resource.components.firstIndex(where: { $0["UID"]?.text == uid })
            else { throw EventCommandError("\(uid) holds no event to answer") }
            index = master
        }
        var own = try await OwnAddresses.resolve(given: given, pair: pair, offline: offline)
        func answered(as own: OwnAddresses) throws -> Component {
            try InvitationReply(answer: answer, addresses: own.addresses, comment: comment, now: now)
                .applied(to: resource, at: index, uid: uid)
        }
        do {
            return Answered(calendar: try answered(as: own), index: index, own: own)
        } catch Refusal.notInvited where own.cached && !offline {
            own = try await OwnAddresses.resolve(given: [], pair: pair, offline: false, refresh: true)
            return Answered(calendar: try answered(as: own), index: index, own: own)
        }
    }
}

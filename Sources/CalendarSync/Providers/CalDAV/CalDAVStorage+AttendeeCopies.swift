import CalDAV
import Foundation
import ICalendar

extension CalDAVStorage {
    /// `data` as a copy is stored on a server that keeps the marks calgw puts on copies
    /// (DAViCal: see ``StorageCapabilities/marksCopiesClientScheduled``): in a meeting the
    /// account attends, only the ORGANIZER keeps `SCHEDULE-AGENT=CLIENT`. RFC 6638 §7.1 has
    /// the server reply to the organizer by that one mark alone, and DAViCal delivers nothing
    /// more to an attendee whose own ATTENDEE line in his copy says the client schedules: the
    /// organizer's later cancellation would never reach him. The account's addresses are asked
    /// once per run, and only when such a copy is written; data without the marks, or whose
    /// organizer is the account (or unknown), goes as it is.
    ///
    /// The account's own ATTENDEE line names it with its domain spelled in another letter case
    /// (``UploadForm/withOwnAttendeeRespelled(_:addresses:)``): DAViCal then sends no reply for
    /// the copy, where its reply code would fail the write with an Inbox made by its admin screen.
    func storedCopyForm(_ data: Data, as intent: WriteIntent) async -> Data {
        guard intent == .copy, copiesNeedClientAgent,
            let organizer = UploadForm.organizerOfMeetingWithMarkedAttendees(data)
        else { return data }
        let own = await accountAddresses.get {
            ((try? await self.client.schedulingAccount(at: self.collection).addresses) ?? []).map(
                CalendarUser.normalized)
        }
        guard !own.isEmpty, !own.contains(CalendarUser.normalized(organizer)) else { return data }
        return UploadForm.withOwnAttendeeRespelled(UploadForm.withoutAttendeeMarks(data), addresses: Set(own))
    }

    /// `data`, a copy of a meeting to be written to DAViCal, with the account's own ATTENDEE
    /// line spelled so that DAViCal sends no reply for it
    /// (``UploadForm/withOwnAttendeeRespelled(_:addresses:)``), when the account attends the
    /// meeting; a meeting it organizes (or whose organizer is unknown) goes as it is.
    func attendeeCopyForm(_ data: Data) async -> Data {
        guard copiesNeedClientAgent, let organizer = UploadForm.organizer(of: data) else { return data }
        let own = await accountAddresses.get {
            ((try? await self.client.schedulingAccount(at: self.collection).addresses) ?? []).map(
                CalendarUser.normalized)
        }
        guard !own.isEmpty, !own.contains(CalendarUser.normalized(organizer)) else { return data }
        return UploadForm.withOwnAttendeeRespelled(data, addresses: Set(own))
    }
}

/// The account's calendar addresses, asked of the server at most once (see
/// ``CalDAVStorage/storedCopyForm(_:as:)``).
actor AccountAddresses {
    private var addresses: [String]?

    /// The addresses, asked by `fetch` the first time.
    func get(_ fetch: @Sendable () async -> [String]) async -> [String] {
        if let addresses { return addresses }
        let fetched = await fetch()
        addresses = fetched
        return fetched
    }
}

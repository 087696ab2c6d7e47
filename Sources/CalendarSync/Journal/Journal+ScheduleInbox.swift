import Foundation

extension Journal {
    static let scheduleInboxName = "scheduleInbox"

    /// Where the account's schedule Inbox stood when a run last read it; nil when no run did
    /// (or the server needs no such look).
    func scheduleInboxMark() throws -> ScheduleInboxMark? {
        try metaValue(ScheduleInboxMark.self, named: Self.scheduleInboxName)
    }

    func setScheduleInboxMark(_ mark: ScheduleInboxMark?) throws {
        try setMetaValue(mark, named: Self.scheduleInboxName)
    }
}

import Foundation

/// A calendar on the server that a run would make (MKCALENDAR) for a new folder: empty. A dry
/// run or `status` plans the folder's upload against it, so that the preview counts what the
/// run would create; it makes nothing, and refuses every write.
struct UnmadeCalendar: CalendarStorage {
    /// Where the calendar would be made, for the refusal's message.
    var href: String

    func changes(since token: ChangeToken?) async throws -> StorageChanges { .full([], token: nil) }

    func fetch(_ hrefs: [ItemHref], for intent: WriteIntent) async throws -> [StoredItem] { [] }

    func create(_ data: Data, suggestedName: String, as intent: WriteIntent) async throws -> ItemVersion {
        throw refusal
    }

    func update(href: ItemHref, data: Data, ifMatch etag: ItemETag, as intent: WriteIntent) async throws -> ItemVersion
    { throw refusal }

    func delete(href: ItemHref, ifMatch etag: ItemETag, as intent: WriteIntent) async throws { throw refusal }

    private var refusal: SyncError {
        SyncError(.unsupported, "the calendar \(href) is not made yet: a preview writes nothing")
    }
}

import CalDAV
import Foundation

extension DiscoveredCalendar {
    /// The calendar `collection` a CalDAV listing described, with its change tokens.
    init(_ collection: CalendarCollection) {
        self.init(
            url: collection.url, displayName: collection.displayName, color: collection.color,
            components: collection.components, writable: collection.writable)
        href = collection.href.path
        ctag = collection.ctag
        syncToken = collection.syncToken?.value
    }
}

/// A calendar of an account and the folder (a subfolder of the pair's local side) it syncs with.
public struct AccountCalendar: Equatable, Sendable {
    /// The folder's name.
    public var folder: String
    /// The calendar on the server.
    public var calendar: DiscoveredCalendar
}

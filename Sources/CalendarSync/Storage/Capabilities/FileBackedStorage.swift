import Foundation

/// A storage whose items are files a person may edit by hand (a vdir): the scan names a
/// broken one by its path and line, and reports name files by their paths.
public protocol FileBackedStorage: CalendarStorage {
    /// The folder holding the items.
    var folderPath: String { get }
    /// The path of the file behind `href`.
    func path(of href: ItemHref) -> String
}

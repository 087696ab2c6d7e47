import VDir

extension PairCalendar {
    /// The calendar's event files, as the `event` commands find, replace, create and delete
    /// them in its vdir (each write atomic and conditional on the file's signature).
    public var eventFiles: EventFiles { EventFiles(directory: VDirectory(url: folder)) }

    /// ``eventFiles``, found by UID through an index of UIDs kept in `cache` (none without).
    public func eventFiles(cache: ListingCache?) -> EventFiles {
        EventFiles(directory: VDirectory(url: folder), cache: cache)
    }
}

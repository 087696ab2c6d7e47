import VDir

extension PairCalendar {
    /// The calendar's event files, as the `event` commands find, replace, create and delete
    /// them in its vdir (each write atomic and conditional on the file's signature).
    public var eventFiles: EventFiles { EventFiles(directory: VDirectory(url: folder)) }
}

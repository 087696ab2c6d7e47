/// A failure of a system call on a file, which callers can tell apart by its number without
/// reading the message (a full disk, a read-only folder).
public protocol FileSystemFailure: Error {
    /// The system call's error number, when a system call failed.
    var systemErrorNumber: Int32? { get }
    /// The file or folder the failed call was about.
    var failedPath: String? { get }
}

extension VDirError: FileSystemFailure {
    /// The system call's error number, for `io`.
    public var systemErrorNumber: Int32? { errno }
    /// The file the failed call was about, for `io`.
    public var failedPath: String? { path }
}

extension AtomicFileError: FileSystemFailure {
    /// The system call's error number.
    public var systemErrorNumber: Int32? { code }
    /// The file (or folder) the failed call was about.
    public var failedPath: String? { path }
}

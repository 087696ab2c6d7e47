import Foundation

/// Why a file could not be read, in a few words for people (`no such file`, `permission
/// denied`, `is a directory`) rather than Foundation's error record: what `lint`, `expand`,
/// `list` and `alarms` say of a file they cannot read.
public enum ReadFailure {
    /// The words for `error`, met reading the file at `path`.
    public static func words(_ error: any Error, path: String) -> String {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            return "is a directory"
        }
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        let posix = underlying?.domain == NSPOSIXErrorDomain ? underlying?.code : nil
        switch (error as? CocoaError)?.code {
        case .fileReadNoSuchFile?, .fileNoSuchFile?: return "no such file"
        case .fileReadNoPermission?: return "permission denied"
        default: break
        }
        if let posix, let code = POSIXErrorCode(rawValue: Int32(posix)) {
            switch code {
            case .ENOENT: return "no such file"
            case .EACCES: return "permission denied"
            case .EISDIR: return "is a directory"
            default: return String(cString: strerror(code.rawValue)).lowercased()
            }
        }
        return "cannot read the file: \(error.localizedDescription)"
    }
}

import CalendarSync
import Foundation
import VDir

extension TemporaryFolder {
    /// Two empty vdirs in the folder, `local` and `remote`: a pair whose remote is a folder, for
    /// the engine tests that need real files (interruptions, takeovers, races with editors).
    public func vdirPair() throws -> (local: VDirStorage, remote: VDirStorage) {
        let local = VDirStorage(url: file("local")), remote = VDirStorage(url: file("remote"))
        try local.directory.createIfMissing()
        try remote.directory.createIfMissing()
        return (local, remote)
    }
}

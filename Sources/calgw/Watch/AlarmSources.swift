#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import Foundation
import ICalendar
import Recurrence

/// The alarms of the watched pairs' files, kept between looks: a file is read again only when
/// its stat signature changed (device, inode, size, modification and change times, so an edit
/// with its mtime put back still counts), and only files mentioning VALARM are parsed and
/// kept. After every sync and file change `watch` looks again at a stat of each file.
final class AlarmSources {
    /// What identifies one version of a file.
    struct Signature: Equatable {
        var device: UInt64, inode: UInt64, size: Int64
        var modified: Int64, changed: Int64
    }

    private var files: [String: (signature: Signature, alarms: CalendarAlarms?)] = [:]
    /// The files that failed to read, with the signature they failed at (said once each).
    private var failed: [String: Signature] = [:]

    /// Looks at `urls` again: reads the new and changed files, forgets those gone.
    /// - Returns: the files that could not be read or parsed, with why; each problem once,
    ///   until the file changes.
    func update(_ urls: [URL]) -> [(file: String, message: String)] {
        var problems: [(String, String)] = []
        var seen = Set<String>()
        for url in urls {
            let path = url.path
            seen.insert(path)
            guard let signature = Self.signature(path) else { continue }
            if files[path]?.signature == signature || failed[path] == signature { continue }
            do {
                files[path] = (signature, try AlarmFile.read(url))
                failed[path] = nil
            } catch {
                files[path] = nil
                failed[path] = signature
                problems.append((path, AlarmFile.problem(error, path: path)))
            }
        }
        for path in files.keys where !seen.contains(path) { files[path] = nil }
        for path in failed.keys where !seen.contains(path) { failed[path] = nil }
        return problems
    }

    /// Every alarm instant of the files in [from, to), floating times read in `zone`, sorted
    /// by trigger.
    func alarms(from: Int64, to: Int64, zone: any ZoneRules) -> [AlarmInstant] {
        var all: [AlarmInstant] = []
        for (_, entry) in files {
            if let alarms = entry.alarms { all += alarms.alarms(from: from, to: to, floatingZone: zone) }
        }
        return all.sorted(by: AlarmInstant.precedes)
    }

    static func signature(_ path: String) -> Signature? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Signature(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
    }
}

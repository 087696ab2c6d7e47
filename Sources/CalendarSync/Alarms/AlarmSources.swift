import Foundation
import ICalendar
import Recurrence

/// The alarms of the watched pairs' files, kept between looks: a file is read again only when
/// its stamp changed (device, inode, size, modification and change times, so an edit with its
/// mtime put back still counts: ``FileStamp``), and only files mentioning VALARM are parsed and
/// kept. After every sync and file change `watch` looks again at a stat of each file.
public final class AlarmSources {
    private var files: [String: (stamp: FileStamp, alarms: CalendarAlarms?)] = [:]
    /// The files that failed to read, with the stamp they failed at (said once each).
    private var failed: [String: FileStamp] = [:]

    /// No file looked at yet.
    public init() {}

    /// Looks at `urls` again: reads the new and changed files, forgets those gone.
    /// - Returns: the files that could not be read or parsed, with why; each problem once,
    ///   until the file changes.
    public func update(_ urls: [URL]) -> [(file: String, message: String)] {
        var problems: [(String, String)] = []
        var seen = Set<String>()
        for url in urls {
            let path = url.path
            seen.insert(path)
            guard let stamp = FileStamp.of(path: path) else { continue }
            if files[path]?.stamp == stamp || failed[path] == stamp { continue }
            do {
                files[path] = (stamp, try AlarmFile.read(url))
                failed[path] = nil
            } catch {
                files[path] = nil
                failed[path] = stamp
                problems.append((path, AlarmFile.problem(error, path: path)))
            }
        }
        for path in files.keys where !seen.contains(path) { files[path] = nil }
        for path in failed.keys where !seen.contains(path) { failed[path] = nil }
        return problems
    }

    /// Every alarm instant of the files in [from, to), floating times read in `zone`, sorted
    /// by trigger.
    public func alarms(from: Int64, to: Int64, zone: any ZoneRules) -> [AlarmInstant] {
        var all: [AlarmInstant] = []
        for (_, entry) in files {
            if let alarms = entry.alarms { all += alarms.alarms(from: from, to: to, floatingZone: zone) }
        }
        return all.sorted(by: AlarmInstant.precedes)
    }
}

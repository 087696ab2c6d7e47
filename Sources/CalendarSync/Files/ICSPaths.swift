import Foundation
import VDir

/// The files `fmt` and `lint` take: each path given, and for a folder (a vdir, or a folder of
/// vdirs) every `.ics` file under it, in order, as a person means `calgw lint ~/calendars`.
public enum ICSPaths {
    /// `paths` with each folder replaced by the `.ics` files under it (sorted by path).
    public static func expanding(_ paths: [String]) -> [String] {
        paths.flatMap { path -> [String] in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue,
                let walker = FileManager.default.enumerator(atPath: path)
            else { return [path] }
            let base = path.hasSuffix("/") ? path : path + "/"
            return walker.compactMap { $0 as? String }.filter { $0.lowercased().hasSuffix(".ics") }.sorted().map {
                base + $0
            }
        }
    }
}

extension ICSPaths {
    /// Hands `body` the result of `work` on each of `paths`, in order, having run `work` on
    /// every core a batch at a time: a large folder is checked in a fraction of the time, and
    /// what is said of each file still comes out as it is done, in the order given.
    public static func forEachOnEveryCore<T: Sendable>(
        _ paths: [String], work: @Sendable (String) -> T, body: (String, T) throws -> Void
    ) rethrows {
        var start = 0
        while start < paths.count {
            let batch = Array(paths[start..<min(start + 512, paths.count)])
            for (path, result) in zip(batch, batch.mappedOnEveryCore(minimum: 2, work)) { try body(path, result) }
            start += batch.count
        }
    }
}

import Foundation

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

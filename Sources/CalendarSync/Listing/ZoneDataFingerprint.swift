import Crypto
import Foundation

/// What the occurrences of a calendar were computed with, beyond its own file: this build of
/// calgw and the time-zone data it reads. A listing index written under another fingerprint
/// is thrown away, so a new tzdata (a country dropping daylight saving time) or a new calgw
/// never shows times computed by the old one.
///
/// The zone rules of an IANA name come from Foundation, which reads ICU's data: built into
/// Foundation's ICU library (in the executable when it is linked statically), or the files
/// ICU loads over it (`zoneinfo64.res` and its companions in `$ICU_TIMEZONE_FILES_DIR` or
/// `/usr/share/icu/<version>`). On other systems Foundation reads the tz database
/// (`$TZDIR`, `/usr/share/zoneinfo`). The fingerprint is the stamp of each of these that
/// exists (device, inode, size, modification and change times), and the variables naming
/// them: nothing is read but `stat`s and one line per mapped library.
public struct ZoneDataFingerprint: Hashable, Sendable {
    /// SHA-256 of the description.
    public let digest: [UInt8]

    /// The fingerprint of this digest (a test's or a benchmark's own).
    public init(digest: [UInt8]) { self.digest = digest }

    /// The fingerprint of this process, with the variables of `environment`.
    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> ZoneDataFingerprint
    {
        var text = "format \(ListingIndex.formatVersion)\n"
        func add(_ label: String, _ path: String) {
            guard let s = stamp(path) else { return }
            text += "\(label) \(path) \(s.device) \(s.inode) \(s.size) \(s.modified) \(s.changed)\n"
        }
        add("exe", executablePath)
        for library in mappedLibraries() { add("lib", library) }
        let icuFiles = ["zoneinfo64.res", "timezoneTypes.res", "metaZones.res", "windowsZones.res", "icutz44l.dat"]
        var icuFolders = ["/usr/share/icu"]
        icuFolders += ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/share/icu")) ?? []).sorted().map {
            "/usr/share/icu/" + $0
        }
        for name in ["ICU_TIMEZONE_FILES_DIR", "ICU_DATA"] {
            guard let value = environment[name] else { continue }
            text += "env \(name)=\(value)\n"
            icuFolders.insert(value, at: 0)
        }
        for folder in icuFolders { for file in icuFiles { add("icu", folder + "/" + file) } }
        let tzdir = environment["TZDIR"] ?? "/usr/share/zoneinfo"
        text += "env TZDIR=\(environment["TZDIR"] ?? "")\n"
        add("tzdata", tzdir + "/tzdata.zi")
        add("tzdata", tzdir + "/+VERSION")
        return ZoneDataFingerprint(digest: Array(SHA256.hash(data: Data(text.utf8))))
    }

    /// The running executable (the link `/proc/self/exe` names on Linux).
    static var executablePath: String {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return target }
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    /// The shared libraries mapped into this process whose names say they carry Foundation or
    /// ICU (and so time-zone rules), from `/proc/self/maps`; none elsewhere.
    static func mappedLibraries() -> [String] {
        // Read to its end: a file of /proc says it is empty, and is read in pieces.
        guard let bytes = WholeFile.read("/proc/self/maps", sized: false) else { return [] }
        let maps = String(decoding: bytes, as: UTF8.self)
        var found = Set<String>()
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            let name = path.split(separator: "/").last.map(String.init) ?? ""
            if name.contains("Foundation") || name.lowercased().contains("icu") { found.insert(path) }
        }
        return found.sorted()
    }

    /// `stat` of `path`, a file or a folder; nil when nothing is there.
    static func stamp(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStamp(info)
    }
}

import Crypto
import Foundation
import VDir

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

    /// The fingerprint of this process, with the variables of `environment` (the process's own
    /// when nil).
    public static func current(environment: [String: String]? = nil) -> ZoneDataFingerprint {
        func variable(_ name: String) -> String? {
            guard let environment else { return ProcessEnvironment.value(name) }
            return environment[name]
        }
        var text = "format \(ListingIndex.formatVersion)\n"
        func add(_ label: String, _ path: String) {
            guard let s = stamp(path) else { return }
            text += "\(label) \(path) \(s.device) \(s.inode) \(s.size) \(s.modified) \(s.changed)\n"
        }
        add("exe", executablePath)
        for library in mappedLibraries() { add("lib", library) }
        let icuFiles = ["zoneinfo64.res", "timezoneTypes.res", "metaZones.res", "windowsZones.res", "icutz44l.dat"]
        var icuFolders = ["/usr/share/icu"]
        icuFolders += folderNames("/usr/share/icu").sorted().map { "/usr/share/icu/" + $0 }
        for name in ["ICU_TIMEZONE_FILES_DIR", "ICU_DATA"] {
            guard let value = variable(name) else { continue }
            text += "env \(name)=\(value)\n"
            icuFolders.insert(value, at: 0)
        }
        for folder in icuFolders { for file in icuFiles { add("icu", folder + "/" + file) } }
        let tzdir = variable("TZDIR") ?? "/usr/share/zoneinfo"
        text += "env TZDIR=\(variable("TZDIR") ?? "")\n"
        add("tzdata", tzdir + "/tzdata.zi")
        add("tzdata", tzdir + "/+VERSION")
        // Hashed from the string's own bytes, and the digest's bytes copied as bytes: `Data` of
        // a UTF-8 view and an `Array` of a digest each looked for a conformance at run time.
        let digest = text.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
        return ZoneDataFingerprint(digest: digest.withUnsafeBytes { Array($0) })
    }

    /// The running executable (the link `/proc/self/exe` names on Linux).
    static var executablePath: String {
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &target, target.count - 1)
        if length > 0 { return String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    /// The shared libraries mapped into this process whose names say they carry Foundation or
    /// ICU (and so time-zone rules), from `/proc/self/maps`; none elsewhere. Every command
    /// that keeps an index asks this at its start, so a line is cut as bytes, and only its
    /// file's name made a string.
    static func mappedLibraries() -> [String] {
        // Read to its end: a file of /proc says it is empty, and is read in pieces.
        guard let bytes = WholeFile.read("/proc/self/maps", sized: false) else { return [] }
        var found = Set<String>()
        var lineStart = 0
        while lineStart < bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            defer { lineStart = lineEnd + 1 }
            guard let slash = bytes[lineStart..<lineEnd].firstIndex(of: UInt8(ascii: "/")) else { continue }
            let nameStart = (bytes[slash..<lineEnd].lastIndex(of: UInt8(ascii: "/")) ?? slash) + 1
            if carriesZoneRules(bytes[nameStart..<lineEnd]) {
                found.insert(String(decoding: bytes[slash..<lineEnd], as: UTF8.self))
            }
        }
        return found.sorted()
    }

    /// Whether a library's file name says it carries Foundation or ICU: it holds "Foundation",
    /// or "icu" in any case. (Compared as bytes: a static build maps a hundred lines.)
    static func carriesZoneRules(_ name: ArraySlice<UInt8>) -> Bool {
        func holds(_ word: StaticString, foldingCase: Bool) -> Bool {
            let count = word.utf8CodeUnitCount
            guard name.count >= count else { return false }
            return word.withUTF8Buffer { word in
                (name.startIndex...(name.endIndex - count)).contains { start in
                    (0..<count).allSatisfy { k in
                        let byte = name[start + k]
                        return (foldingCase && byte >= 65 && byte <= 90 ? byte | 0x20 : byte) == word[k]
                    }
                }
            }
        }
        return holds("Foundation", foldingCase: false) || holds("icu", foldingCase: true)
    }

    /// The names in the folder at `path` ("." and ".." left out); none when it cannot be read.
    static func folderNames(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        FolderEntries.forEach(in: dir) { name, _ in names.append(String(decoding: name, as: UTF8.self)) }
        return names
    }

    /// `stat` of `path`, a file or a folder; nil when nothing is there.
    static func stamp(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStamp(info)
    }
}

import Foundation

/// What a meeting is, in one place: a calendar object that names an attendee, someone a
/// server's scheduling could tell of a write. The engine (an item held back, a deletion nobody
/// was told of) and the storages (a copy a server would mail) all ask here.
public enum MeetingContent {
    /// Whether `data`, a calendar object's bytes, names an ATTENDEE: a content line whose name
    /// is `ATTENDEE` in any letter case, followed by its parameters or value. Read from the
    /// bytes without parsing them, so it costs a scan, and text that merely mentions the word
    /// (a description, another property's value) does not count.
    public static func isMeeting(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let name = Array("ATTENDEE".utf8)
            var start = 0
            while start + name.count < bytes.count {
                if startsWith(name, in: bytes, at: start) {
                    let next = bytes[start + name.count]
                    if next == UInt8(ascii: ":") || next == UInt8(ascii: ";") { return true }
                }
                // The next line (a folded line's continuation starts with a space and is skipped).
                guard let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else { return false }
                start = newline + 1
            }
            return false
        }
    }

    /// Whether the bytes at `offset` are `name`, letters compared in any case.
    private static func startsWith(_ name: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        for k in 0..<name.count where bytes[offset + k] & 0xDF != name[k] { return false }
        return true
    }
}

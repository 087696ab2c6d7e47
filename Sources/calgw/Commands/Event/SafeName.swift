import Foundation

/// Names made from an event's UID for files outside the vdir.
enum SafeName {
    /// A temporary file name that shows the event in the editor's title.
    static func forTemporaryFile(_ uid: String) -> String {
        let kept = uid.unicodeScalars.prefix(40).map { CharacterSet.alphanumerics.contains($0) ? Character($0) : "_" }
        return "calgw-" + String(kept) + ".ics"
    }
}

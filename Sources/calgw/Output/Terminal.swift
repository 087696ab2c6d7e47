import Foundation
import CalendarSync

/// Writing to stdout and stderr, and whether to use colour (only on a TTY, never with NO_COLOR).
enum Terminal {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func err(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static var stderrIsTTY: Bool { isatty(2) == 1 }
    static var stdoutIsTTY: Bool { isatty(1) == 1 }

    static var colorOnStderr: Bool {
        stderrIsTTY && ProcessEnvironment.value("NO_COLOR") == nil
    }

    /// `error: message` and `hint: …` on stderr, red when colour is on.
    static func reportError(_ message: String, hint: String? = nil) {
        let label = colorOnStderr ? "\u{1B}[31merror:\u{1B}[0m" : "error:"
        err("\(label) \(message)")
        if let hint { err("hint: \(hint)") }
    }

    /// Encodes a value as pretty, key-sorted JSON on stdout.
    static func printJSON<T: Encodable>(_ value: T) throws {
        out(String(decoding: try CommandJSON.encode(value), as: UTF8.self))
    }
}

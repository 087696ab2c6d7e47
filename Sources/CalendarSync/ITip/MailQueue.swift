import Foundation
import VDir

/// The meeting messages a pair's `mail_command` did not take, kept until it does: one file
/// per message (the whole mail, as it was to be sent) in a folder beside the pair's journal
/// (`NAME.mail/`). A message is written there before the command that failed returns, so it
/// is never lost with the command's failure; the pair's next run mails each again (``resend()``)
/// and removes it once the command takes it, and `status` lists them (``kept()``).
public struct MailQueue: Sendable {
    /// The folder holding the kept messages.
    public let folder: URL

    /// The queue of `pair`.
    public init(pair: Pair) {
        folder = pair.journal.deletingPathExtension().appendingPathExtension("mail")
    }

    /// One kept message: its file, and what its headers say it is.
    public struct Kept: Sendable {
        /// The file holding the message.
        public var file: URL
        /// Its `To:` header.
        public var to: String
        /// Its `Subject:` header.
        public var subject: String

        /// "Invitation: Weekly sync, to bob@example.net".
        public var description: String { "\(subject), to \(to)" }
    }

    /// Keeps `message` (written whole, then renamed into place) for a later run to mail.
    /// - Throws: when the folder or the file cannot be written.
    @discardableResult
    public func keep(_ message: Data) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let stamp = Int(Date().timeIntervalSince1970)
        let file = folder.appendingPathComponent("\(stamp)-\(UUID().uuidString.prefix(8).lowercased()).eml")
        try AtomicFile.write([UInt8](message), to: file)
        return file
    }

    /// The messages waiting, oldest first.
    public func kept() -> [Kept] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".eml") }.sorted().map { name in
            let file = folder.appendingPathComponent(name)
            let head = (try? Data(contentsOf: file)).map { String(decoding: $0.prefix(8192), as: UTF8.self) } ?? ""
            return Kept(file: file, to: Self.header("To", in: head), subject: Self.header("Subject", in: head))
        }
    }

    /// Mails each kept message again through `command`, removing those it takes: a line for
    /// each, for the run's report ("mailed …", or why it still waits).
    public func resend(with command: MailCommand) -> [String] {
        kept().map { message in
            do {
                try command.send(try Data(contentsOf: message.file))
                try? FileManager.default.removeItem(at: message.file)
                return "mailed, at last: \(message.description)"
            } catch {
                return "still not mailed (kept for the next run): \(message.description): \(error)"
            }
        }
    }

    /// What `status` says of the messages waiting: one line each; none when none waits.
    public var statusLines: [String] {
        kept().map { "waiting to be mailed (mail_command failed): \($0.description)" }
    }

    /// The value of the header `name` in a message's head, unfolded; empty when absent.
    static func header(_ name: String, in head: String) -> String {
        let lines = head.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.lowercased().hasPrefix(name.lowercased() + ":") }) else {
            return ""
        }
        var value = String(lines[start].dropFirst(name.count + 1))
        for line in lines[(start + 1)...] {
            guard line.hasPrefix(" ") || line.hasPrefix("\t") else { break }
            value += " " + line.trimmingCharacters(in: .whitespaces)
        }
        return value.trimmingCharacters(in: .whitespaces)
    }
}

import Foundation

/// The sendmail-compatible command a pair mails with (`mail_command`: msmtp -t, sendmail -t, a
/// script): the whole message on its standard input, the recipients read from its headers, as
/// mutt and git send-email hand mail to one.
public struct MailCommand: Sendable {
    /// The program and its arguments.
    public var argv: [String]

    public init(_ argv: [String]) { self.argv = argv }

    /// Why a message was not handed over.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Runs the command with `message` on its standard input and waits for it to end.
    /// - Throws: ``Failure`` when it cannot be started or exits with a failure, with what it
    ///   wrote to its standard error.
    public func send(_ message: Data) throws {
        guard let program = argv.first else { throw Failure(description: "mail_command is empty") }
        let process = Process()
        process.executableURL = URL(
            fileURLWithPath: program.contains("/") ? program : "/usr/bin/env")
        process.arguments = program.contains("/") ? Array(argv.dropFirst()) : argv
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        do { try process.run() } catch {
            throw Failure(description: "mail_command \(program) could not be started: \(error.localizedDescription)")
        }
        // A command that ends without reading its input (one that fails at once) closes the
        // pipe: writing to it must fail with EPIPE, not end calgw with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        // Written from another thread: a command that reads slowly must not block its own
        // standard error from being drained.
        let writer = Thread {
            try? input.fileHandleForWriting.write(contentsOf: message)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let text = String(decoding: said.prefix(2000), as: UTF8.self).trimmingCharacters(
                in: .whitespacesAndNewlines)
            throw Failure(
                description: "mail_command \(program) failed (exit \(process.terminationStatus))"
                    + (text.isEmpty ? "" : ": \(text)"))
        }
    }
}

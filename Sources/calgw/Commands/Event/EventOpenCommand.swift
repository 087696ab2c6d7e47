import ArgumentParser
import CalendarSync
import Foundation
import ICalendar
import Recurrence

/// `calgw event open`: edit an event's iCalendar text in `$VISUAL` / `$EDITOR`.
struct EventOpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Edit an event's iCalendar text in $VISUAL or $EDITOR.",
        discussion: """
            A temporary copy is opened. When it is saved, it is checked: with errors the editor \
            opens again with the problems in # lines at the top (calgw removes them); an \
            unchanged or empty save changes nothing. The result replaces the event's file and \
            goes to the server unless --offline. SEQUENCE and LAST-MODIFIED are bumped unless \
            you bumped SEQUENCE yourself. With --occurrence only that occurrence is opened (an \
            exception is made from the series if it has none).

            Examples:
              calgw event open 3f2a...
              EDITOR=nano calgw event open 3f2a... --occurrence 2026-04-06T09:30
            """
    )

    @OptionGroup var options: EventOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The event's UID.") var uid: String

    @Option(help: ArgumentHelp("Open only this occurrence (its original start).", valueName: "time"))
    var occurrence: String?

    func run() async throws {
        let target = try EventTarget(options: options)
        let file = try target.find(uid: uid)
        var resource = file.calendar
        var focus: (index: Int, calendar: Component)?
        if let occurrence {
            let edit = try SeriesEdit(file: file, uid: uid, zone: options.tz)
            let rid = try edit.times.parse(occurrence, option: "--occurrence")
            let made = try edit.perform(on: rid) { editor, instances in
                try editor.editOccurrence(rid, span: .thisEvent, changes: EventChanges(), instances: instances, newUID: "")
            }
            resource = made.resource ?? resource
            let frame = DateTimeFrame(resolver: TimeZoneResolver(calendar: resource))
            guard let index = resource.components.firstIndex(where: {
                $0["UID"]?.text == uid && ($0["RECURRENCE-ID"]?.dateTime).map { frame.same($0, rid) } == true
            }) else { throw CLIError("the occurrence at \(occurrence) could not be opened") }
            // Only that occurrence (with the zones it refers to) goes to the editor.
            var part = resource
            part.components = resource.components.filter { $0.name == "VTIMEZONE" } + [resource.components[index]]
            focus = (index, part)
        }

        let review = EditorReview(original: focus?.calendar ?? resource, now: EventTarget.now())
        let edited: Component
        switch try EditorSession(name: SafeName.forTemporaryFile(uid)).run(review: review) {
        case .unchanged:
            if !output.quiet { Terminal.err("no change; nothing written") }
            return
        case .empty:
            if !output.quiet { Terminal.err("empty file; nothing written") }
            return
        case .accept(let calendar):
            edited = calendar
        case .reopen:
            return  // the session only ends on a usable or abandoned save
        }
        if let focus {
            guard let component = edited.components.first(where: { $0.name != "VTIMEZONE" }) else { return }
            resource.components[focus.index] = component
        } else {
            resource = edited
        }
        try await EventWrite(target: target, options: options, output: output)
            .apply(SpanEditResult(resource: resource, newSeries: nil), to: file, uid: uid)
    }
}

/// A temporary file in the person's editor, reopened until the save is usable.
struct EditorSession {
    var name: String

    /// The editor command: $VISUAL, else $EDITOR, else vi.
    static var editor: String {
        let env = ProcessInfo.processInfo.environment
        for key in ["VISUAL", "EDITOR"] { if let value = env[key], !value.isEmpty { return value } }
        return "vi"
    }

    func run(review: EditorReview) throws -> EditorReview.Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("calgw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent(name)
        var text = review.initialText
        while true {
            try Data(text.utf8).write(to: copy)
            chmod(copy.path, 0o600)
            try launchEditor(on: copy)
            let saved = String(decoding: try Data(contentsOf: copy), as: UTF8.self)
            let outcome = review.review(saved)
            guard case .reopen(let annotated, let problems) = outcome else { return outcome }
            Terminal.err("the file has \(problems.count) problem\(problems.count == 1 ? "" : "s"); reopening the editor")
            text = annotated
        }
    }

    func launchEditor(on file: URL) throws {
        // The editor may carry arguments ("code --wait"): the shell splits it, the path stays one word.
        let status = try ForegroundProcess.run(["/bin/sh", "-c", "\(Self.editor) \"$1\"", "calgw-editor", file.path])
        guard status == 0 else {
            throw CLIError("the editor (\(Self.editor)) exited with status \(status); nothing was written",
                           hint: "set $VISUAL or $EDITOR to an editor that exits 0 after saving")
        }
    }
}

/// Runs a program in the foreground on calgw's own terminal and waits for it, as `git commit`
/// runs an editor. Foundation's `Process` starts programs in a new session, without the
/// terminal, where an editor cannot read the keyboard.
enum ForegroundProcess {
    /// - Returns: the exit status (128 + the signal for a program killed by one).
    static func run(_ argv: [String]) throws -> Int32 {
        var pid: pid_t = 0
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        // While the editor has the terminal, ^C and ^\ are its own, as with git.
        let oldInt = signal(SIGINT, SIG_IGN), oldQuit = signal(SIGQUIT, SIG_IGN)
        defer { signal(SIGINT, oldInt); signal(SIGQUIT, oldQuit) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGQUIT)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        let spawned = posix_spawn(&pid, argv[0], nil, &attributes, &cArgs, environ)
        guard spawned == 0 else {
            throw CLIError("cannot start \(argv.joined(separator: " ")): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let low = status & 0x7f
        return low == 0 ? (status >> 8) & 0xff : 128 + low
    }
}

enum SafeName {
    /// A temporary file name that shows the event in the editor's title.
    static func forTemporaryFile(_ uid: String) -> String {
        let kept = uid.unicodeScalars.prefix(40).map { CharacterSet.alphanumerics.contains($0) ? Character($0) : "_" }
        return "calgw-" + String(kept) + ".ics"
    }
}

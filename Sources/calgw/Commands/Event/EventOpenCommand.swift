import ArgumentParser
import CalendarSync
import CStopSignal
import Foundation
import ICalendar
import Recurrence

/// `calgw event open`: edit an event's iCalendar text in `$VISUAL` / `$EDITOR`.
struct EventOpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Edit an event's iCalendar text in $VISUAL or $EDITOR.",
        discussion: """
            A temporary copy is opened. When it is saved, it is checked: with errors the \
            problems are listed and the editor opens again with them in # lines at the top \
            (calgw removes them); saving it again unchanged, or empty, gives up. Without a \
            terminal the first save with errors ends the command (exit 1), listing them. An \
            unchanged or empty first save changes nothing. The result replaces the event's file and \
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
            let index: Int
            (resource, index) = try SeriesEdit.occurrence(occurrence, of: file, uid: uid, zone: options.tz)
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
        var acting = EventWrite.personsActions(resource, uid: uid)
        let role = acting.isEmpty ? .none : await MeetingRole.of(file.calendar, uid: uid, pair: target.pair, offline: options.offline)
        if case .attendee = role {
            // Only what is the attendee's own: no new version of the meeting, nothing to schedule.
            try role.refuse(AttendeeChange.organizersFields(before: file.calendar, after: resource), uid: uid)
            resource = AttendeeChange.keepingSequence(of: file.calendar, in: resource)
            acting = []
        }
        try await EventWrite(target: target, options: options, output: output, personsActions: acting,
                             message: acting.isEmpty ? nil : role.message(deleting: false))
            .apply(role.announcing(SpanEditResult(resource: resource, newSeries: nil), before: file.calendar), to: file, uid: uid)
    }
}

extension SeriesEdit {
    /// The resource with an override for the occurrence at `occurrence` (made from the series
    /// if it has none), and the override's index among its components.
    /// - Throws: `CLIError` when the time is not an occurrence of the series.
    static func occurrence(_ occurrence: String, of file: EventFile, uid: String, zone: String?) throws -> (Component, Int) {
        let edit = try SeriesEdit(file: file, uid: uid, zone: zone)
        let rid = try edit.times.parse(occurrence, option: "--occurrence")
        let made = try edit.perform(on: rid) { editor, instances in
            try editor.editOccurrence(rid, span: .thisEvent, changes: EventChanges(), instances: instances, newUID: "")
        }
        var resource = made.resource ?? file.calendar
        let frame = DateTimeFrame(resolver: TimeZoneResolver(calendar: resource))
        guard let index = resource.components.firstIndex(where: {
            $0["UID"]?.text == uid && ($0["RECURRENCE-ID"]?.dateTime).map { frame.same($0, rid) } == true
        }) else { throw CLIError("the occurrence at \(occurrence) could not be found in \(uid)") }
        // An exception made only to be answered or opened is no new version: it keeps the
        // series' SEQUENCE (the organizer's), as one already there keeps its own.
        let key = OrganizerChange.key(resource.components[index])
        let before = file.calendar.components.first { OrganizerChange.key($0) == key } ?? master(of: file.calendar, uid: uid)
        if let sequence = before?["SEQUENCE"] { resource.components[index].set(sequence) } else { resource.components[index].remove("SEQUENCE") }
        return (resource, index)
    }
}

/// A temporary file in the person's editor, reopened until the save is usable: on a terminal
/// with the problems said first, and given up when a save after them changes nothing; without
/// a terminal (nobody to fix anything) the first unusable save ends it with the problems.
struct EditorSession {
    var name: String

    /// The editor command: $VISUAL, else $EDITOR, else vi.
    static var editor: String {
        let env = ProcessInfo.processInfo.environment
        for key in ["VISUAL", "EDITOR"] { if let value = env[key], !value.isEmpty { return value } }
        return "vi"
    }

    /// Whether a person can answer: standard input and error are both a terminal.
    static var onATerminal: Bool { isatty(0) == 1 && isatty(2) == 1 }

    func run(review: EditorReview, interactive: Bool = Self.onATerminal) throws -> EditorReview.Outcome {
        let copies = EditorCopies()
        copies.sweepLeftovers()
        let folder = try copies.makeFolder()
        let copy = folder.appendingPathComponent(name)
        cstop_remove_on_signals(copy.path, folder.path)
        defer {
            try? FileManager.default.removeItem(at: folder)
            cstop_keep_on_signals()
        }
        var text = review.initialText
        var shown: String?
        while true {
            try Data(text.utf8).write(to: copy)
            chmod(copy.path, 0o600)
            try launchEditor(on: copy)
            let saved = String(decoding: try Data(contentsOf: copy), as: UTF8.self)
            let outcome = review.review(saved)
            guard case .reopen(let annotated, let problems) = outcome else { return outcome }
            let listed = problems.map { $0.line > 0 ? "  line \($0.line): \($0.message)" : "  \($0.message)" }
            let count = "\(problems.count) problem\(problems.count == 1 ? "" : "s")"
            guard interactive else {
                throw CLIError("the edited event has \(count); nothing was written:\n" + listed.joined(separator: "\n"),
                               hint: "run it on a terminal to fix them in the editor, or change the event with `calgw event edit`")
            }
            let body = EditorReview.strippingComments(saved)
            if body == shown {
                throw CLIError("the file was saved unchanged after its problems were shown; nothing was written:\n"
                               + listed.joined(separator: "\n"))
            }
            Terminal.err("the file has \(count):\n" + listed.joined(separator: "\n")
                         + "\nreopening the editor (save it unchanged or empty to give up)")
            shown = body
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

/// The private folders that hold the editor's copies: `calgw-edit-PID-RANDOM` in the
/// temporary folder, mode 0700. A run ended by a signal removes its own (see
/// `cstop_remove_on_signals`); one killed outright leaves it, and the next `event open` removes
/// the folders of processes that are gone.
struct EditorCopies {
    var parent = FileManager.default.temporaryDirectory
    static let prefix = "calgw-edit-"

    func makeFolder() throws -> URL {
        let folder = parent.appendingPathComponent("\(Self.prefix)\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder
    }

    /// Removes this user's copy folders whose process has ended.
    func sweepLeftovers() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        for name in names where name.hasPrefix(Self.prefix) {
            guard let pid = Int32(name.dropFirst(Self.prefix.count).prefix { $0 != "-" }), pid != getpid() else { continue }
            let path = parent.appendingPathComponent(name).path
            var info = stat()
            guard stat(path, &info) == 0, info.st_uid == getuid(), kill(pid, 0) == -1, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: path)
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

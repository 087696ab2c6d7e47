import Foundation
import ICalendar
import Mail

/// A scheduling message (iTIP, RFC 5546) that came by mail (iMIP, RFC 6047) or as a file: its
/// method, its meeting, and what applying it to the vdir's copy comes to (``apply(to:sender:own:)``).
///
/// The object's own METHOD counts; the method a mail's `Content-Type` states is only a
/// fallback, and where the two disagree the message says so (``note``).
public struct ITipMessage: Sendable {
    /// What the message asks (RFC 5546 §1.4).
    public enum Method: String, Sendable, CaseIterable {
        case publish = "PUBLISH"
        case request = "REQUEST"
        case reply = "REPLY"
        case add = "ADD"
        case cancel = "CANCEL"
        case refresh = "REFRESH"
        case counter = "COUNTER"
        case declineCounter = "DECLINECOUNTER"
    }

    /// The method the message is applied as.
    public var method: Method
    /// The meeting's UID.
    public var uid: String
    /// The RECURRENCE-ID of the first event, when the message is about an occurrence.
    public var recurrenceID: String?
    /// The VCALENDAR as sent (with its METHOD).
    public var calendar: Component
    /// What the reader should know about the message itself (a method stated twice, differently;
    /// what was mended in it).
    public var note: String?

    /// The message in `text`, whose mail part stated `declared` (a `method=` parameter), if any.
    /// - Throws: ``ITipError/unreadable(_:)`` for text that is no iCalendar object, one without
    ///   a method, or one whose events are of no meeting or of several.
    public init(text: String, declared: String?) throws {
        let parsed: Component?
        do {
            parsed = try ICalendarParser().parse(text).calendar
        } catch let error as ICalendarSyntaxError {
            throw ITipError.unreadable("its calendar part is not iCalendar: line \(error.line): \(error.reason)")
        }
        guard let read = parsed else { throw ITipError.unreadable("its calendar part holds no VCALENDAR") }
        let (calendar, mends) = Self.mended(read)
        let stated = calendar["METHOD"]?.value.uppercased()
        let declared = declared?.uppercased()
        guard let name = stated ?? declared else {
            throw ITipError.unreadable("its calendar part has no METHOD: it is not a scheduling message")
        }
        guard let method = Method(rawValue: name) else {
            throw ITipError.unreadable("its METHOD \(name) is none of RFC 5546's")
        }
        let events = calendar.components.filter { ["VEVENT", "VTODO"].contains($0.name) }
        let uids = Set(events.compactMap { $0["UID"]?.text })
        guard let uid = uids.first else { throw ITipError.unreadable("its calendar part holds no event with a UID") }
        guard uids.count == 1 else {
            throw ITipError.unreadable("its calendar part holds events of \(uids.count) meetings, not one")
        }
        self.method = method
        self.uid = uid
        recurrenceID = events.first?["RECURRENCE-ID"]?.value
        if stated == nil {
            var stamped = calendar
            stamped.set(Property(name: "METHOD", value: name))
            self.calendar = stamped
        } else {
            self.calendar = calendar
        }
        var notes: [String] = []
        if let stated, let declared, stated != declared {
            notes.append("the mail says method=\(declared) but the object says METHOD:\(stated); taken as \(stated)")
        }
        notes += mends
        note = notes.isEmpty ? nil : notes.joined(separator: "; ")
    }

    /// The message's events.
    var events: [Component] { calendar.components.filter { ["VEVENT", "VTODO"].contains($0.name) } }

    /// The occurrence the message is about as `--occurrence` takes it (`2027-01-25T09:30Z`);
    /// nil for a whole meeting.
    public var occurrenceArgument: String? {
        events.lazy.compactMap { $0["RECURRENCE-ID"]?.dateTime }.first.map(OccurrenceText.display)
    }

    /// The ORGANIZER the message names, normalised.
    var organizer: String? { events.lazy.compactMap { $0["ORGANIZER"]?.value }.first.map(CalendarUser.normalized) }
}

/// Why a message could not be read.
extension ITipMessage {
    /// The mail (or bare object) at `path`, or on the standard input when nil, and the
    /// scheduling message in it.
    /// - Throws: ``ITipError/unreadable(_:)`` for a file that cannot be read or a mail without a
    ///   calendar part; what the mail and iCalendar readers throw for what they cannot read.
    public static func read(_ path: String?) throws -> (MailMessage, ITipMessage) {
        let mail = try MailMessage.parse(try input(path))
        guard let part = mail.calendarPart else { throw ITipError.unreadable("it has no calendar part") }
        return (mail, try ITipMessage(text: part.text, declared: part.method))
    }

    /// The bytes of the message at `path`, or of the standard input when nil.
    /// - Throws: ``ITipError/unreadable(_:)`` naming the file and why it cannot be read.
    public static func input(_ path: String?) throws -> Data {
        guard let path else { return FileHandle.standardInput.readDataToEndOfFile() }
        do { return try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            let why = FileManager.default.fileExists(atPath: path) ? "it cannot be read" : "there is no such file"
            throw ITipError.unreadable("\(path): \(why)")
        }
    }
}

public enum ITipError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No calendar part, or one that is no scheduling message.
    case unreadable(String)

    public var description: String {
        switch self {
        case .unreadable(let why): "the message cannot be applied: \(why)"
        }
    }
}

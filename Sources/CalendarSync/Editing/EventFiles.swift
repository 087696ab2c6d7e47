import Failures
import Foundation
import ICalendar
import Recurrence
import VDir

/// An event's resource as it sits in a vdir: the file, the signature it was read at (so a
/// write never overwrites an edit made meanwhile) and its parsed calendar.
public struct EventFile: Sendable {
    /// The file's name in the vdir.
    public var name: String
    /// The signature the file was read at; a write is conditional on it.
    public var signature: FileSignature
    /// The file's bytes as read.
    public var data: Data
    /// The parsed calendar.
    public var calendar: Component
}

/// Finds and writes the resources of events in a vdir for the editing commands.
///
/// A resource is found by UID: first under the name calgw gives that UID, then among the other
/// files (a vdir filled by another tool may name files otherwise), parsing only those whose
/// bytes mention the UID, or with an index of UIDs only those it does not know
/// (``searchIndexed(uid:preferred:cache:)``). Writes are atomic and
/// conditional on the signature the file was read at.
public struct EventFiles: Sendable {
    /// The vdir the events are in.
    public let directory: VDirectory
    /// Where the index of the files' UIDs is kept; nil to read the files for a UID every time.
    public let cache: ListingCache?

    /// Events in `directory`, found by UID through an index kept in `cache` (none without).
    public init(directory: VDirectory, cache: ListingCache? = nil) {
        self.directory = directory
        self.cache = cache
    }

    /// The resource holding `uid`.
    /// - Throws: `EventEditError.notFound`, `.duplicateUID` when two files hold it, or
    ///   `.unreadable` when the only file naming it is broken (its line and problem).
    public func find(uid: String) throws -> EventFile {
        var read = 0
        return try find(uid: uid, filesRead: &read)
    }

    /// `file` read again under its name, when it still holds `uid`: what a push left there
    /// (the server's version of a meeting), without a search of the folder; nil otherwise.
    public func reread(_ file: EventFile, uid: String) -> EventFile? {
        guard let again = try? read(file.name), Self.holds(again.calendar, uid: uid) else { return nil }
        return again
    }

    /// ``find(uid:)``, counting the files read besides the one named after `uid`.
    func find(uid: String, filesRead: inout Int) throws -> EventFile {
        let preferred = SafeFileName.fileName(forUID: uid)
        if let file = try read(preferred), Self.holds(file.calendar, uid: uid) { return file }
        if let cache, let search = try searchIndexed(uid: uid, preferred: preferred, cache: cache) {
            filesRead = search.read
            return try Self.one(search.found, unreadable: search.unreadable, uid: uid, in: directory)
        }
        var found: [EventFile] = []
        var unreadable: EventEditError?
        for entry in try directory.scan() {
            filesRead += 1
            guard let (data, _) = try directory.read(entry.name), Self.mentions(data, uid: uid) else { continue }
            do {
                _ = try ICalendarParser().parse(data)
            } catch let error as ICalendarSyntaxError where data.range(of: Data(uid.utf8)) != nil {
                unreadable =
                    unreadable
                    ?? .unreadable(uid: uid, file: directory.path(entry.name), line: error.line, reason: error.reason)
                continue
            } catch {}
            guard entry.name != preferred, let file = try read(entry.name), Self.holds(file.calendar, uid: uid) else {
                continue
            }
            found.append(file)
        }
        return try Self.one(found, unreadable: unreadable, uid: uid, in: directory)
    }

    /// The one file found holding `uid`.
    /// - Throws: `unreadable` (or `EventEditError.notFound`) for none, `.duplicateUID` for more.
    static func one(
        _ found: [EventFile], unreadable: EventEditError?, uid: String, in directory: VDirectory
    ) throws -> EventFile {
        guard let first = found.first else {
            throw unreadable ?? EventEditError.notFound(uid: uid, folder: directory.url.path)
        }
        guard found.count == 1 else {
            throw EventEditError.duplicateUID(uid: uid, files: found.map { directory.path($0.name) })
        }
        return first
    }

    /// Writes a new resource under the name its UID gives.
    /// - Returns: the file name.
    @discardableResult
    public func create(_ calendar: Component, uid: String) throws -> String {
        let name = SafeFileName.fileName(forUID: uid)
        try directory.createIfMissing()
        try directory.create(name, data: Self.bytes(of: calendar))
        return name
    }

    /// Replaces `file` with `calendar`, unless the file changed since it was read.
    public func replace(_ file: EventFile, with calendar: Component) throws {
        try directory.replace(file.name, data: Self.bytes(of: calendar), ifSignature: file.signature)
    }

    /// What calgw writes for `calendar`: complete as RFC 5545 asks, each TZID with its
    /// VTIMEZONE (`TimeZoneCompletion`), so that the files it writes pass `calgw lint` and read
    /// the same in every program.
    static func bytes(of calendar: Component) -> Data {
        var complete = calendar
        if complete.name == "VCALENDAR" { _ = TimeZoneCompletion.complete(&complete) }
        return ICalendarSerializer().data([complete])
    }

    /// Deletes `file`, unless it changed since it was read.
    public func delete(_ file: EventFile) throws {
        try directory.delete(file.name, ifSignature: file.signature)
    }

    func read(_ name: String) throws -> EventFile? {
        guard let (data, signature) = try directory.read(name) else { return nil }
        guard let calendar = try? ICalendarParser().parse(data).calendar else { return nil }
        return EventFile(name: name, signature: signature, data: data, calendar: calendar)
    }

    static func holds(_ calendar: Component, uid: String) -> Bool {
        calendar.components.contains { $0["UID"]?.text == uid }
    }

    static func mentions(_ data: Data, uid: String) -> Bool {
        data.range(of: Data(uid.utf8)) != nil || uid.contains { "\\,;".contains($0) } || !uid.allSatisfy(\.isASCII)
    }
}

extension EventFiles {
    /// Writes what a span edit made of `file` (the event `uid`): the resource replaced, or
    /// deleted when none is left, after a split's new series is created; the new series' UID.
    /// - Throws: ``EventCommandError`` when the file changed since it was read (nothing is
    ///   written then), else the write's error.
    public func write(_ result: SpanEditResult, replacing file: EventFile, uid: String) throws -> String? {
        var newUID: String?
        do {
            if let series = result.newSeries {
                let id =
                    series.components.first { $0.name == "VEVENT" }?["UID"]?.text ?? UUID().uuidString.lowercased()
                try create(series, uid: id)
                newUID = id
            }
            if let resource = result.resource {
                try replace(file, with: resource)
            } else {
                try delete(file)
            }
        } catch let error as any ExplainedError where error.errorCode == "changedMeanwhile" {
            throw EventCommandError(
                error.message,
                recovery: "the file changed while calgw was editing it; nothing was written, run the command again")
        }
        return newUID
    }
}

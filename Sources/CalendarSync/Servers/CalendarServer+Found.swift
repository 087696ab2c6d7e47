import Foundation

extension CalendarServer {
    /// A calendar found behind a calendar home (`init --all-collections`), and the folder a
    /// first sync gives it.
    public struct FoundCalendar: Encodable, Sendable {
        /// The folder's name.
        public var name: String
        /// The calendar's href on the server.
        public var href: String
        /// The calendar's display name, when it has one.
        public var displayName: String?
        /// The component types it takes (`VEVENT`, `VTODO`).
        public var components: [String]
    }

    /// The calendars behind `url`, named as the first sync will name their folders in
    /// `folder` and sorted by those names, and what the server says of the account's
    /// scheduling (nil when it does not answer).
    public func foundCalendars(at url: URL, folder: URL) async throws -> ([FoundCalendar], ServerAccount?) {
        let calendars = try await accountCalendars(at: url, folder: folder)
        let account = try? await self.account(at: calendars.first?.calendar.url ?? url)
        let found = calendars.sorted { $0.folder < $1.folder }.map {
            FoundCalendar(
                name: $0.folder, href: $0.calendar.href, displayName: $0.calendar.displayName,
                components: $0.calendar.components)
        }
        return (found, account)
    }
}

extension Pair {
    /// The vdir folder's name (a single file's without `.ics`) in the alphabet pair names allow.
    public static func defaultName(for folder: URL) -> String {
        let last =
            folder.pathExtension.lowercased() == "ics"
            ? folder.deletingPathExtension().lastPathComponent : folder.lastPathComponent
        let cleaned = last.map { c -> Character in
            c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "_" || c == ".") ? c : "-"
        }
        let name = String(cleaned).trimmingCharacters(in: CharacterSet(charactersIn: "-."))
        return name.isEmpty ? "default" : name
    }
}

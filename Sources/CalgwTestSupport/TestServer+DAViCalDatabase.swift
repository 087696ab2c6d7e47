import Foundation

extension TestServer {
    /// Runs `sql` on the database of this DAViCal (started by `Scripts/servers/davical`, whose
    /// `STATE_DIR/data-dir` names the cluster's folder and its socket), as PostgreSQL's
    /// superuser: what an admin changes by hand, for a test that needs a server set up so.
    /// - Throws: ``FixtureFailure`` with psql's output when it fails.
    public func davicalSQL(_ sql: String) throws {
        let data = try String(contentsOf: stateFolder.appendingPathComponent("data-dir"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let psql = [
            "psql", "-h", "\(data)/sock", "-U", "postgres", "-qXAt", "-v", "ON_ERROR_STOP=1", "davical", "-c", sql,
        ]
        let command = getuid() == 0 ? ["runuser", "-u", "postgres", "--"] + psql : psql
        let result = try ProcessRunner.runBlocking("/usr/bin/env", command)
        guard result.status == 0 else { throw FixtureFailure("psql: \(result.stderrText)\(result.stdoutText)") }
    }

    /// Makes `user`'s schedule Inbox as DAViCal makes one on first delivery, not as its admin
    /// screen does: of the schedule-inbox type, not a calendar. DAViCal's own reply code works
    /// for an organizer with such an Inbox.
    public func makeScheduleInboxPlain(of user: String) throws {
        try davicalSQL(
            "UPDATE collection SET is_calendar = FALSE, resourcetypes = "
                + "'<DAV::collection/><urn:ietf:params:xml:ns:caldav:schedule-inbox/>' "
                + "WHERE dav_name = '/\(user)/.in/'")
    }
}

extension TestServer {
    /// Adds the user `name` to this DAViCal as its admin screen adds one (`ui/principal-edit.php`,
    /// `CreateHomeCollections`): a principal that lets others deliver to it, and the home
    /// collections `calendar`, `.out`, `.in` (calendars, as the screen makes them) and
    /// `addresses`; the address `mailto:NAME@example.net`. For a walk with a third person.
    /// - Returns: the user, with a new password.
    /// - Throws: ``FixtureFailure`` when this server has no second user to place the home by,
    ///   or psql fails.
    public func addDAViCalUser(_ name: String) throws -> Attendee {
        guard let second = attendee else { throw FixtureFailure("the davical script printed no second user") }
        let password = UUID().uuidString.prefix(12).lowercased()
        try davicalSQL(
            """
            INSERT INTO usr (active, email_ok, updated, username, password, fullname, email)
                VALUES (TRUE, current_date, current_date, '\(name)', '**\(password)', '\(name)', '\(name)@example.net');
            INSERT INTO principal (type_id, user_no, displayname, default_privileges)
                SELECT 1, user_no, '\(name)', '000000000001111000000000'::BIT(24) FROM usr WHERE username = '\(name)';
            INSERT INTO collection (user_no, parent_container, dav_name, dav_etag, dav_displayname, is_calendar,
                                    is_addressbook, default_privileges, created, modified, resourcetypes)
                SELECT u.user_no, '/' || u.username || '/', '/' || u.username || '/' || v.name || '/', '-1',
                       u.fullname || v.suffix, v.is_calendar, NOT v.is_calendar, NULL, current_timestamp,
                       current_timestamp,
                       CASE WHEN v.is_calendar THEN '<DAV::collection/><urn:ietf:params:xml:ns:caldav:calendar/>'
                            ELSE '<DAV::collection/><urn:ietf:params:xml:ns:carddav:addressbook/>' END
                FROM usr u, (VALUES (1, 'calendar', ' calendar', TRUE), (2, '.out', ' Outbox', TRUE),
                                    (3, '.in', ' Inbox', TRUE), (4, 'addresses', ' addressbook', FALSE))
                            AS v(ord, name, suffix, is_calendar)
                WHERE u.username = '\(name)' ORDER BY v.ord;
            """)
        let home = second.home.deletingLastPathComponent().appendingPathComponent("\(name)/", isDirectory: true)
        return Attendee(username: name, password: password, home: home, address: "mailto:\(name)@example.net")
    }
}

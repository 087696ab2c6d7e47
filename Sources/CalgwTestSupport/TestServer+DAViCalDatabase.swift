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

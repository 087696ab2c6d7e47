import Foundation
import Testing
import VDir
@testable import CalendarSync

/// Errors of one cause are told once: the first three, a count of the rest, the cause and a
/// hint; other errors stay as they are.
@Suite struct ErrorGroupTests {
    func full(_ i: Int, place: String = "/mnt/cal") -> ReportedError {
        ReportedError(
            "ev\(i): \(place)/ev\(i).ics: could not write: No space left on device",
            cause: ErrorCause(errno: ENOSPC, place: place, item: "ev\(i)"))
    }

    @Test func aFullDiskIsToldOnce() {
        let failed = (1...271).map { full($0) }
        let lines = ErrorGroup.lines(failed)
        #expect(lines.count == 4)
        #expect(lines.prefix(3).map(\.message) == failed.prefix(3).map(\.line))
        #expect(lines.prefix(3).allSatisfy { $0.hint == nil })
        #expect(lines[3].message == "… and 268 more: No space left on device (the file system mounted at /mnt/cal)")
        #expect(
            lines[3].hint?.hasPrefix("free space on the file system mounted at /mnt/cal") == true,
            "\(lines[3].hint ?? "")")
    }

    @Test func uncausedErrorsKeepTheirPlaceAndGroupsStandAtTheirFirst() {
        let a = full(1), b = full(2), c = full(3), d = full(4), e = full(5)
        let readOnly = ReportedError(
            "x: /ro/x.ics: could not create: Read-only file system",
            cause: ErrorCause(errno: EROFS, place: "/ro", item: "x"))
        let errors = [ReportedError("server said no"), a, b, readOnly, c, ReportedError("another"), d, e]
        let lines = ErrorGroup.lines(errors)
        #expect(
            lines.map(\.message) == [
                "server said no", a.line, b.line, c.line,
                "… and 2 more: No space left on device (the file system mounted at /mnt/cal)",
                readOnly.line, "another",
            ])
        // A cause of few items: its lines as they are, the hint after the last.
        #expect(
            lines[5].hint?.contains("is read-only: remount it read-write (mount -o remount,rw /ro)") == true,
            "\(lines[5].hint ?? "")")
        #expect(lines[0].hint == nil && lines[6].hint == nil)
    }

    @Test func oneCausePerPlace() {
        let here = (1...5).map { full($0) }, there = (6...10).map { full($0, place: "/other") }
        let lines = ErrorGroup.lines(here + there)
        #expect(lines.count == 8)
        #expect(lines[3].message.hasSuffix("(the file system mounted at /mnt/cal)"))
        #expect(lines[7].message.hasSuffix("(the file system mounted at /other)"))
    }

    @Test func permissionDeniedNamesTheFolder() {
        let failed = (1...4).map { i in
            ReportedError(
                "ev\(i): /cal/ev\(i).ics: could not create: Operation not permitted",
                cause: ErrorCause(errno: EPERM, place: "/cal", item: "ev\(i)"))
        }
        let lines = ErrorGroup.lines(failed)
        #expect(lines.last?.message == "… and 1 more: Operation not permitted (in /cal)")
        #expect(lines.last?.hint?.contains("lsattr /cal") == true)
    }

    @Test func causesOfFileSystemErrors() throws {
        let folder = FileManager.default.temporaryDirectory.path
        let cause = ErrorCause.of(AtomicFileError(path: folder + "/x.ics", step: "write", errno: ENOSPC), item: "x")
        #expect(cause?.errno == ENOSPC)
        #expect(cause.map { ErrorCause.contains($0.place, folder) } == true, "\(String(describing: cause))")
        let denied = ErrorCause.of(
            VDirError(.io, "cannot delete /cal/x.ics", errno: EACCES, path: "/cal/x.ics"), item: "x")
        #expect(denied == ErrorCause(errno: EACCES, place: "/cal", item: "x"))
        #expect(ErrorCause.of(AtomicFileError(path: "/cal/x.ics", step: "write", errno: EIO), item: "x") == nil)
        #expect(ErrorCause.of(VDirError(.changedMeanwhile, "changed"), item: "x") == nil)
    }

    @Test func mountPointsAreUnescaped() {
        let table = """
            22 1 252:0 / / rw,relatime - ext4 /dev/vda rw
            90 22 0:50 / /mnt/my\\040calendars rw - tmpfs tmpfs rw,size=1024k
            """
        #expect(ErrorCause.mountPoints(inMountInfo: table) == ["/", "/mnt/my calendars"])
        #expect(ErrorCause.mountPoint(of: "/") == "/")
    }

    /// A report line's hint is printed on its own line, as every other error's.
    @Test func aHintAtTheEndOfALineGoesOnItsOwn() {
        let split = ErrorGroup(splitting: "x.ics:8: DTEND is before DTSTART (hint: fix that line (or run calgw fmt))")
        #expect(split == ErrorGroup("x.ics:8: DTEND is before DTSTART", hint: "fix that line (or run calgw fmt)"))
        #expect(ErrorGroup(splitting: "a.ics: refused (by the server)") == ErrorGroup("a.ics: refused (by the server)"))
        let lines = ErrorGroup.lines([ReportedError("e1: x.ics:3: problem (hint: fix it)")])
        #expect(lines == [ErrorGroup("e1: x.ics:3: problem", hint: "fix it")])
    }
}

/// A report's errors say how the run ends, and the JSON holds their lines only.
@Suite struct ReportedErrorTests {
    @Test func aRunRefusedForSafetyOnlyWhenEveryErrorIsARefusal() {
        let refusal = ReportedError("work: 40 of 40 items would be deleted", kind: .refusedForSafety)
        #expect([ReportedError]().failureKind == nil)
        #expect([refusal, refusal].failureKind == .refusedForSafety)
        #expect([refusal, ReportedError("ev1: refused")].failureKind == .failed)
    }

    @Test func inJSONAnErrorIsItsLine() throws {
        var report = SyncReport()
        report.addError(
            "ev1: /cal/ev1.ics: could not write", cause: ErrorCause(errno: ENOSPC, place: "/cal", item: "ev1"))
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any]
        #expect(json?["errors"] as? [String] == ["ev1: /cal/ev1.ics: could not write"])
        let back = try JSONDecoder().decode(SyncReport.self, from: JSONEncoder().encode(report))
        #expect(back.errors.lines == report.errors.lines)
    }

    @Test func aCollectionsErrorNamesItsFolder() {
        let error = ReportedError("ev1: could not write", cause: ErrorCause(errno: EROFS, place: "/ro", item: "ev1"))
        let marked = error.marked(collection: "work")
        #expect(marked.line == "work: ev1: could not write")
        #expect(marked.cause?.item == "work/ev1")
    }
}

import Foundation
import Testing
import VDir
@testable import CalendarSync

/// Errors of one cause are told once: the first three, a count of the rest, the cause and a
/// hint; other errors stay as they are.
@Suite struct ErrorGroupTests {
    func full(_ i: Int, place: String = "/mnt/cal") -> (String, ErrorCause) {
        ("ev\(i): \(place)/ev\(i).ics: could not write: No space left on device",
         ErrorCause(errno: ENOSPC, place: place, item: "ev\(i)"))
    }

    @Test func aFullDiskIsToldOnce() {
        let failed = (1...271).map { full($0) }
        let lines = ErrorGroup.lines(failed.map(\.0), causes: Dictionary(uniqueKeysWithValues: failed))
        #expect(lines.count == 4)
        #expect(lines.prefix(3).map(\.message) == failed.prefix(3).map(\.0))
        #expect(lines.prefix(3).allSatisfy { $0.hint == nil })
        #expect(lines[3].message == "… and 268 more: No space left on device (the file system mounted at /mnt/cal)")
        #expect(lines[3].hint?.hasPrefix("free space on the file system mounted at /mnt/cal") == true, "\(lines[3].hint ?? "")")
    }

    @Test func uncausedErrorsKeepTheirPlaceAndGroupsStandAtTheirFirst() {
        let a = full(1), b = full(2), c = full(3), d = full(4), e = full(5)
        let readOnly = ("x: /ro/x.ics: could not create: Read-only file system", ErrorCause(errno: EROFS, place: "/ro", item: "x"))
        let errors = ["server said no", a.0, b.0, readOnly.0, c.0, "another", d.0, e.0]
        let causes = Dictionary(uniqueKeysWithValues: [a, b, c, d, e, readOnly])
        let lines = ErrorGroup.lines(errors, causes: causes)
        #expect(lines.map(\.message) == ["server said no", a.0, b.0, c.0,
                                         "… and 2 more: No space left on device (the file system mounted at /mnt/cal)",
                                         readOnly.0, "another"])
        // A cause of few items: its lines as they are, the hint after the last.
        #expect(lines[5].hint?.contains("is read-only: remount it read-write (mount -o remount,rw /ro)") == true, "\(lines[5].hint ?? "")")
        #expect(lines[0].hint == nil && lines[6].hint == nil)
    }

    @Test func oneCausePerPlace() {
        let here = (1...5).map { full($0) }, there = (6...10).map { full($0, place: "/other") }
        let lines = ErrorGroup.lines((here + there).map(\.0), causes: Dictionary(uniqueKeysWithValues: here + there))
        #expect(lines.count == 8)
        #expect(lines[3].message.hasSuffix("(the file system mounted at /mnt/cal)"))
        #expect(lines[7].message.hasSuffix("(the file system mounted at /other)"))
    }

    @Test func permissionDeniedNamesTheFolder() {
        let failed = (1...4).map { i in
            ("ev\(i): /cal/ev\(i).ics: could not create: Operation not permitted", ErrorCause(errno: EPERM, place: "/cal", item: "ev\(i)"))
        }
        let lines = ErrorGroup.lines(failed.map(\.0), causes: Dictionary(uniqueKeysWithValues: failed))
        #expect(lines.last?.message == "… and 1 more: Operation not permitted (in /cal)")
        #expect(lines.last?.hint?.contains("lsattr /cal") == true)
    }

    @Test func causesOfFileSystemErrors() throws {
        let folder = FileManager.default.temporaryDirectory.path
        let cause = ErrorCause.of(AtomicFileError(path: folder + "/x.ics", step: "write", errno: ENOSPC), item: "x")
        #expect(cause?.errno == ENOSPC)
        #expect(cause.map { ErrorCause.contains($0.place, folder) } == true, "\(String(describing: cause))")
        let denied = ErrorCause.of(VDirError(.io, "cannot delete /cal/x.ics", errno: EACCES, path: "/cal/x.ics"), item: "x")
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
        let lines = ErrorGroup.lines(["e1: x.ics:3: problem (hint: fix it)"], causes: [:])
        #expect(lines == [ErrorGroup("e1: x.ics:3: problem", hint: "fix it")])
    }
}

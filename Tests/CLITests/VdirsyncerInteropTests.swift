import CalDAV
import CalgwTestSupport
import Foundation
import Testing

/// vdirsyncer (from pip) syncs a pair first; calgw then takes over the same vdir and collection.
@Suite(.serialized, .timeLimit(.minutes(10))) struct VdirsyncerInteropTests {
    static func vdirsyncer(_ pair: InteropPair, _ arguments: [String]) async throws -> ProcessRunner.Result {
        let config = pair.folder.file("vdirsyncer.conf")
        try Data(
            """
            [general]
            status_path = "\(pair.folder.file("vdirsyncer-status").path)/"

            [pair dav]
            a = "dav_local"
            b = "dav_remote"
            collections = null

            [storage dav_local]
            type = "filesystem"
            path = "\(pair.vdir.path)/"
            fileext = ".ics"

            [storage dav_remote]
            type = "caldav"
            url = "\(pair.collection.absoluteString)"
            username = "\(pair.server.username)"
            password.fetch = ["command", "printenv", "CALGW_TEST_DAV_PASSWORD"]
            """.utf8
        ).write(to: config)
        return try await ProcessRunner.run(
            "vdirsyncer", ["-c", config.path] + arguments, stdin: Data("y\n".utf8), environment: pair.environment)
    }

    static func report(_ result: ProcessRunner.Result) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any],
            "\(result.stdoutText) \(result.stderrText)")
    }

    @Test func calgwTakesOverAPairSyncedByVdirsyncer() async throws {
        let pair = try await InteropPair(prefix: "vds")
        defer { pair.remove() }
        // One item only in the vdir, so vdirsyncer uploads as well as downloads.
        try TestEvent.data(uid: "made-locally@example", summary: "made locally").write(
            to: pair.vdir.appendingPathComponent("made-locally.ics"))

        let discover = try await Self.vdirsyncer(pair, ["discover"])
        #expect(discover.status == 0, "\(discover.stdoutText) \(discover.stderrText)")
        let first = try await Self.vdirsyncer(pair, ["sync"])
        #expect(first.status == 0, "\(first.stdoutText) \(first.stderrText)")
        let expected =
            (pair.samples.compactMap { name in
                (try? Data(contentsOf: TestPaths.fixtures.appendingPathComponent("sample/\(name)"))).flatMap(
                    InteropPair.uid(of:))
            } + ["made-locally@example"]).sorted()
        #expect(try pair.vdirUIDs() == expected)
        #expect(try await pair.serverUIDs() == expected)

        // calgw's first run on the same vdir and collection: nothing to create, update or delete.
        let takeOver = try await pair.calgw("sync", ["--json"])
        #expect(takeOver.status == 0, "\(takeOver.stderrText)")
        let report = try Self.report(takeOver)
        for key in ["created", "updated", "deleted"] {
            #expect(report[key] as? [String: Int] == ["local": 0, "remote": 0], "\(key): \(takeOver.stdoutText)")
        }
        #expect((report["conflicts"] as? [Any])?.isEmpty == true, "\(takeOver.stdoutText)")
        #expect(try pair.vdirUIDs() == expected)
        #expect(try await pair.serverUIDs() == expected)

        // Later changes on each side go across.
        let localFile = try #require(
            try FileManager.default.contentsOfDirectory(atPath: pair.vdir.path).first { name in
                (try? Data(contentsOf: pair.vdir.appendingPathComponent(name))).flatMap(InteropPair.uid(of:))
                    == "made-locally@example"
            })
        try TestEvent.data(uid: "made-locally@example", summary: "edited locally", lastModified: "20260201T000000Z")
            .write(to: pair.vdir.appendingPathComponent(localFile))
        let items = try await pair.client.listItems(in: pair.collection)
        var target: (URL, ETag)?
        for item in items {
            let resource = try await pair.client.get(pair.url(of: item.href))
            if InteropPair.uid(of: resource.data) == "birthday-ada@calgw.example" {
                target = (pair.url(of: item.href), resource.etag)
            }
        }
        let (url, etag) = try #require(target)
        let birthday = try String(
            contentsOf: TestPaths.fixtures.appendingPathComponent("sample/birthday.ics"), encoding: .utf8
        )
        .replacingOccurrences(of: "SUMMARY:Ada's birthday", with: "SUMMARY:Ada's birthday (party)")
        #expect(birthday.contains("(party)"))
        _ = try await pair.client.put(url, data: Data(birthday.utf8), condition: .ifMatch(etag))

        let later = try await pair.calgw("sync", ["--json"])
        #expect(later.status == 0, "\(later.stderrText)")
        let laterReport = try Self.report(later)
        #expect(laterReport["updated"] as? [String: Int] == ["local": 1, "remote": 1], "\(later.stdoutText)")
        #expect(laterReport["created"] as? [String: Int] == ["local": 0, "remote": 0], "\(later.stdoutText)")
        #expect(try pair.vdirUIDs() == expected)
        #expect(try await pair.serverUIDs() == expected)
        let localText = try FileManager.default.contentsOfDirectory(atPath: pair.vdir.path)
            .map { try String(contentsOf: pair.vdir.appendingPathComponent($0), encoding: .utf8) }.joined()
        #expect(localText.contains("Ada's birthday (party)"))
        var serverTexts: [String] = []
        for item in try await pair.client.listItems(in: pair.collection) {
            serverTexts.append(String(decoding: try await pair.client.get(pair.url(of: item.href)).data, as: UTF8.self))
        }
        #expect(serverTexts.contains { $0.contains("UID:made-locally@example") && $0.contains("edited locally") })
    }
}

import CalDAV
import Foundation

/// A Radicale collection holding the sample calendar of `Fixtures/sample`, and a calgw pair
/// whose vdir is the folder other programs (khal, vdirsyncer) use too.
public struct InteropPair: Sendable {
    /// The server both tools sync with.
    public let server: TestServer
    /// A client of the test calendar, for checks on the server's side.
    public let client: CalDAVClient
    /// The test calendar on the server.
    public let collection: URL
    /// The test's own folder: the vdir, the configs and the state.
    public let folder: TemporaryFolder
    /// The vdir both tools read and write.
    public var vdir: URL { folder.file("vdir") }
    /// calgw's config file for the pair.
    public var config: URL { folder.file("config.toml") }
    /// The environment calgw needs for the pair (the server's password).
    public var environment: [String: String] { ["CALGW_TEST_DAV_PASSWORD": server.password] }
    /// The sample files uploaded, by file name.
    public let samples: [String]

    /// - Parameters:
    ///   - prefix: the start of the new collection's name.
    ///   - withSamples: upload the sample calendar's files (false: an empty collection).
    public init(prefix: String, withSamples: Bool = true) async throws {
        server = try TestServers.shared(TestServers.any())
        client = try CalDAVClient(
            configuration: .init(
                http: .init(authentication: .basic(username: server.username, password: server.password))))
        collection = server.newCollectionURL(prefix: prefix)
        try await client.makeCalendar(collection, displayName: "Interop \(prefix)")
        let sampleFolder = TestPaths.fixtures.appendingPathComponent("sample")
        var names: [String] = []
        if withSamples {
            for name in try FileManager.default.contentsOfDirectory(atPath: sampleFolder.path).sorted()
            where name.hasSuffix(".ics") {
                let data = try Data(contentsOf: sampleFolder.appendingPathComponent(name))
                _ = try await client.put(collection.appendingPathComponent(name), data: data, condition: .createOnly)
                names.append(name)
            }
        }
        samples = names
        folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.file("vdir"), withIntermediateDirectories: true)
        try TestPairConfig(
            name: "dav", local: folder.file("vdir"), collection: collection,
            journal: folder.file("state/dav.sqlite"), server: server, passwordEnv: "CALGW_TEST_DAV_PASSWORD"
        ).write(to: folder.file("config.toml"))
    }

    /// Removes the test's folder.
    public func remove() { folder.remove() }

    /// `calgw COMMAND --config CONFIG EXTRA...`.
    public func calgw(_ command: String, _ extra: [String] = []) async throws -> ProcessRunner.Result {
        try await CalgwBinary.run([command, "--config", config.path] + extra, environment: environment)
    }

    /// UID of every item on the server, one entry per resource (duplicates show twice).
    public func serverUIDs() async throws -> [String] {
        let items = try await client.listItems(in: collection)
        var uids: [String] = []
        for item in items {
            let resource = try await client.get(url(of: item.href))
            uids.append(Self.uid(of: resource.data) ?? item.href.path)
        }
        return uids.sorted()
    }

    /// UID of every item file of the vdir, one entry per file.
    public func vdirUIDs() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: vdir.path).filter {
            $0.hasSuffix(".ics") && !$0.hasPrefix(".")
        }
        .map { try Self.uid(of: Data(contentsOf: vdir.appendingPathComponent($0))) ?? $0 }.sorted()
    }

    /// The item's URL in the collection.
    public func url(of href: Href) -> URL {
        collection.appendingPathComponent(String(href.path.split(separator: "/").last ?? ""))
    }

    /// The first UID line's value.
    public static func uid(of data: Data) -> String? {
        String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
            .first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
    }

    /// Each component's properties, parsed by python icalendar into a canonical form
    /// (name, parameters, value), so two serialisations of the same data compare equal.
    /// - Throws: ``ProcessFailure`` with what python printed when it cannot parse `data`.
    public static func canonicalProperties(_ data: Data) async throws -> String {
        let script = """
            import sys, icalendar
            cal = icalendar.Calendar.from_ical(sys.stdin.buffer.read())
            out = []
            for comp in cal.walk():
                if comp.name == 'VCALENDAR':
                    continue
                props = []
                for name, value in comp.property_items(recursive=False):
                    if name in ('BEGIN', 'END'):
                        continue
                    params = ';'.join(f'{k}={v}' for k, v in sorted(value.params.items())) if hasattr(value, 'params') else ''
                    props.append(f'{name};{params}:{value.to_ical().decode()}' if hasattr(value, 'to_ical') else f'{name}:{value}')
                out.append(comp.name + ' ' + ' | '.join(sorted(props)))
            print('\\n'.join(sorted(out)))
            """
        let result = try await ProcessRunner.run("python3", ["-c", script], stdin: data)
        guard result.status == 0 else {
            throw ProcessFailure(command: "python3 icalendar", status: result.status, stderr: result.stderrText)
        }
        return result.stdoutText
    }
}

import CalDAV
import CalgwTestSupport
import Foundation
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct DiscoverCommandTests {
    @Test(arguments: TestServers.selected)
    func testDiscoverPrintsTableAndJSON(server name: String) async throws {
        let server = try TestServers.shared(name)
        let client = try CalDAVClient(
            configuration: .init(
                http: .init(authentication: .basic(username: server.username, password: server.password))))
        let collection = server.newCollectionURL(prefix: "cli")
        try await client.makeCalendar(
            collection, displayName: "CLI Calendar", color: "#00FF00FF", components: ["VEVENT"])
        let env = ["CALGW_TEST_DAV_PASSWORD": server.password]

        let json = try await CalgwBinary.run(
            [
                "discover", server.url.absoluteString, "--username", server.username,
                "--password-env", "CALGW_TEST_DAV_PASSWORD", "--json",
            ], environment: env)
        #expect(json.status == 0, "\(name): \(json.stderrText)")
        let rows = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
        let mine = rows.first { $0["href"] as? String == HrefResolver.href(of: collection).path }
        #expect(mine?["displayName"] as? String == "CLI Calendar", "\(name): \(json.stdoutText)")
        // SOGo makes every calendar for events and tasks (and free-busy), whatever MKCALENDAR asks.
        let components = name == "sogo" ? ["VEVENT", "VFREEBUSY", "VTODO"] : ["VEVENT"]
        #expect(mine?["components"] as? [String] == components, "\(name): \(json.stdoutText)")
        #expect((mine?["color"] as? String)?.uppercased().hasPrefix("#00FF00") == true)
        #expect(!json.stdoutText.contains(server.password) && !json.stderrText.contains(server.password))
        // The account's own calendar: it may write there.
        #expect(mine?["writable"] as? Bool == true, "\(name): \(json.stdoutText)")

        let table = try await CalgwBinary.run(
            [
                "discover", server.home.absoluteString, "--username", server.username,
                "--password-command", "printf '%s\\n' \"$CALGW_TEST_DAV_PASSWORD\"",
            ], environment: env)
        #expect(table.status == 0, "\(name): \(table.stderrText)")
        #expect(table.stdoutText.hasPrefix("HREF"))
        let line = table.stdoutText.split(separator: "\n").first { $0.contains(HrefResolver.href(of: collection).path) }
        #expect(
            line?.contains("CLI Calendar") == true && line?.contains("VEVENT") == true
                && line?.contains("read-write") == true,
            "\(name): \(table.stdoutText)")
        // What the server does with meetings, and the account's address where it schedules.
        let account = table.stdoutText.split(separator: "\n").first { $0.hasPrefix("account: ") }.map(String.init) ?? ""
        print("\(name): \(account)")
        switch name {
        case "radicale", "xandikos":  // Xandikos advertises it, and is known to send nothing
            #expect(account.contains("does not schedule"), "\(name): \(table.stdoutText)")
        default:  // Cyrus, DAViCal, sabre/dav and SOGo schedule
            #expect(account.contains("the server schedules meetings"), "\(name): \(table.stdoutText)")
        }
        if let address = server.address { #expect(account.contains(address), "\(name): \(account)") }
        // The product it recognised from the server's answers, and what that changes.
        let product = table.stdoutText.split(separator: "\n").first { $0.hasPrefix("server: ") }.map(String.init) ?? ""
        switch name {
        case "davical":
            #expect(
                product.contains("DAViCal (server = \"davical\")") && product.contains("SCHEDULE-AGENT=CLIENT"),
                "\(product)")
        case "sabre":
            #expect(
                product.contains("sabre/dav (server = \"sabre\")") && product.contains("Schedule-Reply: F"),
                "\(product)")
        case "sogo":
            #expect(product.contains("SOGo (server = \"sogo\")"), "\(product)")
        case "cyrus":  // named in its answer to OPTIONS
            #expect(product.contains("Cyrus (server = \"cyrus\")"), "\(product)")
        case "xandikos":  // its aiohttp Server header
            #expect(
                product.contains("Xandikos (server = \"xandikos\")") && product.contains("sends no meeting messages"),
                "\(product)")
        default:  // Radicale does not name itself in its answers
            #expect(product.hasPrefix("server: not one calgw knows by name") && product.contains("sogo"), "\(product)")
        }
    }

    @Test func testWrongPasswordExitsFive() async throws {
        let server = try TestServers.shared(TestServers.any())
        let result = try await CalgwBinary.run([
            "discover", server.url.absoluteString, "--username", server.username,
            "--password-command", "echo not-the-password",
        ])
        #expect(result.status == 5, "stdout: \(result.stdoutText) stderr: \(result.stderrText)")
        #expect(result.stderrText.contains("error:"))
        #expect(!result.stderrText.contains("not-the-password"))
    }

    @Test func testNonHTTPURLIsAUsageError() async throws {
        let result = try await CalgwBinary.run(["discover", "ftp://example.com/"])
        #expect(result.status == 2)
    }
}

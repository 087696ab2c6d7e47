import CalendarSync
import Foundation
import Testing
import CalgwTestSupport
@testable import calgw

/// `server = "NAME"` and `api = "google"`: the product behind a remote, when its answers do not
/// show it, taken from the facts registry.
extension ConfigFileTests {
    @Test func theServerKeyNamesAProductTheRegistryKnows() throws {
        let config = try parse(
            """
            [pair.uni]
            local = "/v/u"
            remote = "https://mail.example.edu/SOGo/dav/alice/Calendar/personal/"
            server = "sogo"

            [pair.cloud]
            local = "/v/c"
            remote = "https://cloud.example.org/remote.php/dav/calendars/alice/personal/"
            server = "Nextcloud"

            [pair.proxied]
            local = "/v/p"
            remote = "https://proxy.example.org/caldav/v2/alice/events/"
            api = "google"

            [pair.plain]
            local = "/v/d"
            remote = "https://dav.example.com/calendars/alice/personal/"
            """)
        func product(_ name: String) throws -> String? {
            let pair = try #require(config.pairs.first { $0.name == name }).pair
            guard case .server(_, let server) = pair.remote else { return "not a server" }
            return server.product?.name
        }
        #expect(try product("uni") == "sogo")
        #expect(try product("cloud") == "sabre")
        #expect(try product("proxied") == "google")
        #expect(try product("plain") == nil)
    }

    @Test(arguments: [
        ("[pair.p]\nlocal = \"/v\"\nremote = \"https://x/cal/\"\nserver = \"exchange\"", "is \"exchange\""),
        ("[pair.p]\nlocal = \"/v\"\nremote = \"webcal://x/a.ics\"\nserver = \"sogo\"", "which a subscription is not"),
        (
            "[pair.p]\nlocal = \"/v\"\nremote = \"https://graph.microsoft.com/v1.0/me/calendars/A\"\nserver = \"sogo\"",
            "which a remote of graph is not"
        ),
        ("[pair.p]\nlocal = \"/v\"\nremote = \"https://x/cal/\"\nserver = \"sogo\"\napi = \"google\"", "is \"sogo\""),
    ])
    func refusesServerMistakes(_ text: String, _ expected: String) {
        let error = #expect(throws: ConfigError.self) { try parse(text) }
        #expect(error?.message.contains(expected) == true, "\(String(describing: error))")
    }
}

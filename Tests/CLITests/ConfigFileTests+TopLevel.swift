import Foundation
import Testing
@testable import calgw

/// The top of the file holds the pairs and the keys `watch` reads; anything else is a mistake
/// that would otherwise leave pairs out in silence.
extension ConfigFileTests {
    @Test func aMisspeltPairsTableIsRefusedByName() throws {
        let text = """
            [pairs.work]
            local = "/v/w"
            remote = "https://dav.example.com/cal/"
            """
        #expect {
            try ConfigFile.parse(text, url: URL(fileURLWithPath: "/c.toml"))
        } throws: { error in
            let message = "\(error)"
            return message.contains("pairs is not a key")
                && (error as? ConfigError)?.hint?.contains("[pair.NAME]") == true
        }
    }

    @Test func theKeysWatchReadsStandAtTheTop() throws {
        let config = try ConfigFile.parse(
            """
            notify_command = ["notify-send", "{summary}"]
            missed_alarms = "2h"

            [pair.work]
            local = "/v/w"
            remote = "https://dav.example.com/cal/"
            """, url: URL(fileURLWithPath: "/c.toml"))
        #expect(config.pairs.map(\.name) == ["work"])
    }
}

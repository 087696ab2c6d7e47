import CalgwTestSupport
import Testing

extension Trait where Self == ConditionTrait {
    /// A test of one server's own behaviour: reported as skipped, saying so, when
    /// `CALGW_TEST_SERVERS` leaves that server out.
    public static func needsServer(_ name: String) -> Self {
        .enabled(if: TestServers.selected.contains(name), "needs \(name), which CALGW_TEST_SERVERS leaves out")
    }
}

import CalgwTestSupport
import Testing

extension Trait where Self == ConditionTrait {
    /// A test of size or a campaign: in the default run it is reported as skipped, with the
    /// command that runs it.
    public static var loadRun: Self {
        .enabled(if: TestLoad.isOn, "a load test: run it with CALGW_LOAD=1 Scripts/test")
    }

    /// A test of one server's own behaviour: reported as skipped, saying so, when
    /// `CALGW_TEST_SERVERS` leaves that server out.
    public static func needsServer(_ name: String) -> Self {
        .enabled(if: TestServers.selected.contains(name), "needs \(name), which CALGW_TEST_SERVERS leaves out")
    }
}

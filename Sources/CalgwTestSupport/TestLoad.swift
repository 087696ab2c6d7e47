import Foundation

/// The default run checks every behaviour at the smallest size that still exercises it (a
/// streamed answer larger than every buffer, more than one page, writes in parallel); the load
/// run (`CALGW_LOAD=1 Scripts/test`) adds the sizes and campaigns on top.
public enum TestLoad {
    /// Whether this is the load run (`CALGW_LOAD=1`).
    public static var isOn: Bool { ProcessInfo.processInfo.environment["CALGW_LOAD"] == "1" }

    /// `normal` in the default run, `load` in the load run.
    public static func size(_ normal: Int, load: Int) -> Int { isOn ? load : normal }
}

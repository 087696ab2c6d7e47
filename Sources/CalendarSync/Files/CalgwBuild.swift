import HTTP

/// What this build of calgw is, for `calgw --version`: its version and, for a packaged build,
/// the commit (``BuildStamp``, kept where the User-Agent reads it).
public enum CalgwBuild {
    /// `0.1.0 (3f2a9c1)`, or the version alone.
    public static var text: String { BuildStamp.text }
}

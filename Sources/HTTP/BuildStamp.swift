/// What this build of calgw is: its version (the release tag it was built from) and the
/// commit. `Scripts/package` writes both into its copy of this file before a release build; a
/// build from a checkout says the version of its last release and no commit.
public enum BuildStamp {
    /// The version, as the release's tag names it without its `v`.
    public static let version = "0.1.0"
    /// The commit the build was made from (abbreviated); nil for a build from a checkout.
    public static let commit: String? = nil

    /// `0.1.0 (3f2a9c1)`, or the version alone.
    public static var text: String { commit.map { "\(version) (\($0))" } ?? version }
}

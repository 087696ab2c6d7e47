import CCurl

/// The versions a request names or reports: calgw's (in the User-Agent) and libcurl's.
public enum HTTPVersions {
    /// The version of the libcurl this build talks HTTP through.
    public static var curlVersion: String { String(cString: ccurl_version()) }

    /// calgw's version, sent in the User-Agent.
    public static var calgwVersion: String { BuildStamp.version }
}

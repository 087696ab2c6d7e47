import CCurl

/// Remote storage over CalDAV (RFC 4791) on libcurl.
public enum CalDAVTransport {
    /// The version of the libcurl this build talks HTTP through.
    public static var curlVersion: String { String(cString: ccurl_version()) }

    /// calgw's version, sent in the User-Agent.
    public static let calgwVersion = "0.1.0"
}

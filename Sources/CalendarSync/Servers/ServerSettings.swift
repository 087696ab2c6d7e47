import Foundation

/// What calgw needs to reach a server: how it signs in, which certificates it trusts, and how
/// much of an answer it accepts. A pair's remote (and, in a pair of two servers, its local
/// side) carries one in its ``Pair/Endpoint``; the library makes the client and the storage
/// from it only when a run needs the server, so the secret is read then and not before.
///
/// The same values reach a calendar of any provider and a subscribed feed; only ``api`` says
/// which provider speaks, where the URL alone does not.
public struct ServerSettings: Equatable, Sendable {
    /// How requests authenticate. Default: without credentials.
    public var signIn: SignIn
    /// A PEM file of CA certificates to trust instead of the system's. Default: nil, the
    /// system's.
    public var caFile: String?
    /// The server's public key, pinned: `sha256//BASE64` of its SubjectPublicKeyInfo (curl's
    /// `--pinnedpubkey` form). Default: nil, no pin. Another form is refused when a client is
    /// made (``ConnectionFailure/malformedPin``).
    public var pinnedPublicKey: String?
    /// The largest response body accepted; a server answering more is cut off with a clear
    /// error. Default: nil, the HTTP client's own limit.
    public var maxResponseBytes: Int?
    /// A feed's longest accepted line (subscriptions only). Default: nil, the storage's own limit.
    public var maxLineLength: Int?
    /// The server product the config names (`server = "sogo"`, `api = "google"` for Google's
    /// CalDAV behind another host: a proxy, a test server), whose facts are taken instead of
    /// those its URL and answers show (``facts(at:identity:)``). Default: nil, detected.
    public var product: ServerProduct?
    /// The provider that speaks at the remote's URL, by name (`api = "graph"` on a host other
    /// than the one it claims: a proxy, a test server). Default: nil, the one that claims the
    /// URL, else CalDAV (``CalendarProviders``).
    public var api: String?

    /// Settings that sign in with `signIn` and otherwise keep every default.
    public init(
        signIn: SignIn = SignIn(), caFile: String? = nil, pinnedPublicKey: String? = nil,
        maxResponseBytes: Int? = nil, maxLineLength: Int? = nil
    ) {
        self.signIn = signIn
        self.caFile = caFile
        self.pinnedPublicKey = pinnedPublicKey
        self.maxResponseBytes = maxResponseBytes
        self.maxLineLength = maxLineLength
    }
}

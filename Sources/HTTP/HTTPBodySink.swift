import Foundation

/// Takes a response body as it arrives instead of the client collecting it, so an answer of
/// any size costs no more memory than the sink keeps. Only the bytes of a 2xx response reach
/// it; other responses (redirects, challenges, errors) are collected as usual for their
/// messages.
///
/// `receive` runs on the HTTP engine's thread, between network reads: keep it quick, and never
/// wait there for another request of the same client.
public protocol HTTPBodySink: AnyObject, Sendable {
    /// A 2xx body from `url` begins (the URL the request ended at, after redirects).
    func begin(from url: URL) throws
    /// The next bytes of the body. Throwing aborts the transfer; `send` throws that error.
    func receive(_ bytes: UnsafeRawBufferPointer) throws
}

extension HTTPBodySink {
    /// Does nothing, for sinks that do not need the URL.
    public func begin(from url: URL) throws {}
}

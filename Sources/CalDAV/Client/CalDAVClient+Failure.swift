import Foundation
import HTTP
import Logging

extension CalDAVClient {
    /// The error for a write the server did not take. Its message keeps the first meaningful
    /// line of the server's page (``ServerReason``); a server's own failure (5xx) may answer a
    /// whole page, such as DAViCal's PHP stack traces, which is logged at info level (`-v`)
    /// for whoever wants to see it, never printed with the error.
    func failure(_ response: HTTPResponse, method: String, url: URL) -> HTTPError {
        if response.status >= 500, !response.body.isEmpty {
            let page = String(decoding: response.body.prefix(16_384), as: UTF8.self)
            logger.info(
                "\(method) \(url.redactedString) answered \(response.status); the server's page follows\n\(page)")
        }
        return HTTPError.status(response, method: method, url: url)
    }
}

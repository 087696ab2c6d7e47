import Foundation
import HTTP

/// Reads each `DAV:response` of a multistatus straight into a `DAVMember`: only the texts a
/// member holds are kept (its href and status, and from each propstat its status, getetag and
/// calendar-data) and no element is built. The values are those `DAVResponse` gives: the first
/// href and status of the response, and of the properties in 2xx propstats the first of each.
///
/// Its state is read and written by libxml2's callbacks, one at a time on the thread that feeds
/// the parser, a dozen times an element: its properties are not checked for overlapping access
/// at run time (`@exclusivity(unchecked)`), which cost more than the callbacks' own work.
final class MemberBuilder: MultistatusHandler {
    let maxResponseBytes: Int
    let onMember: (DAVMember) throws -> Void
    @exclusivity(unchecked) private(set) var syncToken: String?
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private(set) var path: [String] = []
    @exclusivity(unchecked) private var depth = 0

    /// The element whose text is being kept, and its depth (text inside its children is not its own).
    private enum Field { case none, href, status, propstatStatus, etag, calendarData, syncToken, scheduleTag }
    @exclusivity(unchecked) private var field = Field.none
    @exclusivity(unchecked) private var fieldDepth = 0
    /// The kept text of a short field (href, status, etag, sync-token), and of a calendar-data.
    @exclusivity(unchecked) private var text: [UInt8] = []
    @exclusivity(unchecked) private var data: [UInt8] = []
    /// Whether every piece of the calendar-data so far came as a CDATA section with CRLF line
    /// ends only (``XMLStreamHandler/text(_:crlf:)``): its CRLFs need no restoring, and it is
    /// taken as it is instead of being searched for line ends again (two passes an item).
    @exclusivity(unchecked) private var dataIsCRLF = true

    /// The response being read.
    @exclusivity(unchecked) private var inResponse = false
    @exclusivity(unchecked) private var responseBytes = 0
    @exclusivity(unchecked) private var href: String?
    @exclusivity(unchecked) private var status: Int?
    @exclusivity(unchecked) private var statusSeen = false
    @exclusivity(unchecked) private var properties = Properties()

    /// The propstat being read: its properties count once its status says 2xx.
    @exclusivity(unchecked) private var inPropstat = false
    @exclusivity(unchecked) private var inProp = false
    @exclusivity(unchecked) private var inResourceType = false
    @exclusivity(unchecked) private var propstatStatus: Int?
    @exclusivity(unchecked) private var propstatStatusSeen = false
    @exclusivity(unchecked) private var found = Properties()

    /// The properties a member takes, each with whether it was seen (the first one counts,
    /// even when empty).
    private struct Properties {
        var etag: String??
        var calendarData: Data??
        var isCollection: Bool?
        var scheduleTag: String??
    }

    init(maxResponseBytes: Int, onMember: @escaping (DAVMember) throws -> Void) {
        self.maxResponseBytes = maxResponseBytes
        self.onMember = onMember
    }

    func start(namespace: String, name: String, attributes: [String: String]) throws {
        depth += 1
        path.append(name)
        let dav = namespace == XMLNamespace.dav
        switch depth {
        case 1:
            try Self.requireRoot(namespace: namespace, name: name)
        case 2:
            if dav && name == "response" {
                inResponse = true
                responseBytes = 0
                href = nil
                status = nil
                statusSeen = false
                properties = Properties()
            } else if dav && name == "sync-token" {
                keep(.syncToken)
            }
        case 3 where inResponse && dav:
            if name == "href" && href == nil {
                keep(.href)
            } else if name == "status" && !statusSeen {
                keep(.status)
            } else if name == "propstat" {
                inPropstat = true
                propstatStatus = nil
                propstatStatusSeen = false
                found = Properties()
            }
        case 4 where inPropstat && dav:
            if name == "prop" {
                inProp = true
            } else if name == "status" && !propstatStatusSeen {
                keep(.propstatStatus)
            }
        case 5 where inProp:
            if dav && name == "getetag" && found.etag == nil {
                keep(.etag)
            } else if namespace == XMLNamespace.caldav && name == "calendar-data" && found.calendarData == nil {
                data.removeAll(keepingCapacity: true)
                dataIsCRLF = true
                keep(.calendarData)
            } else if namespace == XMLNamespace.caldav && name == "schedule-tag" && found.scheduleTag == nil {
                keep(.scheduleTag)
            } else if dav && name == "resourcetype" && found.isCollection == nil {
                found.isCollection = false
                inResourceType = true
            }
        case 6 where inResourceType:
            if dav && name == "collection" { found.isCollection = true }
        default:
            break
        }
    }

    func end() throws {
        defer {
            depth -= 1
            path.removeLast()
        }
        if field != .none && depth == fieldDepth { finishField() }
        if inResponse && responseBytes > maxResponseBytes {
            throw HTTPError(
                .responseTooLarge,
                "one response of the server's multistatus holds over \(maxResponseBytes) bytes of text")
        }
        switch depth {
        case 2 where inResponse:
            inResponse = false
            count += 1
            guard let href else { return }
            var member = DAVMember(
                href: href, status: status, etag: properties.etag ?? nil,
                calendarData: properties.calendarData ?? nil, isCollection: properties.isCollection ?? false)
            member.scheduleTag = properties.scheduleTag ?? nil
            try onMember(member)
        case 3 where inPropstat:
            inPropstat = false
            let code = propstatStatus ?? 200
            guard (200..<300).contains(code) else { return }
            if properties.etag == nil { properties.etag = found.etag }
            if properties.calendarData == nil { properties.calendarData = found.calendarData }
            if properties.isCollection == nil { properties.isCollection = found.isCollection }
            if properties.scheduleTag == nil { properties.scheduleTag = found.scheduleTag }
        case 4 where inProp:
            inProp = false
        case 5 where inResourceType:
            inResourceType = false
        default:
            break
        }
    }

    func text(_ bytes: UnsafeRawBufferPointer) { text(bytes, crlf: false) }

    func text(_ bytes: UnsafeRawBufferPointer, crlf: Bool) {
        guard field != .none, depth == fieldDepth else { return }
        if inResponse {
            responseBytes += bytes.count
            guard responseBytes <= maxResponseBytes else { return }  // refused at the element's end
        }
        if field == .calendarData {
            data.append(contentsOf: bytes)
            dataIsCRLF = dataIsCRLF && crlf
        } else {
            text.append(contentsOf: bytes)
        }
    }

    private func keep(_ next: Field) {
        field = next
        fieldDepth = depth
        text.removeAll(keepingCapacity: true)
    }

    private func finishField() {
        switch field {
        case .none: break
        case .href: href = trimmedText()
        case .status:
            statusSeen = true
            status = statusCodeOfText()
        case .propstatStatus:
            propstatStatusSeen = true
            propstatStatus = statusCodeOfText()
        case .etag:
            let etag = trimmedText()
            found.etag = .some(etag.isEmpty ? nil : etag)
        case .calendarData:
            found.calendarData = .some(
                data.isEmpty
                    ? nil
                    : LineEnds.terminated(
                        dataIsCRLF ? Data(data) : data.withUnsafeBytes { LineEnds.restoringCRLF($0) }))
        case .syncToken:
            syncToken = trimmedText()
        case .scheduleTag:
            let tag = trimmedText()
            found.scheduleTag = .some(tag.isEmpty ? nil : tag)
        }
        field = .none
    }

    /// The kept text without white space at either end, as `XMLNode.trimmedText`.
    private func trimmedText() -> String {
        var start = text.startIndex, end = text.endIndex
        while start < end, Self.isASCIISpace(text[start]) { start += 1 }
        while end > start, Self.isASCIISpace(text[end - 1]) { end -= 1 }
        let trimmed = String(decoding: text[start..<end], as: UTF8.self)
        // White space beyond ASCII (a no-break space, U+2028, …) is rare: trim it the slow way.
        if start < end, text[start] >= 0x80 || text[end - 1] >= 0x80 { return trimmed.trimmingWhitespaceAndNewlines() }
        return trimmed
    }

    /// `Multistatus.statusCode(trimmedText())`, read from the kept bytes without a string; the
    /// slow way when white space beyond ASCII could be trimmed.
    private func statusCodeOfText() -> Int? {
        var start = text.startIndex, end = text.endIndex
        while start < end, Self.isASCIISpace(text[start]) { start += 1 }
        while end > start, Self.isASCIISpace(text[end - 1]) { end -= 1 }
        if start < end, text[start] >= 0x80 || text[end - 1] >= 0x80 { return Multistatus.statusCode(trimmedText()) }
        return text.withUnsafeBufferPointer { Multistatus.statusCode(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }

    /// Space, tab, LF, VT, FF, CR: the ASCII part of `CharacterSet.whitespacesAndNewlines`.
    private static func isASCIISpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }
}

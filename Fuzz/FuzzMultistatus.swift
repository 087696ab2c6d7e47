// libFuzzer entry point for the DAV multistatus readers and the error-body reader.
// Built by Scripts/fuzz together with Sources/CalDAV's XML and model files, over the HTTP module's error.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultistatus(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Data(bytes: data, count: size)
    _ = ServerReason.extract(from: body)
    guard let multistatus = try? Multistatus(body) else { return 0 }
    for response in multistatus.responses {
        // Every accessor a listing uses must answer without trapping.
        _ = response.text(XMLNamespace.dav, "getetag")
        _ = response.text(XMLNamespace.caldav, "calendar-data")
        _ = response.hasResourceType(XMLNamespace.caldav, "calendar")
        _ = response.property(XMLNamespace.dav, "displayname")?.attributes
        _ = response.status.map { $0 + 0 }
    }
    // The members reader must read what the element reader reads.
    guard let read = try? Multistatus.members(of: body) else { fatalError("the members reader refused what the element reader read") }
    let expected = multistatus.responses.map { response in
        DAVMember(href: response.href, status: response.status, etag: response.text(XMLNamespace.dav, "getetag"),
                  calendarData: (response.property(XMLNamespace.caldav, "calendar-data")?.text)
                      .flatMap { $0.isEmpty ? nil : LineEnds.restoringCRLF(Data($0.utf8)) },
                  isCollection: response.hasResourceType(XMLNamespace.dav, "collection"))
    }
    if read.members != expected || read.syncToken != multistatus.syncToken { fatalError("the members reader read otherwise") }
    return 0
}

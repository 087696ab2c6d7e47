// libFuzzer entry point for the DAV multistatus reader and the error-body reader.
// Built by Scripts/fuzz together with Sources/CalDAV's XML, model and error files.
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
    return 0
}

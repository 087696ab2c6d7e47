extension TimeZoneResolver {
    /// The Windows name CLDR gives an IANA zone (its territory 001 entry): `Europe/Berlin` →
    /// `W. Europe Standard Time`, for writers to services that want Windows names (Microsoft
    /// Graph, Exchange). Nil for a zone no Windows name stands for directly, such as
    /// `Europe/Amsterdam` or a newer spelling (`Asia/Kolkata`, where CLDR has `Asia/Calcutta`).
    public static func windowsName(forIANA identifier: String) -> String? {
        windowsNameByIANA[clean(identifier)]
    }

    /// Every Windows name CLDR knows, with the IANA zone it stands for.
    public static var ianaByWindowsName: [String: String] { WindowsZones.ianaByWindowsName }

    private static let windowsNameByIANA: [String: String] = {
        var names: [String: String] = [:]
        // Several Windows names may share a zone (none do in territory 001 today): the first
        // in alphabetical order wins, so the answer never depends on dictionary order.
        for (windows, iana) in WindowsZones.ianaByWindowsName.sorted(by: { $0.key < $1.key })
        where names[iana] == nil {
            names[iana] = windows
        }
        return names
    }()
}

extension String {
    /// ASCII upper case, without Unicode case mapping, and without a copy when the name is
    /// upper case already (as parsed names always are). iCalendar names are ASCII.
    var asciiUppercased: String {
        func isLower(_ b: UInt8) -> Bool { b >= 0x61 && b <= 0x7A }
        // Over the string's own bytes when it has them in one piece (a native or literal
        // string): a property lookup asks this of its name each time.
        let hasLower =
            utf8.withContiguousStorageIfAvailable { $0.contains(where: isLower) } ?? utf8.contains(where: isLower)
        guard hasLower else { return self }
        return String(decoding: utf8.map { isLower($0) ? $0 - 0x20 : $0 }, as: UTF8.self)
    }
}

extension String {
    /// ASCII upper case, without Unicode case mapping, and without a copy when the name is
    /// upper case already (as parsed names always are). iCalendar names are ASCII.
    var asciiUppercased: String {
        var hasLower = false
        for b in utf8 where b >= 0x61 && b <= 0x7A { hasLower = true; break }
        guard hasLower else { return self }
        return String(decoding: utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
    }
}

/// The shapes of the names and values a config file holds, checked byte by byte: a regular
/// expression loaded ICU's engine in every run that read the file (a twentieth of a no-op).
enum ConfigText {
    /// True for a text of one or more ASCII letters, digits and bytes of `extra`.
    static func isWord(_ text: String, alsoAllowing extra: String) -> Bool {
        let allowed = Array(extra.utf8)
        return !text.isEmpty
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "a")...UInt8(ascii: "z"):
                    true
                default: allowed.contains(byte)
                }
            }
    }

    /// True for a sync window as `-90d..+365d`: days before and after today, each an optional
    /// sign, digits and `d`.
    static func isWindow(_ text: String) -> Bool {
        var rest = text.utf8[...]
        func days() -> Bool {
            if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { rest = rest.dropFirst() }
            let digits = rest.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            guard digits > 0, rest.dropFirst(digits).first == UInt8(ascii: "d") else { return false }
            rest = rest.dropFirst(digits + 1)
            return true
        }
        guard days(), rest.starts(with: "..".utf8) else { return false }
        rest = rest.dropFirst(2)
        return days() && rest.isEmpty
    }
}

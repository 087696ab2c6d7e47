/// A mailbox from an address header: `Name <addr>`, `"Quoted, Name" <addr>`, or a bare `addr`.
public struct MailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address itself, `local@domain`, as written.
    public var address: String
    /// The display name, unquoted and with its encoded words decoded; nil when there is none.
    public var name: String?

    public init(address: String, name: String? = nil) {
        self.address = address
        self.name = name
    }

    /// The one address in `text`, or nil when it holds none.
    public init?(parsing text: String) {
        guard let first = Self.list(text).first else { return nil }
        self = first
    }

    /// Every mailbox in an address-list header (From, To, Cc: RFC 5322 §3.4), in order.
    ///
    /// Commas separate mailboxes except inside quotes, angle brackets and comments; a group
    /// (`Team: a@x, b@x;`) gives its members; a comment after a bare address (`a@x (Ann)`) is
    /// taken as its name, as old mailers wrote names. Items without an `@` are skipped.
    public static func list(_ text: String) -> [MailAddress] {
        var items: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        var angle = 0
        var comment = 0
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
                continue
            }
            switch character {
            case "\\" where quoted || comment > 0:
                escaped = true
            case "\"" where comment == 0:
                quoted.toggle()
            case "(" where !quoted:
                comment += 1
            case ")" where !quoted && comment > 0:
                comment -= 1
            case "<" where !quoted && comment == 0:
                angle += 1
            case ">" where !quoted && comment == 0 && angle > 0:
                angle -= 1
            case ":" where !quoted && comment == 0 && angle == 0:
                current = ""  // a group's name
                continue
            case ",", ";":
                if !quoted && comment == 0 && angle == 0 {
                    items.append(current)
                    current = ""
                    continue
                }
            default:
                break
            }
            current.append(character)
        }
        items.append(current)
        return items.compactMap(mailbox)
    }

    /// The mailbox one list item spells, or nil when it holds no address.
    private static func mailbox(_ item: String) -> MailAddress? {
        let text = item.trimmingWhitespace()
        if let open = text.lastIndex(of: "<"), let close = text[open...].firstIndex(of: ">") {
            let address = text[text.index(after: open)..<close].trimmingWhitespace()
            guard address.contains("@") else { return nil }
            let name = EncodedWords.decode(withoutComments(String(text[..<open])).trimmingWhitespace().unquoted())
            return MailAddress(address: address, name: name.isEmpty ? nil : name)
        }
        var name: String?
        if let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")"), open < close {
            let inside = text[text.index(after: open)..<close].trimmingWhitespace()
            name = inside.isEmpty ? nil : EncodedWords.decode(inside)
        }
        let address = withoutComments(text).trimmingWhitespace().unquoted()
        guard address.contains("@"), !address.contains(" ") else { return nil }
        return MailAddress(address: address, name: name)
    }

    private static func withoutComments(_ text: String) -> String {
        var result = ""
        var depth = 0
        var quoted = false
        for character in text {
            if character == "\"" && depth == 0 { quoted.toggle() }
            if !quoted && character == "(" {
                depth += 1
            } else if !quoted && character == ")" && depth > 0 {
                depth -= 1
            } else if depth == 0 {
                result.append(character)
            }
        }
        return result
    }

    /// `Name <address>`, or the bare address when there is no name.
    public var description: String {
        guard let name else { return address }
        return "\(name) <\(address)>"
    }
}

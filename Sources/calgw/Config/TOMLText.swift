import Foundation

/// Writing TOML by hand, for appending a table to a file without re-serializing (and so
/// losing the comments and layout of) what the person wrote.
enum TOMLText {
    /// A TOML basic string with `"`, `\` and control characters escaped.
    static func string(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += String(format: "\\u%04X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// A bare key when the name allows it, else a quoted key.
    static func key(_ name: String) -> String {
        ConfigText.isWord(name, alsoAllowing: "_-") ? name : string(name)
    }
}

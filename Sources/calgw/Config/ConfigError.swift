/// The config file is missing, unreadable or wrong: exit 2 with what and where.
struct ConfigError: Error, CustomStringConvertible {
    var message: String
    var hint: String?

    init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    var description: String { message }
}

/// A word of a command calgw prints for the person to run (`invitations`' answers): as it is
/// when a shell reads it unchanged, else in single quotes, so that a pair's name or an address
/// with a space or a quote works when pasted.
enum ShellWord {
    /// The characters a POSIX shell reads as themselves anywhere in a word.
    private static let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-")

    /// `word`, quoted for `sh` where it needs it.
    static func quoted(_ word: String) -> String {
        if !word.isEmpty && word.allSatisfy(plain.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

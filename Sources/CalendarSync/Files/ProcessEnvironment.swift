import Foundation

/// This process's environment variables, read one at a time with `getenv`.
///
/// Foundation's `ProcessInfo.environment` decodes every variable into a new dictionary each
/// time it is asked (some 350,000 instructions a call with a desktop's environment), and a
/// command asked it five times before it read a file. calgw never changes its own
/// environment, so reading a variable where it is needed is both cheaper and the same.
public enum ProcessEnvironment {
    /// The value of the variable `name`, or nil when it is not set.
    public static func value(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }
}

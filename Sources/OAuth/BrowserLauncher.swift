import Foundation

/// Opens an address in the person's browser: `$BROWSER` when set (the convention of
/// xdg-open and Python's webbrowser: commands separated by `:`, `%s` standing for the
/// address, else the address added), else `xdg-open`. The browser is not waited for: the
/// sign-in's listener gets the answer.
public enum BrowserLauncher {
    /// Why no browser can be opened here, or nil when one may be: no `$BROWSER`, and no
    /// display (`$DISPLAY`, `$WAYLAND_DISPLAY`: a machine reached over SSH, a server) or no
    /// `xdg-open`. A sign-in then asks for the address to be pasted back at once, instead of
    /// waiting minutes for a browser that never opens.
    public static func unavailable(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let browser = environment["BROWSER"], !browser.isEmpty { return nil }
        let display = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains { !($0 ?? "").isEmpty }
        guard display else {
            return environment["SSH_CONNECTION"] != nil
                ? "this is an SSH session without a display, and $BROWSER is not set"
                : "there is no display ($DISPLAY, $WAYLAND_DISPLAY), and $BROWSER is not set"
        }
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard path.contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/xdg-open") }) else {
            return "xdg-open is not installed, and $BROWSER is not set"
        }
        return nil
    }

    /// Starts the first command that can be started for `url`; does not wait for it.
    public static func open(_ url: URL) {
        let address = url.absoluteString
        var commands: [[String]] = []
        if let browser = ProcessInfo.processInfo.environment["BROWSER"], !browser.isEmpty {
            for command in browser.split(separator: ":") {
                var words = command.split(separator: " ").map(String.init)
                if let i = words.firstIndex(of: "%s") { words[i] = address } else { words.append(address) }
                commands.append(words)
            }
        }
        commands.append(["xdg-open", address])
        for argv in commands {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = argv
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            if (try? process.run()) != nil { return }
        }
    }
}

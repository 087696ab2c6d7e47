import Foundation

/// Opens an address in the person's browser: `$BROWSER` when set (the convention of
/// xdg-open and Python's webbrowser: commands separated by `:`, `%s` standing for the
/// address, else the address added), else `xdg-open`. The browser is not waited for: the
/// sign-in's listener gets the answer.
public enum BrowserLauncher {
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

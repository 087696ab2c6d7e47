import ArgumentParser

/// Options every command takes for its output.
///
/// `-v` and `-q` may also stand before the command name (`calgw -q sync`): see
/// ``GlobalOptionsPlacement``.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print one JSON document on stdout instead of text for people.")
    var json = false

    @Flag(
        name: [.customShort("v"), .customLong("verbose")],
        help:
            "Say more on stderr: -v what is being done, -vv every HTTP request, -vvv their headers (credentials blanked)."
    )
    var verbosity: Int

    /// At least one `-v`.
    var verbose: Bool { verbosity > 0 }

    @Flag(name: [.short, .long], help: "Print nothing but errors.")
    var quiet = false
}

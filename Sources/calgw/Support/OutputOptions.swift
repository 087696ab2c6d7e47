import ArgumentParser

/// Options every command takes for its output.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print one JSON document on stdout instead of text for people.")
    var json = false

    @Flag(name: [.short, .long], help: "Say more about what is being done (on stderr).")
    var verbose = false

    @Flag(name: [.short, .long], help: "Print nothing but errors.")
    var quiet = false
}

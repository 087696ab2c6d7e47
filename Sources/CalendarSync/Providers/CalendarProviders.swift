import Foundation
import Synchronization

/// The providers calgw knows, by name: CalDAV's and Graph's from the start, and any a program
/// registers (``register(_:)``) before it reads a config.
enum CalendarProviders {
    /// Every provider, CalDAV first: it speaks wherever no other claims the URL.
    private static let known = Mutex<[any CalendarProvider]>([CalDAVProvider(), GraphProvider()])

    /// Adds `provider`, or replaces the one of its name.
    static func register(_ provider: any CalendarProvider) {
        known.withLock { providers in
            providers.removeAll { $0.name == provider.name }
            providers.append(provider)
        }
    }

    /// The provider named `name` (`caldav`, `graph`), nil for a name none has.
    static func named(_ name: String) -> (any CalendarProvider)? {
        known.withLock { providers in providers.first { $0.name == name } }
    }

    /// The provider of a remote at `url`: the one `api` names, else the one that claims the
    /// URL, else CalDAV.
    static func provider(api: String?, at url: URL) -> any CalendarProvider {
        known.withLock { providers in
            api.flatMap { api in providers.first { $0.name == api } } ?? providers.first { $0.claims(url) }
                ?? providers[0]
        }
    }
}

/// What the executable and the config reader may ask of the registry without knowing the
/// providers' types.
public enum ProviderNames {
    /// The names the config's `api` and `discover --api` take, in registration order.
    public static var all: [String] { CalendarProviders.names }

    /// The name of the provider that alone speaks at `url` (Graph at graph.microsoft.com),
    /// nil where the choice is the config's.
    public static func claiming(_ url: URL) -> String? { CalendarProviders.claiming(url)?.name }
}

extension CalendarProviders {
    /// Every provider's name, in registration order.
    static var names: [String] { known.withLock { $0.map(\.name) } }

    /// The provider that alone speaks at `url`, if one does.
    static func claiming(_ url: URL) -> (any CalendarProvider)? {
        known.withLock { providers in providers.first { $0.claims(url) } }
    }
}

import Foundation

extension OAuthLogin {
    /// What the person reads as the browser sign-in starts: the address (in case no browser
    /// opens), the time limit, and what to check if the provider shows an error page instead
    /// of a sign-in (nothing comes back then, and calgw would only wait).
    ///
    /// When the listener could not name the provider's usual loopback host (Microsoft's
    /// `localhost`, which needs [::1] held as well), the redirect names 127.0.0.1, and the
    /// prompt says why and what the app registration must list for it: a registration that
    /// lists only `http://localhost` refuses the sign-in (AADSTS50011).
    func browserPrompt(for url: URL, listener: LoopbackListener) -> String {
        let minutes = Int(Self.browserTimeout / 60)
        var prompt =
            "Opening the sign-in page in a browser; if none opens, open this address:\n\n  \(url.absoluteString)\n\n"
            + "Waiting up to \(minutes) minutes (Ctrl-C to stop; `calgw login --no-browser` signs in from another "
            + "machine). If the page shows an error instead of a sign-in, check the pair's client_id and that "
            + "http://\(listener.host)/ is a redirect address of the app registration."
        if let fallback = listener.fallback {
            prompt +=
                "\n\nThe browser is sent back to \(listener.redirectURI), not to http://\(provider.loopbackHost): "
                + "\(fallback), and a browser may try that address for \(provider.loopbackHost). The app "
                + "registration must list http://\(listener.host) as a redirect URI for this sign-in"
                + (provider.preset == .microsoft
                    ? " (Microsoft's portal takes an http address other than localhost only in the app's Manifest, "
                        + "under replyUrlsWithType); or sign in with calgw login --device."
                    : ".")
        }
        return prompt
    }
}

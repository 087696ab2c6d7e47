import Foundation
import Testing
@testable import OAuth

/// The sign-in's pieces that need no server: PKCE's challenge, the redirect's query, the id
/// token's account.
@Suite struct PKCETests {
    /// RFC 7636, Appendix B.
    @Test func theChallengeIsTheRFCsExample() {
        #expect(
            PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk").challenge
                == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test func verifiersAreLongEnoughAndNeverRepeat() {
        let a = PKCE(), b = PKCE()
        #expect(a.verifier.count == 43 && a.verifier != b.verifier)
        #expect(a.verifier.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }

    @Test func aRedirectsQueryIsDecoded() {
        let query = LoopbackListener.query(of: "/?code=a%2Bb+c&state=s%3D&state=forged&error_description=x")
        #expect(query == ["code": "a+b c", "state": "s=", "error_description": "x"])
    }

    @Test func theAccountIsTheIdTokensEmail() {
        let payload = PKCE.base64URL(Data(#"{"email":"alice@example.org","sub":"1"}"#.utf8))
        #expect(IDToken.account(in: "e30.\(payload).sig") == "alice@example.org")
        #expect(IDToken.account(in: "not a token") == nil)
    }
}

import Mail
import Testing

@Suite struct MailAddressTests {
    @Test func namesQuotesAndBareAddressesAreRead() {
        let list = MailAddress.list(
            #"Ann <ann@example.com>, "Doe, John" <john@example.com>, bare@example.com, "#
                + #"=?utf-8?Q?Ren=C3=A9e?= <renee@example.com>, old@example.com (Old Style)"#)
        #expect(
            list == [
                MailAddress(address: "ann@example.com", name: "Ann"),
                MailAddress(address: "john@example.com", name: "Doe, John"),
                MailAddress(address: "bare@example.com"),
                MailAddress(address: "renee@example.com", name: "Renée"),
                MailAddress(address: "old@example.com", name: "Old Style"),
            ])
    }

    @Test func groupsGiveTheirMembers() {
        let list = MailAddress.list("Team: a@example.com, \"B, b\" <b@example.com>;, c@example.com, Empty:;")
        #expect(list.map(\.address) == ["a@example.com", "b@example.com", "c@example.com"])
        #expect(list[1].name == "B, b")
    }

    @Test func itemsWithoutAnAddressAreSkipped() {
        #expect(MailAddress.list("undisclosed-recipients:;").isEmpty)
        #expect(MailAddress(parsing: "nobody") == nil)
    }
}

import CalDAV
import Foundation
import Testing
@testable import CalendarSync

/// What a server does, declared per product and found from what the server says of itself.
@Suite struct ServerFactsTests {
    let home = URL(string: "https://dav.example.org/calendars/alice/")!

    @Test func theProductIsKnownByTheHeadersOfItsAnswers() {
        #expect(
            ServerFacts.detected(url: home, identity: .init(headers: ["X-DAViCal-Version": "1.1.12"])).product.name
                == "davical")
        #expect(
            ServerFacts.detected(url: home, identity: .init(headers: ["X-Sabre-Version": "4.7.1"])).product.name
                == "sabre")
        #expect(
            ServerFacts.detected(url: home, identity: .init(headers: ["Server": "SOGo/5.8.0"])).product.name == "sogo")
        #expect(
            ServerFacts.detected(url: home, identity: .init(headers: ["Server": "Cyrus-HTTP/3.6.1 Cyrus-SASL/2.1.28"]))
                .product.name
                == "cyrus")
        #expect(ServerFacts.detected(url: home, identity: .init(headers: ["Server": "nginx/1.22"])) == .generic)
        #expect(ServerFacts.detected(url: home) == .generic)
    }

    @Test func googleAndGraphAreKnownByTheirAddress() {
        let google = URL(string: "https://apidata.googleusercontent.com/caldav/v2/a%40b.c/events/")!
        #expect(ServerFacts.detected(url: google).product.name == "google")
        #expect(
            ServerFacts.detected(url: URL(string: "https://graph.microsoft.com/v1.0/me/calendars/A")!).product.name
                == "graph")
    }

    /// The config's name wins over what the answers say (a proxy that hides the server), and
    /// the names people know the engine by lead to it.
    @Test func theConfigsNameWinsAndAliasesLeadToTheEngine() {
        var settings = ServerSettings()
        settings.product = ServerProduct("sogo")
        #expect(
            settings.facts(at: home, identity: .init(headers: ["X-DAViCal-Version": "1.1.12"])).product.name == "sogo")
        #expect(ServerFacts.named("Nextcloud")?.product.name == "sabre")
        #expect(ServerFacts.named("baikal")?.product.name == "sabre")
        #expect(ServerFacts.named("fastmail")?.product.name == "cyrus")
        #expect(ServerFacts.named("exchange") == nil)
        #expect(ServerFacts.names.contains("nextcloud") && ServerFacts.names.contains("davical"))
    }

    /// Each behaviour calgw takes a different way for is a fact of the product, not a flag.
    @Test func whatEachServerDoesWithMeetingCopies() {
        #expect(ServerFacts.generic.meetingCopies == .schedulingSwitch)
        #expect(ServerFacts.named("davical")?.meetingCopies == .scheduleAgentClient)
        #expect(ServerFacts.named("google")?.meetingCopies == .never)
        #expect(ServerFacts.named("graph")?.meetingCopies == .never)
        #expect(ServerFacts.named("sogo")?.storesMeetingCopies == false)
        #expect(ServerFacts.named("google")?.defersWithBare403 == true && !ServerFacts.generic.defersWithBare403)
        if case .never(let advice)? = ServerFacts.named("google")?.makesCalendars {
            #expect(advice.contains("Google Calendar"))
        } else {
            Issue.record("Google makes no calendars over CalDAV")
        }
        #expect(ServerFacts.generic.makesCalendars == .onRequest)
    }

    /// A storage settles its facts once the first answer names the server, and not before.
    @Test func factsSettleOnTheFirstAnswerThatNamesTheServer() throws {
        let settled = SettledFacts(product: nil, url: home)
        let traits = ServerTraits()
        #expect(settled.facts(traits) == .generic)
        let named = SettledFacts(product: ServerProduct("xandikos"), url: home)
        #expect(named.facts(traits).product.name == "xandikos")
        let google = SettledFacts(
            product: nil, url: URL(string: "https://apidata.googleusercontent.com/caldav/v2/x/events/")!)
        #expect(google.facts(traits).product.name == "google")
    }

    /// The note of a copy kept back names the place and who would mail.
    @Test func aKeptCopyIsSaidInTheServersOwnWords() throws {
        let href = ItemHref("/cal/a.ics")
        let graph = MeetingCopyNotSent(href: href, deleting: false, facts: try #require(ServerFacts.named("graph")))
        #expect(graph.keptNote.contains("not sent to Outlook (Graph mails its attendees whenever one is written)"))
        let google = MeetingCopyNotSent(href: href, deleting: true, facts: try #require(ServerFacts.named("google")))
        #expect(google.keptNote.contains("deletion is not sent to Google (Google would mail each attendee"))
        let sogo = MeetingCopyNotSent(href: href, deleting: false, facts: try #require(ServerFacts.named("sogo")))
        #expect(sogo.keptNote.contains("not sent to SOGo (SOGo mails its attendees whenever one is written, whatever"))
    }
}

/// One definition of a meeting, read from the bytes.
@Suite struct MeetingContentTests {
    func calendar(_ lines: [String]) -> Data {
        Data(
            (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:a"] + lines + ["END:VEVENT", "END:VCALENDAR", ""]).joined(
                separator: "\r\n"
            ).utf8)
    }

    @Test func anAttendeeLineMakesAMeeting() {
        #expect(MeetingContent.isMeeting(calendar(["ATTENDEE;CN=Bob:mailto:bob@example.org"])))
        #expect(MeetingContent.isMeeting(calendar(["attendee:mailto:bob@example.org"])))
        #expect(
            MeetingContent.isMeeting(calendar(["ORGANIZER:mailto:a@example.org", "ATTENDEE:mailto:b@example.org"])))
    }

    @Test func theWordElsewhereDoesNot() {
        #expect(!MeetingContent.isMeeting(calendar(["SUMMARY:ATTENDEE:list"])))
        #expect(!MeetingContent.isMeeting(calendar(["DESCRIPTION:the list of", " ATTENDEE:bob is folded"])))
        #expect(!MeetingContent.isMeeting(calendar(["X-ATTENDEE-COUNT:3", "ATTENDEES:none"])))
        #expect(!MeetingContent.isMeeting(calendar(["ORGANIZER:mailto:a@example.org"])))
        #expect(!MeetingContent.isMeeting(Data()))
        #expect(!MeetingContent.isMeeting(Data("ATTENDEE".utf8)))
    }
}

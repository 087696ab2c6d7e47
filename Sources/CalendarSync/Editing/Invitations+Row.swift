import Foundation
import ICalendar

extension Invitations {
    /// One row of `invitations --json`: the invitation's fields at the top (what `jq '.[].uid'` reads),
    /// again under `invitation` as earlier versions gave them; every key always present.
    public struct Row: Encodable {
        /// The pair's name.
        public var pair: String
        /// The calendar's folder: an account's calendar, or the pair's own vdir.
        public var calendar: String
        /// The invitation.
        public var invitation: Invitations.Invitation
        /// DTSTART in RFC 3339 with the offset in force then, as `list --json` gives it
        /// (floating times without an offset, dates as dates).
        public var start: String?
        /// The occurrence an answer to one occurrence is for, in RFC 3339 likewise; nil for
        /// the whole event.
        public var occurrence: String?
        /// The start's instant, to sort by.
        public var instant: Int64
        /// The file holding it.
        public var file: String
        /// The command that accepts it (`--decline`, `--tentative` likewise).
        public var answer: String

        /// The row of `found` in `pair`.
        /// - Parameters:
        ///   - named: the answer names the pair (the config has more than one, so `event reply`
        ///     needs `--pair`).
        ///   - addresses: the `--address` values the invitations were looked for with, which the
        ///     answer needs too (the invitation may name only one of them).
        public init(_ found: Invitations.Found, pair: String, named: Bool, addresses: [String] = []) {
            invitation = found.invitation
            answer = "calgw event reply \(invitation.uid) --accept"
            if named { answer += " --pair \(ShellWord.quoted(pair))" }
            for address in addresses { answer += " --address \(ShellWord.quoted(address))" }
            if found.inAccountCalendar { answer += " --collection \(found.calendar)" }
            // In the form --occurrence reads (2026-04-06T09:30), not as the file writes it.
            if let start = invitation.occurrenceStart { answer += " --occurrence \(OccurrenceText.display(start))" }
            (self.pair, calendar, file) = (pair, found.calendar, found.file.path)
            (start, occurrence, instant) = (
                found.start?.text ?? invitation.start, found.occurrence, found.start?.instant ?? 0
            )
        }

        enum Keys: String, CodingKey {
            case pair, calendar, uid, summary, start, occurrence, organizer, recurring, invitation, file, answer
        }
        enum InvitationKeys: String, CodingKey { case uid, summary, start, zone, occurrence, organizer, recurring }

        /// The invitation's keys at the top and under `invitation`, every one always present.
        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(pair, forKey: .pair)
            try c.encode(calendar, forKey: .calendar)
            try c.encode(invitation.uid, forKey: .uid)
            try c.encode(invitation.summary, forKey: .summary)
            try c.encode(start, forKey: .start)
            try c.encode(occurrence, forKey: .occurrence)
            try c.encode(invitation.organizer, forKey: .organizer)
            try c.encode(invitation.recurring, forKey: .recurring)
            var nested = c.nestedContainer(keyedBy: InvitationKeys.self, forKey: .invitation)
            try nested.encode(invitation.uid, forKey: .uid)
            try nested.encode(invitation.summary, forKey: .summary)
            try nested.encode(start, forKey: .start)
            try nested.encode(invitation.zone, forKey: .zone)
            try nested.encode(occurrence, forKey: .occurrence)
            try nested.encode(invitation.organizer, forKey: .organizer)
            try nested.encode(invitation.recurring, forKey: .recurring)
            try c.encode(file, forKey: .file)
            try c.encode(answer, forKey: .answer)
        }
    }

    /// The invitations of one pair.
    public struct PairInvitations {
        /// The pair.
        public var pair: Pair
        /// The person's addresses the pair's invitations were looked for by.
        public var addresses: [String]
        /// The pair's calendar is shared read-only: its invitations cannot be answered there,
        /// and none were looked for.
        public var readOnly: Bool
        /// What its files hold.
        public var scan: PairScan
    }

    /// The meetings across pairs that name none of the person's addresses.
    public struct Unclaimed {
        /// How many.
        public var count = 0
        /// The UIDs of the first of them (``PairScan/unclaimedKept`` at most), in the pairs'
        /// order.
        public var first: [String] = []
        /// The addresses they were looked for by, sorted.
        public var addresses: [String] = []

        /// The unclaimed meetings of `pairs`.
        public init(_ pairs: [PairInvitations]) {
            var addresses = Set<String>()
            for one in pairs where one.scan.unclaimedCount > 0 {
                count += one.scan.unclaimedCount
                first += one.scan.unclaimed.prefix(PairScan.unclaimedKept - first.count)
                addresses.formUnion(one.addresses)
            }
            self.addresses = addresses.sorted()
        }
    }

    /// The invitations awaiting the person in each of `pairs`, in order: found by `given`
    /// addresses, else by each pair's server's for the account (``OwnAddresses``). Stops at
    /// the first pair whose addresses cannot be found: what came before, and why.
    /// - Parameter cache: where the index of invitations is kept
    ///   (``scan(_:addresses:cache:)``); nil to read every file.
    public static func awaiting(in pairs: [Pair], given: [String], cache: ListingCache? = nil) async -> (
        found: [PairInvitations], failure: (any Error)?
    ) {
        var found: [PairInvitations] = []
        for pair in pairs {
            let own: OwnAddresses
            do { own = try await OwnAddresses.resolve(given: given, pair: pair, offline: false) } catch {
                return (found, error)
            }
            let readOnly = await CalendarAccess.isReadOnly(pair) == true
            found.append(
                PairInvitations(
                    pair: pair, addresses: own.addresses, readOnly: readOnly,
                    scan: readOnly ? PairScan() : scan(pair, addresses: own.addresses, cache: cache)))
        }
        return (found, nil)
    }
}

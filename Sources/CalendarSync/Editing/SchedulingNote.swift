/// Why a person's action on a meeting sends nobody anything, when it does not.
public enum SchedulingNote {
    /// The reason, nil when the server schedules (or was not asked and the pair allows it).
    public static func unsent(pair: Pair, serverSchedules: Bool?) -> String? {
        if !pair.schedules { return "scheduling is off for pair \(pair.name) (scheduling = \"never\" in its config)" }
        if serverSchedules == false { return "this server does not schedule meetings" }
        return nil
    }

    /// Why nobody gets the action's message, neither from the server nor by mail: nil where the
    /// server schedules, or where the pair's `mail_command` mails what the server does not
    /// send (``MeetingMail``, whose lines say what was mailed).
    public static func unsentNorMailed(pair: Pair, serverSchedules: Bool?) -> String? {
        guard let why = unsent(pair: pair, serverSchedules: serverSchedules) else { return nil }
        return pair.schedules && pair.mailCommand != nil ? nil : why
    }
}

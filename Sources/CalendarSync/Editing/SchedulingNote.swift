/// Why a person's action on a meeting sends nobody anything, when it does not.
public enum SchedulingNote {
    /// The reason, nil when the server schedules (or was not asked and the pair allows it).
    public static func unsent(pair: Pair, serverSchedules: Bool?) -> String? {
        if !pair.schedules { return "scheduling is off for pair \(pair.name) (scheduling = \"never\" in its config)" }
        if serverSchedules == false { return "this server does not schedule meetings" }
        return nil
    }
}

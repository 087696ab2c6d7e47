import CalendarSync
import Foundation

/// `ask` on a terminal: shows how the two versions differ and reads a choice from stdin.
enum ConflictPrompt {
    @Sendable static func ask(_ question: ConflictQuestion) -> ConflictStrategy? {
        let local = lines(question.local), remote = lines(question.remote)
        let remoteSet = Set(remote), localSet = Set(local)
        Terminal.err("conflict on \(question.key.value): both sides changed")
        for line in local where !remoteSet.contains(line) { Terminal.err("  local  - \(line)") }
        for line in remote where !localSet.contains(line) { Terminal.err("  remote + \(line)") }
        while true {
            FileHandle.standardError.write(Data("keep [l]ocal, [r]emote, [m]erge, [b]oth, or [s]kip? ".utf8))
            guard let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() else { return nil }
            switch answer {
            case "l", "local": return .localWins
            case "r", "remote": return .remoteWins
            case "m", "merge": return .merge
            case "b", "both": return .keepBoth
            case "s", "skip", "": return nil
            default: continue
            }
        }
    }

    static func lines(_ data: Data) -> [String] {
        String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "")
            .components(separatedBy: "\r\n").filter {
                !$0.isEmpty && !$0.hasPrefix("DTSTAMP") && !$0.hasPrefix("PRODID")
            }
    }
}

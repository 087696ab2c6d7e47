import Foundation

/// Every place where a file's structure breaks, for `lint`: where the parser stops at the
/// first, this reads on, recovering as a person would read the file, so one run lists them
/// all (the checks of the components themselves need a sound structure and are not run).
///
/// Recovery: a line that is not a content line is skipped; an END that closes a component
/// further out closes the ones inside it too; an END matching nothing open is skipped; a
/// BEGIN with a bad name still opens a component (its END then matches it); components left
/// open at the end are each reported.
enum StructureChecks {
    /// The structural errors in `data`, by line.
    static func problems(in data: Data, maximumDepth: Int = ICalendarParser().maximumDepth) -> [LintProblem] {
        var scan = Scan(maximumDepth: maximumDepth)
        var lines = LineAssembler()
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            lines.feed(bytes) { line, number in scan.consume(line, number) }
            lines.finish { line, number in scan.consume(line, number) }
        }
        for open in scan.stack.reversed() {
            scan.fail(
                open.line, "BEGIN:\(open.name) has no END:\(open.name) (the file ends at line \(lines.linesSeen))")
        }
        return scan.problems
    }

    /// The state of one reading: the components open, and what was found.
    private struct Scan {
        let maximumDepth: Int
        var stack: [(name: String, line: Int)] = []
        var sawComponent = false
        var reportedDepth = false
        var problems: [LintProblem] = []

        init(maximumDepth: Int) { self.maximumDepth = maximumDepth }

        mutating func fail(_ line: Int, _ message: String) {
            problems.append(LintProblem(line: line, severity: .error, message: message))
        }

        mutating func consume(_ raw: UnsafeBufferPointer<UInt8>, _ number: Int) {
            let (line, dropped) = LineShape.droppingLeadingWhitespace(raw)
            if dropped && line.isEmpty { return }
            let property: Property
            do {
                property = try ContentLineReader.read(line, lineNumber: number).property
            } catch let error as ICalendarSyntaxError {
                fail(error.line, error.reason)
                return
            } catch {
                fail(number, "\(error)")
                return
            }
            switch property.name {
            case "BEGIN":
                let name = property.value.trimmingCharacters(in: " ").asciiUppercased
                if stack.count >= maximumDepth && !reportedDepth {
                    reportedDepth = true
                    fail(number, "components nest deeper than \(maximumDepth) levels")
                }
                if name.isEmpty {
                    fail(number, "BEGIN without a component name")
                } else if !LineShape.isComponentName(name) {
                    fail(number, "BEGIN:\(printable(name)) is not a component name")
                }
                stack.append((name, number))
                sawComponent = true
            case "END":
                let name = property.value.trimmingCharacters(in: " ").asciiUppercased
                guard let open = stack.last else {
                    fail(number, "END:\(printable(name)) without a matching BEGIN")
                    return
                }
                if open.name == name {
                    stack.removeLast()
                    return
                }
                fail(number, "END:\(printable(name)) closes BEGIN:\(open.name) of line \(open.line)")
                if let match = stack.lastIndex(where: { $0.name == name }) { stack.removeSubrange(match...) }
            default:
                if stack.isEmpty && !sawComponent { fail(number, "\(property.name) comes before any BEGIN") }
            }
        }
    }
}

import ArgumentParser
import QuireCore

/// `--recur`, `--wait` and `--scheduled`, which `add` and `edit` take alike (`none` clears each).
struct PlanOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Make the task recur (it needs a due date): daily, weekly, monthly, yearly, or 3d, 2w, 6m, 1y; none stops the series. Completing an occurrence brings up the next.",
            valueName: "rule"))
    var recur: String?

    // Unconditional, so that a count back from today (`--wait -2d`) reads as the value.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Hide the task from lists until this date (as --due takes it), or none.", valueName: "date"))
    var wait: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The date you plan to start the task (as --due takes it), or none.", valueName: "date"))
    var scheduled: String?

    var isEmpty: Bool { recur == nil && wait == nil && scheduled == nil }

    /// The fields an edit sets.
    func fields() throws(CLIFailure) -> [Field: FieldValue] {
        var fields: [Field: FieldValue] = [:]
        if let recur { fields[.recur] = FieldValue.text(try FieldInput.recurrence(recur)) }
        if let wait { fields[.wait] = FieldValue.text(try FieldInput.due(wait)) }
        if let scheduled { fields[.scheduled] = FieldValue.text(try FieldInput.due(scheduled)) }
        return fields
    }
}

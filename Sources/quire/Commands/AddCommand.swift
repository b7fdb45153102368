import ArgumentParser
import Foundation
import QuireCore
import QuireStore

struct AddCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a note (or a task with --task) and print its id.",
        discussion: """
            The words of the title are joined with spaces, so quotes are optional:
              quire add Buy oat milk --task --tag errands --due 2026-11-30 --project home
              quire add Water the plants --task --due fri --recur weekly
              echo "Details" | quire add "Meeting notes" --body -
            With no title, or with --edit, it opens $VISUAL / $EDITOR (vi by default) on the new \
            item: the first line is the title (a leading '# ' is dropped), the rest the body; \
            saving an empty file adds nothing.
            On a terminal it says 'added c672  Buy oat milk' (the short id lists show); in a \
            pipe it prints the full id alone, which names the item on every device.
            """)

    @Argument(help: ArgumentHelp("The title: one line; none opens the editor.", valueName: "title"))
    var words: [String] = []

    @Flag(help: "Write the item in the editor, starting from the title given.")
    var edit = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The body (Markdown by convention, up to 1 MiB), or - to read it from standard input.", valueName: "text"))
    var body: String?

    @Flag(help: "Make a task, with a checkbox, instead of a note.")
    var task = false

    @Option(help: ArgumentHelp("A tag (a leading # is dropped); repeat the option for more.", valueName: "tag"))
    var tag: [String] = []

    // Unconditional, so that a count back from today (`--due -2d`) reads as the value.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The due date: YYYY-MM-DD, today, tomorrow, yesterday, mon…sun (the next one), eow, eom, eoy, or +3d, +2w, +1m, +1y.",
            valueName: "date"))
    var due: String?

    @Option(help: ArgumentHelp("none, low, medium or high (or l, m, med, h).", valueName: "priority"))
    var priority: String?

    @Option(
        help: ArgumentHelp(
            "A task's project or a note's notebook, parts joined by dots: home.garden.", valueName: "project"))
    var project: String?

    @OptionGroup var plan: PlanOptions

    @Flag(help: "Pin it: pinned items are listed first.")
    var pin = false

    @Flag(help: "Print the new item as one JSON object.")
    var json = false

    func run(store: AppDatabase, out: inout Output) throws {
        var title = words.joined(separator: " ")
        var text = try body.map(BodyInput.read) ?? ""
        var draft: EditorSession.Draft?
        if edit || words.isEmpty {
            // A script that forgot the title must not wait on `vi` with no terminal to type in.
            let environment = ProcessInfo.processInfo.environment
            if !Terminal.isInputTerminal && environment["VISUAL"] == nil && environment["EDITOR"] == nil {
                throw CLIFailure.badInput(
                    "the title is missing: give one, or run quire add on a terminal to write the item in the editor")
            }
            let written = try Self.written(title: title, body: text)
            guard let written else {
                out.line("nothing added: the file was empty")
                return
            }
            (title, text, draft) = written
        }
        let new = NewItem(
            kind: task ? .task : .note,
            title: try Self.keeping(draft) { () throws(CLIFailure) in try FieldInput.title(title) },
            body: try Self.keeping(draft) { () throws(CLIFailure) in try BodyInput.checked(text) },
            tags: tag.map(FieldInput.tag),
            due: try due.flatMap(FieldInput.due),
            priority: try priority.map(FieldInput.priority) ?? .none,
            pinned: pin,
            project: try project.flatMap(FieldInput.project),
            recur: try plan.recur.flatMap(FieldInput.recurrence),
            wait: try plan.wait.flatMap(FieldInput.due),
            scheduled: try plan.scheduled.flatMap(FieldInput.due))
        let item = try Self.keeping(draft) { try store.create(new) }
        draft?.remove()
        if json {
            JSONOutput.item(&out, item)
        } else if Terminal.isOutputTerminal {
            let shortID = try store.shortIDs(for: [item])[item.id] ?? item.id
            out.line("added \(shortID)  \(item.title)")
        } else {
            // Scripts carry the full id: short ids are this device's own.
            out.line(item.id)
        }
    }

    /// What the person wrote in the editor: the first line the title (a leading `# ` dropped),
    /// the rest the body; nil when they saved nothing. The draft stays until the item is saved.
    static func written(title: String, body: String) throws -> (String, String, EditorSession.Draft)? {
        let start = title.isEmpty && body.isEmpty ? "" : title + "\n" + (body.isEmpty ? "" : "\n" + body)
        let draft = try EditorSession().edit(start, name: "new")
        let text = try draft.read()
        guard !text.trimmingWhitespace().isEmpty else {
            draft.remove()
            return nil
        }
        var remaining = Substring(text)
        while let newline = remaining.firstIndex(of: "\n"), String(remaining[..<newline]).trimmingWhitespace().isEmpty {
            remaining = remaining[remaining.index(after: newline)...]
        }
        let end = remaining.firstIndex(of: "\n") ?? remaining.endIndex
        var heading = String(remaining[..<end]).trimmingWhitespace()
        if heading.hasPrefix("# ") { heading = String(heading.dropFirst(2)) }
        var rest = end < remaining.endIndex ? String(remaining[remaining.index(after: end)...]) : ""
        while rest.hasPrefix("\n") { rest.removeFirst() }
        return (heading, rest, draft)
    }

    /// Runs `body`; when it fails, the error says where the person's text is kept.
    static func keeping<T>(_ draft: EditorSession.Draft?, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            guard let draft else { throw error }
            let failure = CLIFailure(error) ?? .badInput("\(error)")
            throw CLIFailure(failure.code, "\(failure.message); nothing added, your text is kept at \(draft.path)")
        }
    }
}

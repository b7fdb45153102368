import ArgumentParser
import QuireCore
import QuireStore

struct AddCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a note (or a task with --task) and print its id.",
        discussion: """
            The words of the title are joined with spaces, so quotes are optional:
              quire add Buy oat milk --task --tag errands --due 2026-11-30 --project home
              echo "Details" | quire add "Meeting notes" --body -
            On a terminal it says 'added c672  Buy oat milk' (the short id lists show); in a \
            pipe it prints the full id alone, which names the item on every device.
            """)

    @Argument(help: ArgumentHelp("The title: one line.", valueName: "title"))
    var words: [String]

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

    @Flag(help: "Pin it: pinned items are listed first.")
    var pin = false

    @Flag(help: "Print the new item as one JSON object.")
    var json = false

    func run(store: AppDatabase, out: inout Output) throws {
        let new = NewItem(
            kind: task ? .task : .note,
            title: try FieldInput.title(words.joined(separator: " ")),
            body: try body.map(BodyInput.read) ?? "",
            tags: tag.map(FieldInput.tag),
            due: try due.flatMap(FieldInput.due),
            priority: try priority.map(FieldInput.priority) ?? .none,
            pinned: pin,
            project: try project.flatMap(FieldInput.project))
        let item = try store.create(new)
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
}

import ArgumentParser
import QuireApp
import QuireCore
import QuireStore

struct EditCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change an item's fields, or open it in your editor.",
        discussion: """
            With field options, sets just those fields:
              quire edit 0193 --title "Buy oat milk" --tag +errands --tag -home --due none
            With none, opens the item in $VISUAL (or $EDITOR, or vi) as a Markdown file with a \
            header of fields; save and quit to apply, or quit without saving to change nothing.
            If the item changed while the editor was open (another terminal, a sync), your save \
            merges with that change; where both changed the same lines, both are kept, the item \
            needs review (see quire conflicts) and the exit status is 5.
            """)

    @Argument(help: ItemIDs.help())
    var id: String

    @Option(parsing: .unconditional, help: ArgumentHelp("A new title.", valueName: "title"))
    var title: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("A new body, or - to read it from standard input.", valueName: "text"))
    var body: String?

    @Option(
        parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "+T adds tag T, -T removes it (a bare T adds it; a leading # is dropped); repeat for more.",
            valueName: "+tag|-tag"))
    var tag: [String] = []

    // Unconditional, so that a count back from today (`--due -2d`) reads as the value.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "A new due date (YYYY-MM-DD, tomorrow, fri, eow, +3d… as add takes), or none to clear it.",
            valueName: "date|none"))
    var due: String?

    @Option(help: ArgumentHelp("none, low, medium or high (or l, m, med, h).", valueName: "priority"))
    var priority: String?

    @Option(help: ArgumentHelp("A new project (home.garden), or none to clear it.", valueName: "project|none"))
    var project: String?

    @OptionGroup var plan: PlanOptions

    @Flag(help: "Pin the item: pinned items are listed first.")
    var pin = false

    @Flag(help: "Unpin the item.")
    var unpin = false

    func validate() throws {
        if pin && unpin { throw ValidationError("--pin and --unpin cannot be used together") }
    }

    var hasFieldOptions: Bool {
        title != nil || body != nil || !tag.isEmpty || due != nil || priority != nil || project != nil
            || !plan.isEmpty || pin || unpin
    }

    func run(store: AppDatabase, out: inout Output) throws {
        let fullID = try ItemIDs.resolve(id, in: store)
        guard let current = try store.item(fullID) else { throw StoreError.notFound(id: fullID) }
        if current.deleted { throw StoreError.deleted(id: current.id, title: current.title) }
        let before = current
        let after: Item
        var met = SavedWrite.Outcome.saved
        if hasFieldOptions {
            var fields: [Field: FieldValue] = [:]
            if let title { fields[.title] = .string(try FieldInput.title(title)) }
            if let body { fields[.body] = .string(try BodyInput.read(body)) }
            if let due { fields[.due] = try FieldInput.due(due).map { .string($0.description) } ?? .null }
            if let priority { fields[.priority] = .string(try FieldInput.priority(priority).rawValue) }
            if let project { fields[.project] = try FieldInput.project(project).map { .string($0) } ?? .null }
            fields.merge(try plan.fields()) { _, new in new }
            if pin || unpin { fields[.pinned] = .bool(pin) }
            let tagChanges = try TagChange.parse(tag)
            after = try store.update(fullID) { item in
                var values = fields
                if !tagChanges.isEmpty { values[.tags] = .strings(TagChange.apply(tagChanges, to: item.tags)) }
                return values
            }
        } else {
            (after, met) = try editInEditor(current, store: store)
        }
        let shortID = try store.shortIDs(for: [after])[after.id] ?? after.id
        switch met {
        case .needsReview:
            out.flush()
            throw CLIFailure(
                .needsReview,
                "\(shortID) changed while the editor was open, in the same place: both versions are kept and it needs review (quire conflicts, quire resolve \(shortID))"
            )
        case .merged:
            out.line("edited: \(shortID)  \(after.title) (merged with a change made while the editor was open)")
        case .saved, .unchanged:
            out.line(after == before ? "no changes: \(shortID)  \(after.title)" : "edited: \(shortID)  \(after.title)")
        }
    }

    /// The editor round trip: only the fields the person changed are written, from the values
    /// the editor opened with, so a concurrent change (a sync, another terminal) merges in
    /// rather than being undone (`AppDatabase.save`).
    private func editInEditor(_ item: Item, store: AppDatabase) throws -> (Item, SavedWrite.Outcome) {
        let original = MarkdownItem.renderForEditing(item)
        let draft = try EditorSession().edit(original, name: String(item.id.prefix(8)))
        let text = try draft.read()
        if text == original {
            draft.remove()
            return (item, .unchanged)
        }
        let edited: Item
        do {
            edited = try MarkdownItem.applyingEdit(text, to: item)
        } catch {
            throw CLIFailure.badInput(
                "cannot read the edited item (\(error.description)); nothing changed, your text is kept at \(draft.path)"
            )
        }
        let changes = edited.changes(since: item)
        let result: SavedWrite
        do {
            result = try store.save(item.id, from: changes.mapValues(\.from), to: changes.mapValues(\.to))
        } catch {
            let failure = CLIFailure(error) ?? CLIFailure.badInput(error.description)
            if failure.code == .unusable { throw failure }
            throw CLIFailure.badInput("\(error.description); nothing changed, your text is kept at \(draft.path)")
        }
        draft.remove()
        return (result.item, result.outcome)
    }
}

/// `--tag +T` / `--tag -T` edits.
enum TagChange: Equatable {
    case add(String)
    case remove(String)

    static func parse(_ values: [String]) throws(CLIFailure) -> [TagChange] {
        try values.map { value throws(CLIFailure) in
            let name = Tags.typed(value.hasPrefix("+") || value.hasPrefix("-") ? String(value.dropFirst()) : value)
            guard !name.isEmpty else { throw .badInput("--tag needs a tag name after + or -") }
            return value.hasPrefix("-") ? .remove(name) : .add(name)
        }
    }

    static func apply(_ changes: [TagChange], to tags: [String]) -> [String] {
        var result = Set(tags)
        for change in changes {
            switch change {
            case .add(let name):
                // A tag already there in another case stays as it is.
                if !result.contains(where: { Tags.same($0, name) }) { result.insert(name) }
            case .remove(let name): result = result.filter { !Tags.same($0, name) }
            }
        }
        return Tags.normalize(result)
    }
}

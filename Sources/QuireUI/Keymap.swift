import QuireCore
import TerminalUI

/// One key binding: the keys, what they do, and the words help shows for them.
public struct KeyBinding: Hashable, Sendable {
    public var context: KeyContext
    public var keys: [Key]
    public var command: Command
    /// The line in help and the README.
    public var help: String
    /// The short label in the key-hint row, when the binding is worth a reminder there.
    public var hint: String?

    public init(_ context: KeyContext, _ keys: [Key], _ command: Command, _ help: String, hint: String? = nil) {
        self.context = context
        self.keys = keys
        self.command = command
        self.help = help
        self.hint = hint
    }

    /// The keys as help writes them: `j / ↓`.
    public var keyNames: String { keys.map(\.name).joined(separator: " / ") }
}

/// The key bindings, as data: key handling, the help screen, the hint row and the README's
/// key table are all read from `Keymap.bindings`, so they cannot disagree.
public enum Keymap {
    public static let bindings: [KeyBinding] = [
        // MARK: List
        KeyBinding(.list, [.character("j"), .down], .moveDown, "move down"),
        KeyBinding(.list, [.character("k"), .up], .moveUp, "move up"),
        KeyBinding(.list, [.character("g"), .home], .moveTop, "go to the top"),
        KeyBinding(.list, [.character("G"), .end], .moveBottom, "go to the bottom"),
        KeyBinding(.list, [.pageDown, .control("f")], .pageDown, "page down"),
        KeyBinding(.list, [.pageUp, .control("b")], .pageUp, "page up"),
        KeyBinding(.list, [.enter], .open, "open the selected item", hint: "open"),
        KeyBinding(.list, [.character("a")], .newNote, "new note", hint: "note"),
        KeyBinding(.list, [.character("t")], .newTask, "new task", hint: "task"),
        KeyBinding(.list, [.character("e")], .edit, "edit the selected item", hint: "edit"),
        KeyBinding(.list, [.character("E")], .editExternally, "edit the selected item in $EDITOR"),
        KeyBinding(.list, [.character("x"), .character(" ")], .toggleDone, "toggle done (tasks)", hint: "done"),
        KeyBinding(.list, [.character("d")], .delete, "delete the selected item", hint: "delete"),
        KeyBinding(.list, [.character("u")], .undo, "undo the last local action", hint: "undo"),
        KeyBinding(.list, [.character("p")], .pin, "pin or unpin"),
        KeyBinding(
            .list, [.character("/")], .search, "search and filter as you type",
            hint: "search"),
        KeyBinding(.list, [.character("f")], .filterKind, "show all, notes, or tasks"),
        KeyBinding(.list, [.character("o")], .filterStatus, "show any, open, or done tasks"),
        KeyBinding(.list, [.character("#")], .filterTag, "show one tag (empty for all)"),
        KeyBinding(.list, [.character("v")], .views, "saved views: the filters named in config.toml's [views]"),
        KeyBinding(
            .list, [.character("O")], .cycleOrder, "sort by due date, priority, creation, last change, or as listed"),
        KeyBinding(
            .list, [.character("A")], .agenda, "the agenda: open tasks overdue or due within 7 days, soonest first"),
        KeyBinding(.list, [.character("T")], .toggleTrash, "the trash (deleted items), or back to the list"),
        KeyBinding(.list, [.character("r")], .restore, "restore the selected item (in the trash)"),
        KeyBinding(.list, [.character("P")], .purge, "delete the selected item for good, after asking (in the trash)"),
        KeyBinding(.list, [.character("h")], .history, "the selected item's history: every version, any restored"),
        KeyBinding(.list, [.character("m")], .toggleMarkdown, "the preview's text rendered as Markdown, or raw"),
        KeyBinding(.list, [.escape], .back, "clear the search, then the filters"),
        KeyBinding(.list, [.character("c")], .nextNeedingReview, "next item needing review"),
        KeyBinding(.list, [.character("s")], .syncNow, "sync now"),
        KeyBinding(.list, [.character("S")], .syncStatus, "sync status"),
        KeyBinding(
            .list, [.character("U")], .unlock,
            "unlock this device (encrypted account): passphrase or recovery key"),
        KeyBinding(.list, [.character("?")], .help, "help", hint: "help"),
        KeyBinding(.list, [.character("q"), .control("c")], .quit, "quit", hint: "quit"),
        KeyBinding(.list, [.control("z")], .suspend, "suspend to the shell (fg comes back)"),

        // MARK: Item view
        KeyBinding(.detail, [.character("j"), .down], .moveDown, "scroll down"),
        KeyBinding(.detail, [.character("k"), .up], .moveUp, "scroll up"),
        KeyBinding(.detail, [.pageDown, .character(" ")], .pageDown, "page down"),
        KeyBinding(.detail, [.pageUp], .pageUp, "page up"),
        KeyBinding(.detail, [.character("e")], .edit, "edit", hint: "edit"),
        KeyBinding(.detail, [.character("E")], .editExternally, "edit in $EDITOR"),
        KeyBinding(
            .detail, [.character("x")], .toggleDone, "toggle done (tasks); tick the selected task box (notes)",
            hint: "done"),
        KeyBinding(.detail, [.character("p")], .pin, "pin or unpin"),
        KeyBinding(.detail, [.character("d")], .delete, "delete"),
        KeyBinding(.detail, [.character("u")], .undo, "undo the last local action"),
        KeyBinding(.detail, [.character("r")], .restore, "restore (an item opened from the trash)"),
        KeyBinding(.detail, [.character("P")], .purge, "delete for good, after asking (an item opened from the trash)"),
        KeyBinding(.detail, [.character("h")], .history, "its history: every version, any restored", hint: "history"),
        KeyBinding(.detail, [.character("m")], .toggleMarkdown, "the text rendered as Markdown, or raw"),
        KeyBinding(.detail, [.character("]")], .nextBox, "select the next task box (- [ ]) of the text"),
        KeyBinding(.detail, [.character("[")], .previousBox, "select the previous task box of the text"),
        KeyBinding(.detail, [.character("b")], .tickBox, "tick or untick the selected task box (the first if none)"),
        KeyBinding(.detail, [.character("L")], .links, "its links and the items that link to it"),
        KeyBinding(.detail, [.character("U")], .unlock, "unlock this device (encrypted account)"),
        KeyBinding(.detail, [.backspace], .linkBack, "back to the item a link was followed from"),
        KeyBinding(
            .detail, [.character("a")], .attachFile, "attach a file by its path (Tab completes it)", hint: "attach"),
        KeyBinding(
            .detail, [.character("o")], .openAttachment,
            "open the selected attached file ($QUIRE_OPEN, else xdg-open)",
            hint: "open file"),
        KeyBinding(
            .detail, [.character("w")], .saveAttachment,
            "save the selected attached file to a path (asks before replacing)", hint: "save file"),
        KeyBinding(.detail, [.tab], .nextAttachment, "select the next attached file"),
        KeyBinding(.detail, [.escape, .character("q")], .back, "back to the list", hint: "back"),
        KeyBinding(.detail, [.character("?")], .help, "help", hint: "help"),
        KeyBinding(.detail, [.control("c")], .quit, "quit"),
        KeyBinding(.detail, [.control("z")], .suspend, "suspend to the shell (fg comes back)"),

        // MARK: Prompts
        KeyBinding(
            .prompt, [.enter], .accept, "keep the search or tag; in a file prompt, attach or save the file",
            hint: "keep"),
        KeyBinding(
            .prompt, [.escape], .cancel, "clear it and go back (a file prompt: changing nothing)", hint: "clear"),
        KeyBinding(.prompt, [.down], .moveDown, "move the selection down"),
        KeyBinding(.prompt, [.up], .moveUp, "move the selection up"),
        KeyBinding(.prompt, [.left], .cursorLeft, "move the cursor left"),
        KeyBinding(.prompt, [.right], .cursorRight, "move the cursor right"),
        KeyBinding(.prompt, [.home, .control("a")], .cursorHome, "to the start"),
        KeyBinding(.prompt, [.end, .control("e")], .cursorEnd, "to the end"),
        KeyBinding(
            .prompt, [.backspace], .deleteBackward,
            "delete before the cursor (the tag it opened with: all of it)"),
        KeyBinding(.prompt, [.tab], .complete, "complete the tag, or the file path (~ is home)"),
        KeyBinding(.prompt, [.control("k")], .killLine, "delete to the end"),
        KeyBinding(.prompt, [.control("w")], .deleteWord, "delete the word before the cursor"),
        KeyBinding(.prompt, [.control("c")], .quit, "quit"),
        KeyBinding(.prompt, [.control("z")], .suspend, "suspend to the shell (fg comes back)"),

        // MARK: Editor
        KeyBinding(
            .editor, [.tab, .backTab], .switchField,
            "move between title and body (Tab after [[ in the body: complete a title)",
            hint: "title/body"),
        KeyBinding(.editor, [.control("s")], .save, "save and go back", hint: "save"),
        KeyBinding(
            .editor, [.escape, .control("c")], .cancel, "go back without saving (asks first if changed)", hint: "cancel"
        ),
        KeyBinding(.editor, [.left], .cursorLeft, "cursor left"),
        KeyBinding(.editor, [.right], .cursorRight, "cursor right"),
        KeyBinding(.editor, [.up], .cursorUp, "cursor up a row (from the body's top: the details line)"),
        KeyBinding(
            .editor, [.down], .cursorDown, "cursor down a row (from the title: the details line of tags, due, priority)"
        ),
        KeyBinding(.editor, [.home, .control("a")], .cursorHome, "start of the row"),
        KeyBinding(.editor, [.end, .control("e")], .cursorEnd, "end of the row"),
        KeyBinding(.editor, [.pageUp], .cursorPageUp, "page up"),
        KeyBinding(.editor, [.pageDown], .cursorPageDown, "page down"),
        KeyBinding(.editor, [.enter], .newline, "new line (in the title or details: go to the body)"),
        KeyBinding(.editor, [.backspace], .deleteBackward, "delete before the cursor"),
        KeyBinding(.editor, [.delete], .deleteForward, "delete at the cursor"),
        KeyBinding(.editor, [.control("k")], .killLine, "delete to the end of the line"),
        KeyBinding(.editor, [.control("w")], .deleteWord, "delete the word before the cursor"),
        KeyBinding(.editor, [.control("z")], .suspend, "suspend to the shell (fg comes back; the text waits)"),

        // MARK: Help
        KeyBinding(.help, [.character("j"), .down], .moveDown, "scroll down"),
        KeyBinding(.help, [.character("k"), .up], .moveUp, "scroll up"),
        KeyBinding(.help, [.pageDown, .character(" ")], .pageDown, "page down"),
        KeyBinding(.help, [.pageUp], .pageUp, "page up"),
        KeyBinding(.help, [.character("g"), .home], .moveTop, "to the top"),
        KeyBinding(.help, [.character("G"), .end], .moveBottom, "to the end"),
        KeyBinding(.help, [.escape, .character("q"), .character("?")], .back, "close help", hint: "close"),
        KeyBinding(.help, [.control("c")], .quit, "quit"),
        KeyBinding(.help, [.control("z")], .suspend, "suspend to the shell (fg comes back)"),

        // MARK: Sync status
        KeyBinding(.syncStatus, [.character("j"), .down], .moveDown, "select the next rejected change"),
        KeyBinding(.syncStatus, [.character("k"), .up], .moveUp, "select the previous rejected change"),
        KeyBinding(
            .syncStatus, [.character("r")], .retryDeadLetter,
            "retry the selected rejected change (sent again under a new id)", hint: "retry"),
        KeyBinding(
            .syncStatus, [.character("D"), .character("x")], .discardDeadLetter,
            "discard the selected rejected change (asks first)", hint: "discard"),
        KeyBinding(
            .syncStatus, [.character("c")], .nextNeedingReview, "resolve the next item needing review", hint: "resolve"),
        KeyBinding(.syncStatus, [.character("s")], .syncNow, "sync now", hint: "sync now"),
        KeyBinding(.syncStatus, [.character("U")], .unlock, "unlock this device (encrypted account)"),
        KeyBinding(
            .syncStatus, [.character("i")], .toggleSyncDetail, "show or hide what the last failure said, word for word"),
        KeyBinding(.syncStatus, [.escape, .character("q")], .back, "back to the list", hint: "back"),
        KeyBinding(.syncStatus, [.control("c")], .quit, "quit"),
        KeyBinding(.syncStatus, [.control("z")], .suspend, "suspend to the shell (fg comes back)"),

        // MARK: Resolve
        KeyBinding(.resolve, [.character("j"), .down], .moveDown, "next conflict"),
        KeyBinding(.resolve, [.character("k"), .up], .moveUp, "previous conflict"),
        KeyBinding(.resolve, [.pageDown, .control("f")], .pageDown, "scroll down (a long hunk)"),
        KeyBinding(.resolve, [.pageUp, .control("b")], .pageUp, "scroll up"),
        KeyBinding(.resolve, [.character("l")], .chooseLocal, "choose this device's version (local)", hint: "local"),
        KeyBinding(.resolve, [.character("r")], .chooseRemote, "choose the server's version (remote)", hint: "remote"),
        KeyBinding(
            .resolve, [.character("b")], .chooseBoth, "keep both: local lines, then remote (body hunks)", hint: "both"),
        KeyBinding(.resolve, [.character("v")], .toggleView, "side by side or unified", hint: "view"),
        KeyBinding(
            .resolve, [.character("e")], .edit, "write it yourself: the merged body, or a title or tags in conflict",
            hint: "edit"),
        KeyBinding(
            .resolve, [.character("p")], .togglePreview, "preview the whole item as chosen so far, or back",
            hint: "preview"),
        KeyBinding(
            .resolve, [.enter, .control("s")], .accept, "accept: save the resolution as a new change", hint: "accept"),
        KeyBinding(.resolve, [.escape], .back, "back to the list, changing nothing", hint: "back"),
        KeyBinding(.resolve, [.character("L")], .chooseAllLocal, "choose local for every conflict", hint: "all local"),
        KeyBinding(
            .resolve, [.character("R")], .chooseAllRemote, "choose remote for every conflict", hint: "all remote"),
        KeyBinding(.resolve, [.control("c")], .quit, "quit"),
        KeyBinding(.resolve, [.control("z")], .suspend, "suspend to the shell (fg comes back)"),

        // MARK: History
        KeyBinding(.history, [.character("j"), .down], .moveDown, "older version"),
        KeyBinding(.history, [.character("k"), .up], .moveUp, "newer version"),
        KeyBinding(.history, [.character("g"), .home], .moveTop, "the newest version"),
        KeyBinding(.history, [.character("G"), .end], .moveBottom, "the oldest version"),
        KeyBinding(
            .history, [.character("r"), .enter], .restoreVersion,
            "restore the selected version: a new change that syncs (u takes it back)", hint: "restore"),
        KeyBinding(.history, [.character("u")], .undo, "undo the last local action"),
        KeyBinding(.history, [.escape, .character("q")], .back, "back", hint: "back"),
        KeyBinding(.history, [.control("c")], .quit, "quit"),
        KeyBinding(.history, [.control("z")], .suspend, "suspend to the shell (fg comes back)"),

        // MARK: Saved views
        KeyBinding(.views, [.character("j"), .down], .moveDown, "next view"),
        KeyBinding(.views, [.character("k"), .up], .moveUp, "previous view"),
        KeyBinding(.views, [.character("g"), .home], .moveTop, "every item (no view)"),
        KeyBinding(.views, [.character("G"), .end], .moveBottom, "the last view"),
        KeyBinding(.views, [.enter], .open, "show the list through the selected view", hint: "show"),
        KeyBinding(.views, [.escape, .character("q")], .back, "back to the list as it was", hint: "back"),
        KeyBinding(.views, [.control("c")], .quit, "quit"),
        KeyBinding(.views, [.control("z")], .suspend, "suspend to the shell (fg comes back)"),
        // MARK: Links
        KeyBinding(.links, [.character("j"), .down], .moveDown, "next link"),
        KeyBinding(.links, [.character("k"), .up], .moveUp, "previous link"),
        KeyBinding(.links, [.enter], .open, "open the item the link reaches", hint: "follow"),
        KeyBinding(.links, [.escape, .character("q")], .back, "back to the item", hint: "back"),
        KeyBinding(.links, [.control("c")], .quit, "quit"),
        KeyBinding(.links, [.control("z")], .suspend, "suspend to the shell (fg comes back)"),

        // MARK: Questions
        KeyBinding(.confirm, [.character("y")], .confirm, "yes", hint: "yes"),
        KeyBinding(.confirm, [.character("n"), .escape], .decline, "no", hint: "no"),
    ]

    /// What a key does in a context; nil when it is not bound there.
    public static func command(for key: Key, in context: KeyContext) -> Command? {
        lookup[LookupKey(context: context, key: key)]
    }

    /// The bindings of one context, in table order.
    public static func bindings(in context: KeyContext) -> [KeyBinding] {
        bindings.filter { $0.context == context }
    }

    /// The key-hint row of one context: the bindings that carry a hint, first key of each.
    public static func hints(in context: KeyContext) -> [(key: String, label: String)] {
        bindings(in: context).compactMap { binding in
            binding.hint.map { (binding.keys[0].name, $0) }
        }
    }

    /// The list's hints in the trash, where only reading, restoring and leaving apply.
    public static var trashHints: [(key: String, label: String)] {
        let labels: [(Command, String)] = [
            (.open, "open"), (.restore, "restore"), (.toggleTrash, "back"), (.search, "search"), (.help, "help"),
            (.quit, "quit"),
        ]
        let list = bindings(in: .list)
        return labels.compactMap { command, label in
            list.first { $0.command == command }.map { ($0.keys[0].name, label) }
        }
    }

    /// The item view's hints for one item: `done` for a task, `tick` for a note with task boxes
    /// (`x` ticks one there), neither for a note without; opening and saving a file only when
    /// files are attached; for an item in the trash, only what applies there (restore, history,
    /// back, help).
    public static func detailHints(for item: Item) -> [(key: String, label: String)] {
        let detail = bindings(in: .detail)
        func hint(_ command: Command, _ label: String) -> (key: String, label: String)? {
            detail.first { $0.command == command }.map { ($0.keys[0].name, label) }
        }
        if item.deleted {
            return [hint(.restore, "restore"), hint(.history, "history"), hint(.back, "back"), hint(.help, "help")]
                .compactMap { $0 }
        }
        let ticks = item.kind == .note && TaskBox.mayHoldBoxes(item.body)
        let fileHints = Set(
            detail.filter { $0.command == .openAttachment || $0.command == .saveAttachment }.compactMap(\.hint))
        return hints(in: .detail).compactMap { hint in
            if fileHints.contains(hint.label) && item.attachments.isEmpty { return nil }
            guard hint.label == "done", item.kind == .note else { return hint }
            return ticks ? (hint.key, "tick") : nil
        }
    }

    private struct LookupKey: Hashable {
        var context: KeyContext
        var key: Key
    }

    private static let lookup: [LookupKey: Command] = {
        var table: [LookupKey: Command] = [:]
        for binding in bindings {
            for key in binding.keys where table[LookupKey(context: binding.context, key: key)] == nil {
                table[LookupKey(context: binding.context, key: key)] = binding.command
            }
        }
        return table
    }()
}

extension Keymap {
    /// The key table as Markdown, one section per context; the README carries this text and a
    /// test checks that it still matches.
    public static func markdown() -> String {
        var out: [String] = []
        for context in KeyContext.allCases {
            let rows = bindings(in: context)
            guard !rows.isEmpty else { continue }
            out.append("#### \(context.title)")
            out.append("")
            out.append("| keys | action |")
            out.append("| --- | --- |")
            for binding in rows {
                let keys = binding.keys.map { "`\($0.markdownName)`" }.joined(separator: " ")
                out.append("| \(keys) | \(binding.help.replacingPipes) |")
            }
            out.append("")
        }
        return out.joined(separator: "\n")
    }
}

extension Key {
    /// The name as Markdown code can hold it (a backtick or pipe would break the table).
    fileprivate var markdownName: String {
        switch self {
        case .character("|"): "Bar"
        case .character("`"): "Backtick"
        default: name
        }
    }
}

extension String {
    fileprivate var replacingPipes: String {
        split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
    }
}

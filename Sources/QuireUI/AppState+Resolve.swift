import QuireCore
import TerminalUI

/// The resolve screen: opening it for the next item that needs review, the choices, the
/// merged-body editor, and accepting.
extension AppState {
    public var resolve: ResolveState? {
        if case .resolve(let resolve) = screen { return resolve }
        return nil
    }

    /// The answer to `c`: open the item's versions, or say that nothing needs review.
    mutating func openReview(_ id: String?) -> [Effect] {
        guard let id else {
            notice = Notice(text: "Nothing needs review", isError: false)
            return []
        }
        // The list shows the item selected underneath, for when the person comes back.
        list.query = ListQuery()
        return [reload(anchorID: .some(id), index: 0), .loadReview(id: id)]
    }

    mutating func showReview(_ id: String, _ versions: ReviewVersions?) -> [Effect] {
        let open = resolve.flatMap { $0.itemID == id ? $0 : nil }
        guard let versions else {
            if open != nil { screen = .list }
            notice = Notice(text: "That item no longer needs review", isError: false)
            return [reload()]
        }
        var fresh = ResolveState(versions)
        if let open {
            // The store changed while the screen was open (sync, another process).
            guard versions != open.versions else { return [] }
            if !fresh.adoptChoices(of: open) {
                notice = Notice(text: "The item changed meanwhile: choose again", isError: false)
            }
        }
        screen = .resolve(fresh)
        return []
    }

    /// On a store change, read the open item's versions again: another device or process may
    /// have changed or resolved it.
    func refreshReview() -> [Effect] {
        guard let resolve, !resolve.saving else { return [] }
        return [.loadReview(id: resolve.itemID)]
    }

    mutating func finishResolve(_ id: String, error: String?) -> [Effect] {
        guard var resolve, resolve.itemID == id else { return [] }
        if let error {
            resolve.saving = false
            screen = .resolve(resolve)
            notice = Notice(text: "Cannot resolve: \(error)", isError: true)
            return []
        }
        screen = .list
        notice = Notice(text: "Resolved", isError: false)
        return [reload(anchorID: .some(id))]
    }

    mutating func resolveCommand(_ command: Command) -> [Effect] {
        guard var resolve, !resolve.saving else { return [] }
        defer { if case .resolve = screen { screen = .resolve(resolve) } }
        switch command {
        case .moveDown where resolve.showsPreview, .moveUp where resolve.showsPreview:
            resolve.scrollOffset = max(0, resolve.scrollOffset + (command == .moveDown ? 1 : -1))
        case .pageDown where resolve.showsPreview, .pageUp where resolve.showsPreview:
            let page = ResolveScreen.chrome(size: size).pageHeight
            resolve.scrollOffset = max(0, resolve.scrollOffset + (command == .pageDown ? page : -page))
        case .moveDown: resolve.moveSelection(by: 1)
        case .moveUp: resolve.moveSelection(by: -1)
        case .pageDown, .pageUp:
            let view = ResolveScreen.view(resolve, size: size)
            let page = ResolveScreen.chrome(size: size).pageHeight
            let offset = resolve.scrollOffset + (command == .pageDown ? page : -page)
            resolve.scrollOffset = max(0, min(offset, view.maxOffset))
        case .chooseLocal: choose(.local, in: &resolve)
        case .chooseRemote: choose(.remote, in: &resolve)
        case .chooseBoth: choose(.both, in: &resolve)
        case .chooseAllLocal: resolve.chooseAll(.local)
        case .chooseAllRemote: resolve.chooseAll(.remote)
        case .toggleView:
            resolve.prefersUnified.toggle()
            if !resolve.prefersUnified && size.width < ResolveScreen.sideBySideWidth {
                notice = Notice(text: "Side by side needs \(ResolveScreen.sideBySideWidth) columns", isError: false)
            }
        case .edit:
            if case .field(let field)? = resolve.selectedRow {
                guard ResolveState.isEditableText(field) else {
                    notice = Notice(
                        text: "\(field.rawValue) has no text to write: choose l (local) or r (remote)", isError: false)
                    return []
                }
                let start = resolve.editedFields[field] ?? ResolveState.text(of: field, in: resolve.previewItem)
                resolve.fieldEditor = FieldEditor(field: field, text: start)
                return []
            }
            guard resolve.merge.conflicts.contains(.body) else {
                notice = Notice(text: "Only the body, the title and tags can be written by hand here", isError: false)
                return []
            }
            resolve.bodyEditor = TextArea(resolve.mergedBody)
        case .togglePreview:
            resolve.showsPreview.toggle()
            resolve.scrollOffset = 0
        case .accept:
            guard let plan = resolve.plan else {
                let left = resolve.unsettled
                let noun = left.count == 1 ? "conflict still needs" : "conflicts still need"
                // The keys that can settle what is left: a body hunk also takes both sides or an edit.
                let keys =
                    left.contains { ResolveState.allows(.both, for: $0) }
                    ? "l local, r remote, b both, e edit" : "l local, r remote"
                notice = Notice(text: "\(left.count) \(noun) a choice (\(keys))", isError: true)
                if let first = left.first, let index = resolve.rows.firstIndex(of: first) { resolve.select(index) }
                return []
            }
            resolve.saving = true
            return [.resolve(plan)]
        case .back where resolve.showsPreview:
            resolve.showsPreview = false
            resolve.scrollOffset = 0
        case .back:
            // What the person chose or wrote here is not dropped without asking.
            if resolve.hasChoices {
                question = .dropResolveChoices
            } else {
                screen = .list
            }
        case .quit:
            return quit()
        default:
            break
        }
        return []
    }

    private mutating func choose(_ choice: ResolveState.Choice, in resolve: inout ResolveState) {
        guard let row = resolve.selectedRow else { return }
        if case .deletion = row, choice == .both {
            notice = Notice(
                text:
                    "Choose l (\(ResolveScreen.deletionLabel(resolve, .local))) or r (\(ResolveScreen.deletionLabel(resolve, .remote)))",
                isError: false)
            return
        }
        guard resolve.choose(choice, for: row) else {
            notice = Notice(text: "Both only applies to body hunks: choose l (local) or r (remote)", isError: false)
            return
        }
        resolve.moveSelection(by: 1)
    }

    /// Keys while a text field in conflict is open for the person's own value: Enter or
    /// Ctrl-S takes it, Esc drops it.
    private mutating func resolveFieldKey(_ key: Key, _ command: Command?) -> [Effect] {
        guard var resolve, var editor = resolve.fieldEditor else { return [] }
        defer { screen = .resolve(resolve) }
        switch command {
        case .save?, .newline?:
            if let problem = resolve.setEditedField(editor.field, editor.input.text) {
                notice = Notice(text: "Cannot take that \(editor.field.rawValue): \(problem)", isError: true)
                return []
            }
            resolve.fieldEditor = nil
            resolve.moveSelection(by: 1)
        case .cancel?:
            resolve.fieldEditor = nil
        default:
            guard editor.input.edit(key, command) else { return [] }
            resolve.fieldEditor = editor
        }
        return []
    }

    /// Keys while the merged body is open in the editor: typing and moving as in the item
    /// editor; Ctrl-S takes the text, Esc drops it.
    mutating func resolveEditorKey(_ key: Key, _ command: Command?) -> [Effect] {
        if resolve?.fieldEditor != nil { return resolveFieldKey(key, command) }
        guard var resolve, var area = resolve.bodyEditor else { return [] }
        switch command {
        case .save?:
            guard !ResolveState.hasMarkers(area.text) else {
                notice = Notice(text: "Remove the conflict markers (<<<<<<< … >>>>>>>) first", isError: true)
                return []
            }
            resolve.setEditedBody(area.text)
            resolve.bodyEditor = nil
            screen = .resolve(resolve)
            return []
        case .cancel?:
            resolve.bodyEditor = nil
            screen = .resolve(resolve)
            return []
        default:
            guard area.edit(key, command, in: ResolveScreen.textArea(size: size)) else { return [] }
        }
        resolve.bodyEditor = area
        screen = .resolve(resolve)
        return []
    }
}

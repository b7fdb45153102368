import QuireCore

/// The item view's attached files: where each stands, attaching one by path (`a`), opening
/// (`o`) or saving (`w`) the selected one (Tab moves the selection).
extension AppState {
    /// The selected attached file of the item in the item view.
    var selectedFile: AttachedFile? {
        guard let files = list.selectedItem?.attachments, !files.isEmpty else { return nil }
        return files[min(max(0, selectedAttachment), files.count - 1)]
    }

    /// The states of the item view's files, when they are the item's shown now.
    public var shownAttachmentStates: [String: AttachmentState]? {
        guard let states = attachmentStates, states.itemID == list.selectedItem?.id else { return nil }
        return states.byHash
    }

    /// The item whose files the runtime reads again when a download moves: the one in the item
    /// view while a file of it is on its way up or down (a download's progress is not a commit).
    public var attachmentsToWatch: String? {
        guard case .detail = screen, let states = attachmentStates, states.anyMoving,
            states.itemID == list.selectedItem?.id
        else { return nil }
        return states.itemID
    }

    /// Reads the states of the item view's files, when it shows an item with files.
    mutating func readAttachmentStates() -> [Effect] {
        guard case .detail = screen, let item = list.selectedItem, !item.attachments.isEmpty else { return [] }
        return [.attachments(.readStates(itemID: item.id))]
    }

    mutating func attachmentCommand(_ command: Command) -> [Effect] {
        guard let item = list.selectedItem else { return [] }
        if command == .attachFile {
            prompt = Prompt(kind: .attachFile(itemID: item.id), field: TextField(), queryBefore: list.query)
            return []
        }
        guard let file = selectedFile else {
            notice = .info("No files attached: a attaches one")
            return []
        }
        switch command {
        case .openAttachment:
            return [.attachments(.open(file))]
        case .saveAttachment:
            prompt = Prompt(kind: .saveAttachment(file), field: TextField(file.name), queryBefore: list.query)
            return []
        case .nextAttachment:
            selectedAttachment = (min(selectedAttachment, item.attachments.count - 1) + 1) % item.attachments.count
            notice = .info(
                "File \(selectedAttachment + 1)/\(item.attachments.count): \(item.attachments[selectedAttachment].name)"
                    + " · o opens it, w saves it")
            return []
        default:
            return []
        }
    }

    // MARK: - The file prompts

    /// Enter in a file prompt: attach the file, or save the copy. An empty path changes nothing.
    mutating func acceptFilePrompt(_ current: Prompt) -> [Effect] {
        let path = current.field.text.trimmingWhitespace()
        guard !path.isEmpty else {
            prompt = current
            notice = .error("Type a path first (Tab completes it), or Esc to leave")
            return []
        }
        prompt = nil
        switch current.kind {
        case .attachFile(let itemID): return [.attachments(.attach(path: path, itemID: itemID))]
        case .saveAttachment(let file): return [.attachments(.save(file, to: path, replacing: false))]
        case .search, .tag: return []
        }
    }

    /// Tab's answer in a file prompt: one candidate fills the path, several fill what they
    /// share and are listed.
    mutating func completePath(_ prefix: String, with names: [String]) -> [Effect] {
        guard var current = prompt, current.kind.isFilePrompt, current.field.text == prefix else { return [] }
        guard let completed = PathCompletion.completed(prefix, candidates: names) else {
            notice = .info("No file or folder starts with “\(PathCompletion.split(prefix).partial)”")
            return []
        }
        current.field = TextField(completed)
        prompt = current
        if names.count > 1 { notice = .info(CompletionKind.listed(names)) }
        return []
    }

    // MARK: - Answers

    mutating func showAttachmentStates(_ states: AttachmentStates) {
        guard states.itemID == list.selectedItem?.id else { return }
        attachmentStates = states
    }

    mutating func finishAttachment(_ answer: AttachmentAnswer) -> [Effect] {
        switch answer {
        case .attached(let name, _):
            notice = .info("Attached \(name)")
        case .opened(let name, let opener):
            notice = .info("Opened \(name) with \(opener)")
        case .saved(let name, let path):
            notice = .info("Saved \(name) to \(path)")
        case .exists(let file, let path):
            question = .replaceFile(file, path: path)
        case .underWay(let words):
            notice = .info(words)
        case .fetching(let request):
            notice = .info("Downloading \(request.file?.name ?? "the file")…")
            return readAttachmentStates()
        case .fetched(let request):
            return [.attachments(request)] + readAttachmentStates()
        case .failed(let reason):
            notice = .error(reason)
        }
        return []
    }
}

extension AppState.PromptKind {
    /// The prompts that take a path (Tab completes it from the file system).
    var isFilePrompt: Bool {
        switch self {
        case .attachFile, .saveAttachment: true
        case .search, .tag: false
        }
    }
}

import TerminalUI

extension AppState {
    /// The whole screen for this state: a pure function, so every screen is testable as text.
    public func render() -> Frame {
        var buffer = Buffer(size: size)
        if isTooSmall {
            renderTooSmall(into: &buffer)
            return Frame(buffer: buffer)
        }
        var cursor: Point?
        switch screen {
        case .list:
            cursor = ListScreen.render(self, into: &buffer)
        case .detail(let scroll):
            cursor = DetailScreen.render(self, scroll: scroll, into: &buffer)
        case .editor(let editor):
            cursor = EditorScreen.render(self, editor: editor, into: &buffer)
        case .help(let scroll):
            HelpScreen.render(self, scroll: scroll, into: &buffer)
        case .syncStatus:
            SyncStatusScreen.render(self, into: &buffer)
        case .resolve(let resolve):
            cursor = ResolveScreen.render(self, resolve: resolve, into: &buffer)
        case .history(let history):
            HistoryScreen.render(self, history: history, into: &buffer)
        case .views(let views):
            ViewsScreen.render(self, views: views, into: &buffer)
        case .links(let picker):
            LinkPickerScreen.render(self, picker: picker, into: &buffer)
        }
        if let unlock {
            cursor = UnlockDialog.render(unlock, into: &buffer)
        }
        if let question {
            Dialog.render(question, into: &buffer)
            cursor = nil
        }
        return Frame(buffer: buffer, cursor: cursor)
    }

    private func renderTooSmall(into buffer: inout Buffer) {
        let lines = ["terminal too small", "need \(AppState.minimumSize.width)x\(AppState.minimumSize.height)"]
        let wrapped = lines.flatMap { WordWrap.lines($0, width: max(1, size.width)) }
        let top = max(0, (size.height - wrapped.count) / 2)
        for (offset, line) in wrapped.enumerated() {
            let x = max(0, (size.width - line.displayWidth) / 2)
            buffer.put(line, x: x, y: top + offset, style: Style(.error))
        }
    }
}

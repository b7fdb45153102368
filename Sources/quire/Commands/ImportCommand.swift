import ArgumentParser
import Foundation
import QuireCore
import QuireStore

struct ImportCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import items from JSON, a folder of Markdown files, or Taskwarrior.",
        discussion: """
            json: an array of items as 'quire export' writes them (only "title" is required).
            markdown: a folder of .md files with a header of fields, as 'quire export
            --format markdown' writes them; a file without a header becomes a note titled by
            its first '# ' heading or its file name.
            taskwarrior: the output of 'task export'.
            Without --format: a folder is markdown; a file is json, or taskwarrior when its
            entries have a "description" and no "title".
            Items whose id is already here are updated, so importing an export again changes
            nothing. The whole file is checked first: one bad entry and nothing is imported.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json, markdown, taskwarrior
    }

    @Argument(help: ArgumentHelp("The file or folder to import.", valueName: "path"))
    var path: String

    @Option(help: ArgumentHelp("json, markdown or taskwarrior.", valueName: "format"))
    var format: Format?

    func run(store: AppDatabase, out: inout Output) throws {
        let entries = try readEntries()
        let summary = try store.importItems(entries)
        let total = summary.created + summary.updated + summary.unchanged
        var details = ["\(summary.created) new", "\(summary.updated) updated", "\(summary.unchanged) unchanged"]
        if summary.skippedDeleted > 0 { details.append("\(summary.skippedDeleted) skipped (deleted here)") }
        out.line("imported \(total) item\(total == 1 ? "" : "s") from \(path): \(details.joined(separator: ", "))")
    }

    private func readEntries() throws -> [ImportEntry] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIFailure(.notFound, "no file or folder at \(path)")
        }
        let format = self.format ?? (isDirectory.boolValue ? .markdown : nil)
        if format == .markdown {
            return isDirectory.boolValue
                ? try markdownFolder() : [try markdownFile(path, name: (path as NSString).lastPathComponent)]
        }
        guard !isDirectory.boolValue else {
            throw CLIFailure.badInput("\(path) is a folder; only markdown imports read folders")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIFailure.badInput("cannot read \(path)")
        }
        do {
            switch format ?? detect(data) {
            case .taskwarrior: return try TaskwarriorImport.entries(from: data)
            default: return try JSONImport.entries(from: data)
            }
        } catch {
            throw CLIFailure.badInput("\(path): \(error.description)")
        }
    }

    /// Taskwarrior when the first entry has a description and no title.
    private func detect(_ data: Data) -> Format {
        let head = String(decoding: data.prefix(4096), as: UTF8.self)
        let firstEntry = head.split(separator: "}", maxSplits: 1).first.map(String.init) ?? head
        if firstEntry.contains("\"description\"") && !firstEntry.contains("\"title\"") { return .taskwarrior }
        if !head.trimmingWhitespace().hasPrefix("[") { return .taskwarrior }
        return .json
    }

    private func markdownFolder() throws -> [ImportEntry] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
                .filter { $0.lowercased().hasSuffix(".md") || $0.lowercased().hasSuffix(".markdown") }.sorted()
        } catch {
            throw CLIFailure.badInput("cannot read the folder \(path): \(StoreAccess.reason(error))")
        }
        return try names.map { name in try markdownFile(path + "/" + name, name: name) }
    }

    private func markdownFile(_ file: String, name: String) throws -> ImportEntry {
        guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8)
        else {
            throw CLIFailure.badInput("cannot read \(file) as UTF-8 text")
        }
        let stem = (name as NSString).deletingPathExtension
        do {
            return try MarkdownItem.parse(text, fallbackTitle: stem)
        } catch {
            throw CLIFailure.badInput("\(file)\(error.location.isEmpty ? "" : " " + error.location): \(error.reason)")
        }
    }
}

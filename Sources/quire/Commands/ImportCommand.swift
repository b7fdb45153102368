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
            markdown: a folder of .md files with a header of fields, as 'quire export \
            --format markdown' writes them; a file without a header becomes a note titled by \
            its first '# ' heading or its file name. Folders inside are read too, each as a \
            project (home/garden/ is home.garden) for the files whose header names none.
            taskwarrior: the output of 'task export'.
            Without --format: a folder is markdown; a file is json, or taskwarrior when its \
            entries have a "description" and no "title".
            Items whose id is already here are updated, so importing an export again changes \
            nothing. The whole file is checked first: one bad entry and nothing is imported.
            """)

    enum Format: String, ExpressibleByArgument, ArgumentChoice {
        case json, markdown, taskwarrior
    }

    @Argument(help: ArgumentHelp("The file or folder to import.", valueName: "path"))
    var path: String

    @Option(help: ArgumentHelp("json, markdown or taskwarrior.", valueName: "format"))
    var format: Format?

    @Flag(help: "No progress line on a terminal.")
    var quiet = false

    static let importing = ProgressLine(verb: "importing")

    func run(store: AppDatabase, out: inout Output) throws {
        let progress = ProgressReporter(quiet: quiet)
        defer { progress.finish() }
        var left: LeftBehind?
        let summary = try importEntries(into: store, progress: progress) { left = $0 }
        let total = summary.created + summary.updated + summary.unchanged
        var details = ["\(summary.created) new", "\(summary.updated) updated", "\(summary.unchanged) unchanged"]
        if summary.skippedDeleted > 0 { details.append("\(summary.skippedDeleted) skipped (deleted here)") }
        out.line("imported \(total) item\(total == 1 ? "" : "s") from \(path): \(details.joined(separator: ", "))")
        if let left, let line = left.sentence { out.line(line) }
    }

    /// What a Taskwarrior import could not keep, said rather than dropped in silence.
    /// A recurring template is not among them: its instances carry its rule, and the pending
    /// one is the series' open occurrence.
    struct LeftBehind {
        var attributes: [String: Int]

        var sentence: String? {
            let parts = attributes.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { name, count in
                "\(name) (\(count) task\(count == 1 ? "" : "s"))"
            }
            return parts.isEmpty ? nil : "not kept: " + parts.joined(separator: ", ")
        }
    }

    /// Reads the file (or folder) while the store writes it, an entry at a time: memory stays
    /// flat whatever the size, and one bad entry rolls the whole import back.
    private func importEntries(
        into store: AppDatabase, progress: ProgressReporter, leftBehind: (LeftBehind) -> Void
    ) throws -> ImportSummary {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIFailure(.notFound, "no file or folder at \(path)")
        }
        let format = self.format ?? (isDirectory.boolValue ? .markdown : nil)
        if format == .markdown {
            let files = isDirectory.boolValue ? try markdownFiles() : [path]
            var remaining = files.makeIterator()
            var done = 0
            return try importing(into: store, errorPrefix: "") { () throws(ImportError) in
                progress.update(Self.importing, done: done, total: files.count)
                done += 1
                return try remaining.next().map(markdownFile)
            }
        }
        guard !isDirectory.boolValue else {
            throw CLIFailure.badInput("\(path) is a folder; only markdown imports read folders")
        }
        guard let file = FileHandle(forReadingAtPath: path) else { throw CLIFailure.badInput("cannot read \(path)") }
        defer { try? file.close() }
        let detected: Format
        do {
            detected = try format ?? detect(file)
        } catch {
            throw CLIFailure.badInput("cannot read \(path): \(StoreAccess.reason(error))")
        }
        // The share of the file read so far stands in for the share of items imported: the
        // number of entries is not known until the end.
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        var bytesRead = 0
        let elements = JSONElements {
            let chunk = try file.read(upToCount: 1 << 20).map { [UInt8]($0) }
            bytesRead += chunk?.count ?? 0
            return chunk
        }
        var reader = ImportReader(elements, format: detected == .taskwarrior ? .taskwarrior : .json)
        var done = 0
        let summary = try importing(into: store, errorPrefix: "\(path): ") { () throws(ImportError) in
            progress.update(
                Self.importing, done: done, fraction: size.map { $0 > 0 ? Double(bytesRead) / Double($0) : 1 })
            done += 1
            return try reader.next()
        }
        leftBehind(LeftBehind(attributes: reader.attributesNotKept))
        return summary
    }

    private func importing(
        into store: AppDatabase, errorPrefix: String, _ next: () throws(ImportError) -> ImportEntry?
    ) throws -> ImportSummary {
        do {
            return try store.importItems(from: next)
        } catch let error as ImportError {
            throw CLIFailure.badInput(errorPrefix + error.description)
        }
    }

    /// Taskwarrior when the first entry has a description and no title. Reads the first 4 KB
    /// and puts the file back at its start.
    private func detect(_ file: FileHandle) throws -> Format {
        let head = String(decoding: try file.read(upToCount: 4096) ?? Data(), as: UTF8.self)
        try file.seek(toOffset: 0)
        let firstEntry = head.split(separator: "}", maxSplits: 1).first.map(String.init) ?? head
        if firstEntry.contains("\"description\"") && !firstEntry.contains("\"title\"") { return .taskwarrior }
        let start = head.trimmingWhitespace()
        if !start.isEmpty && !start.hasPrefix("[") { return .taskwarrior }
        return .json
    }

    /// The folder's Markdown files and those of the folders in it, by path: a folder inside is
    /// a project (`home/garden/` → `home.garden`), as `quire export` writes them.
    private func markdownFiles() throws -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: path) else {
            throw CLIFailure.badInput("cannot read the folder \(path)")
        }
        var files: [String] = []
        while let relative = walk.nextObject() as? String {
            let lowered = relative.lowercased()
            guard lowered.hasSuffix(".md") || lowered.hasSuffix(".markdown") else { continue }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path + "/" + relative, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                files.append(path + "/" + relative)
            }
        }
        return files.sorted()
    }

    private func markdownFile(_ file: String) throws(ImportError) -> ImportEntry {
        guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8)
        else {
            throw ImportError("", "cannot read \(file) as UTF-8 text")
        }
        let name = (file as NSString).lastPathComponent
        do {
            let folder = (file as NSString).deletingLastPathComponent
            let inside = folder.hasPrefix(path + "/") ? String(folder.dropFirst(path.count + 1)) : ""
            return try MarkdownItem.parse(
                text, fallbackTitle: (name as NSString).deletingPathExtension,
                folderProject: MarkdownItem.project(forFolder: inside))
        } catch {
            throw ImportError(error.location.isEmpty ? file : "\(file) \(error.location)", error.reason)
        }
    }
}

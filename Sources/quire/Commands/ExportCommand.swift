import ArgumentParser
import Foundation
import QuireCore
import QuireStore

struct ExportCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export every item (deleted ones excluded) as JSON or Markdown.",
        discussion: """
            json: one JSON array of items, to standard output or to the --output file.
            markdown: one file per item in the --output folder, each with a header of fields \
            (id, kind, title, tags, done, due, priority, pinned, project, times) and the body \
            below it; an item of a project goes in the project's folder (home.garden: \
            home/garden/), and links are written [[Title]] (or [[ID]] where a title is shared) \
            so that they reach the same items once imported.
            'quire import' reads both back.
            """)

    enum Format: String, ExpressibleByArgument, ArgumentChoice {
        case json, markdown
    }

    @Option(help: ArgumentHelp("json or markdown.", valueName: "format"))
    var format: Format = .json

    @Option(help: ArgumentHelp("A file for json (default: standard output), a folder for markdown.", valueName: "path"))
    var output: String?

    func validate() throws {
        if format == .markdown && output == nil {
            throw ValidationError("markdown export writes one file per item: give a folder with --output")
        }
    }

    func run(store: AppDatabase, out: inout Output) throws {
        switch format {
        case .json:
            guard let output else {
                try JSONOutput.items(&out) { emit in try store.forEachItem(matching: .live) { emit($0) } }
                return
            }
            let count = try writeJSONFile(output, store: store)
            out.line("exported \(count) item\(count == 1 ? "" : "s") to \(output)")
        case .markdown:
            let folder = output!
            let count = try writeMarkdown(folder, store: store)
            out.line("exported \(count) item\(count == 1 ? "" : "s") to \(folder)")
        }
    }

    /// Writes beside the target and renames, so an interrupted export never leaves half a file.
    private func writeJSONFile(_ path: String, store: AppDatabase) throws -> Int {
        let temporary = path + ".quire-partial-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
            let handle = FileHandle(forWritingAtPath: temporary)
        else { throw CLIFailure.badInput("cannot write \(path)") }
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        var count = 0
        var buffer: [UInt8] = Array("[".utf8)
        do {
            try store.forEachItem(matching: .live) { item in
                buffer.append(contentsOf: count == 0 ? [10] : [44, 10])
                ItemJSON.append(item, to: &buffer)
                count += 1
                if buffer.count >= 1 << 16 {
                    try handle.write(contentsOf: buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            buffer.append(contentsOf: Array((count == 0 ? "]\n" : "\n]\n").utf8))
            try handle.write(contentsOf: buffer)
            try handle.close()
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            try FileManager.default.moveItem(atPath: temporary, toPath: path)
        } catch let error as StoreError {
            throw error
        } catch {
            throw CLIFailure.badInput("cannot write \(path): \(StoreAccess.reason(error))")
        }
        return count
    }

    private func writeMarkdown(_ folder: String, store: AppDatabase) throws -> Int {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CLIFailure.badInput("cannot create the folder \(folder): \(StoreAccess.reason(error))")
        }
        var count = 0
        var made: Set<String> = []
        try store.forEachItemForExport { item, body in
            var directory = folder
            if let sub = MarkdownItem.folder(for: item) {
                directory += "/" + sub
                if made.insert(sub).inserted {
                    do {
                        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                    } catch {
                        throw CLIFailure.badInput("cannot create the folder \(directory): \(StoreAccess.reason(error))")
                    }
                }
            }
            let path = directory + "/" + MarkdownItem.fileName(for: item)
            let text = MarkdownItem.render(item, body: body)
            guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
                throw CLIFailure.badInput("cannot write \(path)")
            }
            count += 1
        }
        return count
    }
}

import ArgumentParser
import Foundation
import QuireCore
import QuireStore
import QuireSync

/// `quire attach ID FILE...`: attaches files to an item.
struct AttachCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Attach files to an item.",
        discussion: """
            The files are copied into the data directory (attachments/, by content), so the \
            originals may move or go. A file with the name of one already attached replaces it. \
            The same content attached twice, to one item or two, is stored once. Sync uploads \
            the bytes in chunks behind the item's own changes; 'quire attachments ID' shows \
            how far each file got. With encryption on, each file gets its own key and its \
            chunks are sealed before they leave this device.
            """)

    @Argument(help: ItemIDs.help())
    var id: String

    @Argument(help: ArgumentHelp("The files to attach.", valueName: "file"))
    var files: [String]

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Missing expected argument '<file> ...'") }
    }

    func run(store: AppDatabase, out: inout Output) throws {
        let fullID = try ItemIDs.resolve(id, in: store)
        let (updated, attachments): (Item, [AttachedFile])
        do {
            (updated, attachments) = try store.attachFiles(
                at: files, to: fullID, settings: SyncCommandSupport.settings())
        } catch let error as AttachFileError {
            switch error {
            case .notFound(let message): throw CLIFailure(.notFound, message)
            case .badInput(let message): throw CLIFailure.badInput(message)
            }
        } catch let error as SyncSettingsError {
            throw CLIFailure.badInput(error.description)
        }
        let shortID = try store.shortIDs(for: [updated])[updated.id] ?? updated.id
        for file in attachments {
            out.line("attached: \(file.name) (\(ByteCount.text(file.size))) to \(shortID)  \(updated.title)")
        }
    }
}

/// `quire attachments ID`: the files attached to an item and where each stands.
struct AttachmentsCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "attachments",
        abstract: "List the files attached to an item.",
        discussion: """
            Each file with its size and state: here; here, not uploaded yet; uploading 40%; \
            waiting to download; or refused, with the server's reason (a refused file is not \
            sent again).
            """)

    @Argument(help: ItemIDs.help())
    var id: String

    @Flag(help: "Print one JSON array of {name, size, mediaType, hash, state, reason}.")
    var json = false

    func run(store: AppDatabase, out: inout Output) throws {
        let fullID = try ItemIDs.resolve(id, in: store)
        guard let item = try store.item(fullID) else { throw StoreError.notFound(id: fullID) }
        let states = try store.attachmentStates(of: item.attachments)
        if json {
            try JSONOutput.encode(&out, zip(item.attachments, states).map { AttachmentJSON($0, $1) })
            return
        }
        if item.attachments.isEmpty {
            if Terminal.isOutputTerminal { out.line("No attachments.") }
            return
        }
        let terminal = Terminal()
        let nameWidth = min(40, item.attachments.map { Terminal.width($0.name) }.max() ?? 0)
        let sizes = item.attachments.map { ByteCount.text($0.size) }
        let sizeWidth = sizes.map(\.count).max() ?? 0
        for (index, (file, state)) in zip(item.attachments, states).enumerated() {
            let name = Terminal.pad(Terminal.truncate(file.name, to: nameWidth), to: nameWidth)
            let size = String(repeating: " ", count: sizeWidth - sizes[index].count) + sizes[index]
            out.line("\(name)  \(size)  " + terminal.paint(state.description, state == .here ? .dim : .badge))
        }
    }

    /// One file in `--json`.
    struct AttachmentJSON: Encodable {
        var name: String
        var size: Int64
        var mediaType: String
        var hash: String
        var state: String
        var reason: String?

        init(_ file: AttachedFile, _ state: AttachmentState) {
            name = file.name
            size = file.size
            mediaType = file.mediaType
            hash = file.hash
            self.state = state.name
            if case .refused(let why) = state { reason = why }
        }
    }
}

/// `quire attachment get ID NAME`: saves an attached file.
struct AttachmentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attachment",
        abstract: "Work with one attached file.",
        subcommands: [AttachmentGetCommand.self])
}

struct AttachmentGetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Save an attached file.",
        discussion: """
            Writes the file to ./NAME, refusing to replace a file that is there; --output PATH \
            writes it to PATH (replacing it), and --output - to standard output. The bytes are \
            checked against their hash on the way out. A file not on this device yet (with \
            download = "on-open" in [attachments] of the config, or before the next sync) is \
            downloaded from the server first.
            """)

    @Argument(help: ItemIDs.help())
    var id: String

    @Argument(help: ArgumentHelp("The attached file's name, as 'quire attachments ID' lists it.", valueName: "name"))
    var name: String

    @Option(
        name: .shortAndLong, help: ArgumentHelp("Where to write the file ('-' for standard output).", valueName: "path")
    )
    var output: String?

    func run() async throws {
        let store = try StoreAccess.open()
        var out = Output()
        defer { out.flush() }
        do {
            let file = try AttachmentLookup.find(name, on: id, in: store)
            if !store.attachmentStore.contains(file.hash) { try await download(file, store: store) }
            try save(file, store: store, out: &out)
        } catch let error as StoreError {
            throw error.naming { id in (try? store.shortIDs(for: [id]))?[id] }
        }
    }

    /// Fetches a file this device does not hold from the server, chunk by chunk.
    private func download(_ file: AttachedFile, store: AppDatabase) async throws {
        guard let remote = try SyncCommandSupport.checkedSettings().remote() else {
            throw CLIFailure(.notFound, "\(file.name) is not on this device, and no remote is set to download it from")
        }
        let transport = HTTPSyncTransport(baseURL: remote.url, token: remote.token, now: store.environment.now)
        let keys = try SyncCommandSupport.settings().dataKeysOrFailure()
        let sealer: any ChunkSealer = keys.map(EncryptingChunkSealer.init) ?? PlaintextChunkSealer()
        guard sealer.carries(file) else {
            throw CLIFailure(
                .notFound,
                file.wrappedKey == nil
                    ? "\(file.name) is not on this device, and it was attached without a key in an encrypted account"
                    : "\(file.name) is sealed: unlock this device with 'quire encryption unlock' to download it")
        }
        var budget = Int.max
        do {
            _ = try await AttachmentSync(store: store, sealer: sealer).download(
                file, transport: transport, budget: &budget, itemWorkWaiting: { false })
        } catch let error as SyncTransportError {
            if let failure = SyncCommandSupport.failure(for: error.outcome) {
                throw CLIFailure(failure.code, "cannot download \(file.name): \(error.description)")
            }
            throw CLIFailure(.unreachable, "cannot download \(file.name): \(error.description)")
        } catch let error as AttachmentStoreError {
            throw CLIFailure(.badInput, "cannot download \(file.name): \(error.description)")
        }
        if case .refused(let reason)? = try store.attachmentTransfers()[file.hash] {
            throw CLIFailure(.badInput, "cannot download \(file.name): \(reason)")
        }
        guard store.attachmentStore.contains(file.hash) else {
            throw CLIFailure(
                .notFound, "\(file.name) is not on the server yet: the device that attached it has not uploaded it")
        }
    }

    private func save(_ file: AttachedFile, store: AppDatabase, out: inout Output) throws {
        let attachments = store.attachmentStore
        do {
            if output == "-" {
                out.flush()
                try attachments.write(file.hash, to: FileHandle.standardOutput)
                return
            }
            let destination = output ?? file.name
            if output == nil, FileManager.default.fileExists(atPath: destination) {
                throw CLIFailure.badInput("\(destination) already exists: give --output PATH to write it elsewhere")
            }
            // Into `/dev/stdout` or a pipe the bytes go alone, as with `--output -`.
            if try attachments.copy(file.hash, to: destination) == .file {
                out.line("saved: \(file.name) (\(ByteCount.text(file.size))) to \(destination)")
            }
        } catch let error as AttachmentStoreError {
            throw CLIFailure(.badInput, error.description)
        }
    }
}

/// `quire detach ID NAME`: removes an attached file from an item.
struct DetachCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "detach",
        abstract: "Remove an attached file from an item.",
        discussion: """
            An ordinary edit: 'quire undo' brings the file back. The bytes stay on this device \
            while the item's history refers to them, and go when it is deleted for good \
            ('quire rm --purge') and nothing else refers to them.
            """)

    @Argument(help: ItemIDs.help())
    var id: String

    @Argument(help: ArgumentHelp("The attached file's name, as 'quire attachments ID' lists it.", valueName: "name"))
    var name: String

    func run(store: AppDatabase, out: inout Output) throws {
        let file = try AttachmentLookup.find(name, on: id, in: store)
        let fullID = try ItemIDs.resolve(id, in: store)
        let updated = try store.detach(named: file.name, from: fullID)
        let shortID = try store.shortIDs(for: [updated])[updated.id] ?? updated.id
        out.line("detached: \(file.name) from \(shortID)  \(updated.title)")
    }
}

/// Finds an item's attached file by name for `attachment get` and `detach`.
enum AttachmentLookup {
    static func find(_ name: String, on id: String, in store: AppDatabase) throws -> AttachedFile {
        let fullID = try ItemIDs.resolve(id, in: store)
        guard let item = try store.item(fullID) else { throw StoreError.notFound(id: fullID) }
        if let file = item.attachments.first(where: { $0.name == name }) { return file }
        let shortID = try store.shortIDs(for: [item])[item.id] ?? item.id
        let known =
            item.attachments.isEmpty
            ? "it has none" : "it has " + item.attachments.map { "'\($0.name)'" }.joined(separator: ", ")
        throw CLIFailure(.notFound, "\(shortID) has no attachment named '\(name)': \(known)")
    }
}

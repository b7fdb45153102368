import ArgumentParser
import Foundation
import QuireCore
import QuireStore
import QuireSync

/// `quire resolve ID`: settles an item that needs review; the result is a new local change.
struct ResolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Settle an item that needs review (the result syncs as a new change).",
        discussion: """
            --keep local keeps this device's values of the conflicting fields, --keep remote the \
            server's, --keep both keeps both sides of each conflicting part of the body (and this \
            device's value of other fields). --merged-file PATH takes the body from a file you \
            merged yourself. Whatever changed on one side only is kept in every case.
            """)

    enum Side: String, ExpressibleByArgument, ArgumentChoice {
        case local, remote, both
    }

    @Argument(help: ItemIDs.help())
    var id: String

    @Option(help: "Which version to keep: local, remote or both.")
    var keep: Side?

    @Option(name: .customLong("merged-file"), help: "A file holding the merged body.")
    var mergedFile: String?

    func validate() throws {
        guard (keep == nil) != (mergedFile == nil) else {
            throw ValidationError("give exactly one of --keep local|remote|both and --merged-file PATH")
        }
    }

    func run() throws {
        var body: String?
        if let mergedFile {
            guard let data = FileManager.default.contents(atPath: mergedFile) else {
                throw CLIFailure.badInput("cannot read \(mergedFile)")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw CLIFailure.badInput("\(mergedFile) is not UTF-8 text")
            }
            do { body = try Validation.body(text) } catch { throw CLIFailure.badInput(error.description) }
        }
        let store = try StoreAccess.open()
        let fullID = try ItemIDs.resolve(id, in: store)
        let engine = SyncCommandSupport.engine(store: store, settings: SyncCommandSupport.settings())
        let resolved: Item?
        do {
            if let body {
                resolved = try engine.ledger.resolve(fullID, body: body)
            } else {
                resolved = try engine.ledger.resolve(fullID, keeping: ItemMerge.Resolution(rawValue: keep!.rawValue)!)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw CLIFailure(.unusable, "cannot resolve: \(error)")
        }
        guard let resolved else {
            throw CLIFailure.badInput("item \(fullID) does not need review")
        }
        var out = Output()
        let how = body != nil ? "with the merged body" : "keeping \(keep!.rawValue)"
        out.line(
            "Resolved \"\(resolved.title)\" \(how)"
                + (resolved.syncState == .pending ? "; it syncs with the next 'quire sync'." : "."))
        out.flush()
    }
}

import ArgumentParser
import Foundation
import QuireCore
import QuireStore

struct HistoryCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Every version of an item this device has seen or made, newest first.",
        discussion:
            "Each line says when, where the version came from (local, import, remote, merge, resolve, or undo: a local change that took an earlier one back) and what changed."
    )

    @Argument(help: ItemIDs.help())
    var id: String

    @Flag(help: "Print one JSON array: {seq, recordedAt, origin, op, item} per version.")
    var json = false

    func run(store: AppDatabase, out: inout Output) throws {
        let fullID = try ItemIDs.resolve(id, in: store)
        let versions = try store.history(of: fullID)
        if json {
            out.write("[")
            for (index, version) in versions.enumerated() {
                out.append { bytes in
                    bytes.append(contentsOf: Array((index == 0 ? "\n" : ",\n").utf8))
                    bytes.append(
                        contentsOf: Array(
                            "{\"seq\":\(version.seq),\"recordedAt\":\"\(StoreTime.string(from: version.recordedAt))\",\"origin\":\"\(version.origin.rawValue)\",\"op\":"
                                .utf8))
                    if let op = version.opID {
                        CompactJSON.appendString(op, to: &bytes)
                    } else {
                        bytes.append(contentsOf: Array("null".utf8))
                    }
                    bytes.append(contentsOf: Array(",\"item\":".utf8))
                    ItemJSON.append(version.item, to: &bytes)
                    bytes.append(125)
                }
            }
            out.line(versions.isEmpty ? "]" : "\n]")
            return
        }
        let terminal = Terminal()
        for (index, version) in versions.enumerated() {
            let older = index + 1 < versions.count ? versions[index + 1].item : nil
            let when = terminal.paint(LocalTime.string(version.recordedAt), .dim)
            out.line(
                "\(when)  \(Terminal.pad(version.isUndo ? "undo" : version.origin.rawValue, to: 7)) \(VersionSummary.describe(version.item, since: older))"
            )
        }
    }
}

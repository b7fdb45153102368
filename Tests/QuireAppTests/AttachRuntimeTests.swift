import Foundation
import QuireApp
import QuireCore
import QuireCrypto
import QuireStore
import QuireSync
import TerminalUI
import Testing

/// Attaching in the app's item view over a real store file: the same call as `quire attach`.
@Suite struct AttachRuntimeTests {
    @Test func aFileAttachedInTheAppIsKeyedAndQueuedAtOnceWithEncryptionOn() throws {
        let keys = try KeyRing.create(passphrase: "a passphrase", parameters: .minimum).unlocked.dataKeys
        let app = try AppHarness(
            items: [ImportEntry(kind: .note, title: "Trip", createdAt: Date(timeIntervalSince1970: 1_790_000_000))],
            prepare: { _, directory in
                try AppHarness.settings(in: directory).setDataKeys(keys)
                try Data("boarding pass".utf8).write(to: URL(fileURLWithPath: directory + "/tickets.pdf"))
            })
        app.attachInTheItemView(app.directory + "/tickets.pdf")

        let item = try #require(try app.store.items(matching: .live).first)
        let file = try #require(item.attachments.first)
        let wrapped = try #require(file.wrappedKey, "keyed as it is attached, not at the next sync")
        _ = try FileCipher.key(wrapped: wrapped, forContent: file.hash, keys: keys)
        let queued = try app.store.outbox(for: item.id)
        #expect(String(describing: queued).contains(wrapped), "the keyed reference is queued at once: \(queued)")
    }
}

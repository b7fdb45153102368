import ArgumentParser
import QuireCore
import QuireStore

/// `quire links ID`: where the `[[…]]` links of an item's body lead.
struct LinksCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "links",
        abstract: "List what an item's body links to with [[Title]] or [[ID]].",
        discussion: """
            Each link as written, then the item it reaches (short id and title), "(deleted)" \
            for a deleted one, or "(missing)". A title matches without regard to case; \
            when several items share it, the newest. An id in a link is the full id \
            (quire show ID --json prints it).
            """)

    @OptionGroup var target: LinkedItemArgument

    @Flag(help: "Print one JSON array of {\"link\", \"item\"} objects; item is null when the link reaches none.")
    var json = false

    func run(store: AppDatabase, out: inout Output) throws {
        let links = try store.links(of: try ItemIDs.resolve(target.id, in: store))
        if json {
            try JSONOutput.encode(&out, links.map { LinkJSON(link: $0.link.text, item: $0.item) })
            return
        }
        if links.isEmpty {
            if Terminal.isOutputTerminal { out.line("No links.") }
            return
        }
        let shortIDs = try store.shortIDs(for: links.compactMap(\.item))
        let terminal = Terminal()
        for resolved in links {
            let written = "[[\(resolved.link.text)]]"
            guard let item = resolved.item else {
                out.line(written + "  " + terminal.paint("(missing)", .dim))
                continue
            }
            let reached = terminal.paint(shortIDs[item.id] ?? item.id, .id) + "  " + item.title
            out.line(written + "  " + reached + (item.deleted ? terminal.paint("  (deleted)", .dim) : ""))
        }
    }

    /// One link in `--json`: as written, and the item it reaches in its SPEC shape.
    struct LinkJSON: Encodable {
        var link: String
        var item: Item?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(link, forKey: .link)
            // null, not a missing key, for a link that reaches no item.
            try container.encode(item, forKey: .item)
        }

        enum CodingKeys: String, CodingKey { case link, item }
    }
}

/// `quire backlinks ID`: the items whose bodies link to an item.
struct BacklinksCommand: StoreCommand {
    static let configuration = CommandConfiguration(
        commandName: "backlinks",
        abstract: "List the items whose bodies link to an item.",
        discussion: """
            Links by the item's full id, by its title, or by a title it had before a rename \
            all count. The same list as: quire list links:ID
            """)

    @OptionGroup var target: LinkedItemArgument

    @Flag(help: "Print one JSON array of items.")
    var json = false

    func run(store: AppDatabase, out: inout Output) throws {
        let items = try store.backlinks(of: try ItemIDs.resolve(target.id, in: store))
        try ItemsOutput.write(items, json: json, whenEmpty: "No items link here.", store: store, to: &out)
    }
}

/// The item `links` and `backlinks` look at.
struct LinkedItemArgument: ParsableArguments {
    @Argument(help: ItemIDs.help())
    var id: String
}

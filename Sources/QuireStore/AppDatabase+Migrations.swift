import Foundation
import GRDB

/// The schema, as a list of named migrations.
///
/// Migrations are frozen once shipped: never edit one, add a new one after it. They use raw
/// column names and let SQLite's constraints (NOT NULL, CHECK, foreign keys) guard what every
/// writer must respect, whichever code path it comes from.
extension AppDatabase {
    static func migrator(environment: StoreEnvironment) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 items, history, outbox, sync state, conflicts, events, search") { db in
            try db.execute(
                sql: """
                    -- Items. `rowNumber` is the explicit rowid the search index points at (VACUUM keeps it);
                    -- `id` is the UUIDv7 people and the server know.
                    CREATE TABLE item (
                      rowNumber INTEGER PRIMARY KEY,
                      id TEXT NOT NULL UNIQUE CHECK (length(id) = 36),
                      kind TEXT NOT NULL CHECK (kind IN ('note', 'task')),
                      title TEXT NOT NULL CHECK (title <> ''),
                      body TEXT NOT NULL DEFAULT '' CHECK (length(CAST(body AS BLOB)) <= 1048576),
                      tags TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(tags) AND json_type(tags) = 'array'),
                      done INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
                      doneAt TEXT,
                      due TEXT CHECK (due IS NULL OR due GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
                      priority TEXT NOT NULL DEFAULT 'none' CHECK (priority IN ('none', 'low', 'medium', 'high')),
                      pinned INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
                      createdAt TEXT NOT NULL,
                      updatedAt TEXT NOT NULL,
                      deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),
                      rev INTEGER NOT NULL DEFAULT 0 CHECK (rev >= 0),
                      syncState TEXT NOT NULL DEFAULT 'pending'
                        CHECK (syncState IN ('synced', 'pending', 'syncing', 'needs-review', 'error'))
                    );
                    -- Lists are "pinned first, newest first"; UUIDv7 ids sort by creation time.
                    CREATE INDEX item_by_order ON item(deleted, pinned, id);
                    CREATE INDEX item_by_open_order ON item(deleted, done, pinned, id);
                    CREATE INDEX item_by_sync_state ON item(syncState) WHERE syncState <> 'synced';

                    -- Every version of an item this device has seen or made, oldest first by seq.
                    CREATE TABLE itemVersion (
                      seq INTEGER PRIMARY KEY AUTOINCREMENT,
                      itemId TEXT NOT NULL REFERENCES item(id) ON DELETE CASCADE,
                      recordedAt TEXT NOT NULL,
                      origin TEXT NOT NULL CHECK (origin IN ('local', 'import', 'remote', 'merge', 'resolve')),
                      opId TEXT,
                      kind TEXT NOT NULL,
                      title TEXT NOT NULL,
                      body TEXT NOT NULL,
                      tags TEXT NOT NULL,
                      done INTEGER NOT NULL,
                      doneAt TEXT,
                      due TEXT,
                      priority TEXT NOT NULL,
                      pinned INTEGER NOT NULL,
                      createdAt TEXT NOT NULL,
                      updatedAt TEXT NOT NULL,
                      deleted INTEGER NOT NULL,
                      rev INTEGER NOT NULL
                    );
                    CREATE INDEX itemVersion_by_item ON itemVersion(itemId, seq);

                    -- Local changes waiting for the server, in creation order (seq). `fields` holds
                    -- {"field": {"from": v, "to": v}} for creates and updates, NULL for deletes.
                    CREATE TABLE outbox (
                      seq INTEGER PRIMARY KEY AUTOINCREMENT,
                      opId TEXT NOT NULL UNIQUE,
                      itemId TEXT NOT NULL REFERENCES item(id) ON DELETE CASCADE,
                      kind TEXT NOT NULL CHECK (kind IN ('create', 'update', 'delete')),
                      baseRev INTEGER NOT NULL CHECK (baseRev >= 0),
                      fields TEXT CHECK ((kind = 'delete') = (fields IS NULL)),
                      createdAt TEXT NOT NULL,
                      attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
                      nextAttemptAt TEXT,
                      state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'in-flight', 'rejected')),
                      lastError TEXT
                    );
                    CREATE INDEX outbox_by_item ON outbox(itemId, seq);
                    CREATE INDEX outbox_by_state ON outbox(state, seq);

                    -- Where this device stands with the server: one row.
                    CREATE TABLE syncMeta (
                      id INTEGER PRIMARY KEY CHECK (id = 1),
                      deviceId TEXT NOT NULL CHECK (length(deviceId) = 36),
                      cursor TEXT,
                      epoch TEXT,
                      stateHash TEXT,
                      lastSuccessAt TEXT
                    );

                    -- Items that need review: the three versions (SPEC JSON items) and the fields in conflict.
                    CREATE TABLE conflict (
                      itemId TEXT PRIMARY KEY NOT NULL REFERENCES item(id) ON DELETE CASCADE,
                      base TEXT,
                      local TEXT NOT NULL,
                      remote TEXT NOT NULL,
                      fields TEXT NOT NULL CHECK (json_valid(fields)),
                      detectedAt TEXT NOT NULL
                    );

                    -- What the sync worker did, newest last.
                    CREATE TABLE syncEvent (
                      seq INTEGER PRIMARY KEY AUTOINCREMENT,
                      at TEXT NOT NULL,
                      kind TEXT NOT NULL,
                      message TEXT NOT NULL,
                      itemId TEXT,
                      opId TEXT
                    );

                    -- Full-text search over title, body and tags, kept in step with item by triggers.
                    CREATE VIRTUAL TABLE itemSearch USING fts5(
                      title, body, tags,
                      content = 'item', content_rowid = 'rowNumber',
                      tokenize = 'unicode61 remove_diacritics 2'
                    );
                    CREATE TRIGGER item_search_insert AFTER INSERT ON item BEGIN
                      INSERT INTO itemSearch(rowid, title, body, tags) VALUES (new.rowNumber, new.title, new.body, new.tags);
                    END;
                    CREATE TRIGGER item_search_delete AFTER DELETE ON item BEGIN
                      INSERT INTO itemSearch(itemSearch, rowid, title, body, tags)
                        VALUES ('delete', old.rowNumber, old.title, old.body, old.tags);
                    END;
                    CREATE TRIGGER item_search_update AFTER UPDATE OF title, body, tags ON item
                    WHEN old.title IS NOT new.title OR old.body IS NOT new.body OR old.tags IS NOT new.tags
                    BEGIN
                      INSERT INTO itemSearch(itemSearch, rowid, title, body, tags)
                        VALUES ('delete', old.rowNumber, old.title, old.body, old.tags);
                      INSERT INTO itemSearch(rowid, title, body, tags) VALUES (new.rowNumber, new.title, new.body, new.tags);
                    END;
                    """)
            let now = StoreTime.truncated(environment.now())
            try db.execute(
                sql: "INSERT INTO syncMeta (id, deviceId) VALUES (1, ?)",
                arguments: [environment.newID(now)])
        }
        migrator.registerMigration("v2 sync events carry their facts in columns") { db in
            try db.execute(
                sql: """
                    -- What an event's message says in words, as values: the bytes an exchange moved,
                    -- how long it took, the server's Retry-After and why it failed
                    -- ('unreachable', 'server', 'invalid-answer').
                    ALTER TABLE syncEvent ADD COLUMN bytes INTEGER;
                    ALTER TABLE syncEvent ADD COLUMN durationMs INTEGER;
                    ALTER TABLE syncEvent ADD COLUMN retryAfterSeconds REAL;
                    ALTER TABLE syncEvent ADD COLUMN failure TEXT;
                    -- Older retries said only in words that the server was out of reach.
                    UPDATE syncEvent SET failure = 'unreachable' WHERE kind = 'RETRY' AND message LIKE 'server unreachable%';
                    UPDATE syncEvent SET failure = 'server' WHERE kind = 'RETRY' AND failure IS NULL;
                    """)
        }
        migrator.registerMigration("v3 short ids") { db in
            try db.execute(
                sql: """
                    -- The short id each item shows on this device (see `ShortID`): given once, kept
                    -- until the item is purged. NULL until `assignShortIDs` finds a free one, which
                    -- every write does before it commits.
                    CREATE TABLE itemCode (
                      itemId TEXT PRIMARY KEY REFERENCES item(id) ON DELETE CASCADE,
                      code TEXT UNIQUE
                    );
                    CREATE INDEX itemCode_pending ON itemCode(itemId) WHERE code IS NULL;
                    CREATE TRIGGER itemCode_on_insert AFTER INSERT ON item BEGIN
                      INSERT OR IGNORE INTO itemCode(itemId) VALUES (new.id);
                    END;
                    INSERT INTO itemCode(itemId) SELECT id FROM item ORDER BY id;
                    """)
            try AppDatabase.assignShortIDsKeyedByItemID(in: db)
        }
        migrator.registerMigration("v4 drafts") { db in
            try db.execute(
                sql: """
                    -- Text typed in the app's editor and not saved yet (see `Draft`): one row per item
                    -- being edited, keyed 'new' for a new item. Never an op, never synced.
                    CREATE TABLE draft (
                      key TEXT PRIMARY KEY,
                      itemId TEXT,
                      kind TEXT NOT NULL,
                      title TEXT NOT NULL,
                      body TEXT NOT NULL,
                      originalTitle TEXT NOT NULL,
                      originalBody TEXT NOT NULL,
                      savedAt TEXT NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v5 server versions") { db in
            try db.execute(
                sql: """
                    -- Which server version (`ServerVersion`, text) an item's copy rests on, which one
                    -- each stored version was, and which one each op was made against; `basis` is set
                    -- on ops that re-send what a restored server lost.
                    ALTER TABLE item ADD COLUMN serverVersion TEXT;
                    ALTER TABLE itemVersion ADD COLUMN serverVersion TEXT;
                    ALTER TABLE outbox ADD COLUMN baseVersion TEXT;
                    ALTER TABLE outbox ADD COLUMN basis TEXT;
                    """)
        }
        migrator.registerMigration("v6 undo from history") { db in
            try db.execute(
                sql: """
                    -- `u` takes back local actions newest first, read from the history so that it
                    -- survives a restart: a version written by an undo names the version whose
                    -- action it took back (`undoes`); an action taken back, or found impossible to
                    -- take back, is `undone`. Actions are a person's: local edits and resolutions.
                    ALTER TABLE itemVersion ADD COLUMN undoes INTEGER;
                    ALTER TABLE itemVersion ADD COLUMN undone INTEGER NOT NULL DEFAULT 0;
                    CREATE INDEX itemVersion_actions ON itemVersion(seq)
                      WHERE origin IN ('local', 'resolve') AND undoes IS NULL AND undone = 0;
                    """)
        }
        migrator.registerMigration("v7 draft details") { db in
            try db.execute(
                sql: """
                    -- The editor's details line (tags, due date, priority) as typed, and as it opened.
                    ALTER TABLE draft ADD COLUMN details TEXT NOT NULL DEFAULT '';
                    ALTER TABLE draft ADD COLUMN originalDetails TEXT NOT NULL DEFAULT '';
                    """)
        }
        migrator.registerMigration("v8 short ids on insert") { db in
            try db.execute(
                sql: """
                    -- The item's own insert tries its 4-, 5- and 6-digit short ids (the first three of
                    -- `ShortID.candidates`: the id's last hex digits), the first one free is kept; only
                    -- when all three are taken does the row wait, code NULL, for `assignShortIDs`.
                    -- Giving a code afterwards rewrote every new row: 1.3 s of each 100k items
                    -- imported or pulled.
                    DROP TRIGGER itemCode_on_insert;
                    CREATE TRIGGER itemCode_on_insert AFTER INSERT ON item BEGIN
                      INSERT OR IGNORE INTO itemCode(itemId, code) VALUES (new.id, lower(substr(new.id, 33, 4)));
                      INSERT OR IGNORE INTO itemCode(itemId, code) VALUES (new.id, lower(substr(new.id, 32, 5)));
                      INSERT OR IGNORE INTO itemCode(itemId, code) VALUES (new.id, lower(substr(new.id, 31, 6)));
                      INSERT OR IGNORE INTO itemCode(itemId) VALUES (new.id);
                    END;
                    """)
        }
        migrator.registerMigration("v9 tallies") { db in
            try db.execute(
                sql: """
                    -- Running counts kept by the writes themselves, so that the list's total and the
                    -- sync summary cost the same at a million items as at ten: counting rows took
                    -- 73 ms (items) and 90 ms (outbox) of the app's first frame at 1M items.
                    -- `itemTally` holds one row per (deleted, done, kind); `outboxTally` one per state.
                    CREATE TABLE itemTally (
                      deleted INTEGER NOT NULL, done INTEGER NOT NULL, kind TEXT NOT NULL, n INTEGER NOT NULL,
                      PRIMARY KEY (deleted, done, kind)
                    ) WITHOUT ROWID;
                    INSERT INTO itemTally SELECT deleted, done, kind, count(*) FROM item GROUP BY 1, 2, 3;
                    CREATE TRIGGER itemTally_on_insert AFTER INSERT ON item BEGIN
                      INSERT INTO itemTally VALUES (new.deleted, new.done, new.kind, 1)
                        ON CONFLICT DO UPDATE SET n = n + 1;
                    END;
                    CREATE TRIGGER itemTally_on_delete AFTER DELETE ON item BEGIN
                      UPDATE itemTally SET n = n - 1 WHERE deleted = old.deleted AND done = old.done AND kind = old.kind;
                    END;
                    CREATE TRIGGER itemTally_on_update AFTER UPDATE OF deleted, done, kind ON item
                    WHEN old.deleted IS NOT new.deleted OR old.done IS NOT new.done OR old.kind IS NOT new.kind BEGIN
                      UPDATE itemTally SET n = n - 1 WHERE deleted = old.deleted AND done = old.done AND kind = old.kind;
                      INSERT INTO itemTally VALUES (new.deleted, new.done, new.kind, 1)
                        ON CONFLICT DO UPDATE SET n = n + 1;
                    END;
                    CREATE TABLE outboxTally (state TEXT PRIMARY KEY NOT NULL, n INTEGER NOT NULL) WITHOUT ROWID;
                    INSERT INTO outboxTally SELECT state, count(*) FROM outbox GROUP BY state;
                    CREATE TRIGGER outboxTally_on_insert AFTER INSERT ON outbox BEGIN
                      INSERT INTO outboxTally VALUES (new.state, 1) ON CONFLICT DO UPDATE SET n = n + 1;
                    END;
                    CREATE TRIGGER outboxTally_on_delete AFTER DELETE ON outbox BEGIN
                      UPDATE outboxTally SET n = n - 1 WHERE state = old.state;
                    END;
                    CREATE TRIGGER outboxTally_on_update AFTER UPDATE OF state ON outbox
                    WHEN old.state IS NOT new.state BEGIN
                      UPDATE outboxTally SET n = n - 1 WHERE state = old.state;
                      INSERT INTO outboxTally VALUES (new.state, 1) ON CONFLICT DO UPDATE SET n = n + 1;
                    END;
                    """)
        }
        migrator.registerMigration("v10 title and tag search") { db in
            try db.execute(
                sql: """
                    -- A second, small full-text index over titles and tags only, for the first two
                    -- tiers of a search's ranking (`SearchQuery.tiers`). SQLite gathers every posting
                    -- of a prefix before it can answer in row order: over bodies that is 22 ms per
                    -- common word at a million items; over titles and tags it is a few. Prefixes of
                    -- one and two letters, which match the most words, are indexed outright
                    -- (`prefix`), so the first keys of a search never gather at all.
                    CREATE VIRTUAL TABLE itemHeadSearch USING fts5(
                      title, tags,
                      content = 'item', content_rowid = 'rowNumber',
                      tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2'
                    );
                    INSERT INTO itemHeadSearch(itemHeadSearch) VALUES ('rebuild');
                    CREATE TRIGGER item_head_search_insert AFTER INSERT ON item BEGIN
                      INSERT INTO itemHeadSearch(rowid, title, tags) VALUES (new.rowNumber, new.title, new.tags);
                    END;
                    CREATE TRIGGER item_head_search_delete AFTER DELETE ON item BEGIN
                      INSERT INTO itemHeadSearch(itemHeadSearch, rowid, title, tags)
                        VALUES ('delete', old.rowNumber, old.title, old.tags);
                    END;
                    CREATE TRIGGER item_head_search_update AFTER UPDATE OF title, tags ON item
                    WHEN old.title IS NOT new.title OR old.tags IS NOT new.tags
                    BEGIN
                      INSERT INTO itemHeadSearch(itemHeadSearch, rowid, title, tags)
                        VALUES ('delete', old.rowNumber, old.title, old.tags);
                      INSERT INTO itemHeadSearch(rowid, title, tags) VALUES (new.rowNumber, new.title, new.tags);
                    END;
                    """)
        }
        migrator.registerMigration("v11 short ids in one insert") { db in
            try db.execute(
                sql: """
                    -- The same choice as v8 (the first free of the 4-, 5- and 6-digit candidates, else
                    -- NULL for `assignShortIDs`) in one insert: each candidate after the first is
                    -- looked up only when the one before is taken. Three inserts that mostly failed
                    -- on the item's own row cost 0.3 s of every 100k items imported or pulled.
                    DROP TRIGGER itemCode_on_insert;
                    CREATE TRIGGER itemCode_on_insert AFTER INSERT ON item BEGIN
                      INSERT OR IGNORE INTO itemCode(itemId, code) VALUES (new.id, \(shortCodeChoice));
                    END;
                    """)
        }
        migrator.registerMigration("v12 short ids by row") { db in
            try db.execute(
                sql: """
                    -- A listing shows each item's short id. Keyed by item id, the lookup read two
                    -- scattered pages per item (the id index, then the row): 6 of the 14 ms a search
                    -- printing a thousand matches spent in SQLite at a million items. Keyed by the
                    -- item's own row number, which the listing has in hand, it reads one. The same
                    -- indexes as before, so inserts cost the same; the choice of code is v11's.
                    DROP TRIGGER itemCode_on_insert;
                    CREATE TABLE itemCodeByRow (
                      rowNumber INTEGER PRIMARY KEY,
                      itemId TEXT NOT NULL UNIQUE REFERENCES item(id) ON DELETE CASCADE,
                      code TEXT UNIQUE
                    );
                    INSERT INTO itemCodeByRow (rowNumber, itemId, code)
                      SELECT item.rowNumber, itemCode.itemId, itemCode.code
                      FROM itemCode JOIN item ON item.id = itemCode.itemId ORDER BY item.rowNumber;
                    DROP TABLE itemCode;
                    ALTER TABLE itemCodeByRow RENAME TO itemCode;
                    CREATE INDEX itemCode_pending ON itemCode(itemId) WHERE code IS NULL;
                    CREATE TRIGGER itemCode_on_insert AFTER INSERT ON item BEGIN
                      INSERT OR IGNORE INTO itemCode(rowNumber, itemId, code)
                        VALUES (new.rowNumber, new.id, \(shortCodeChoice));
                    END;
                    """)
        }
        migrator.registerMigration("v13 short ids without the item id") { db in
            try db.execute(
                sql: """
                    -- v12 keyed short ids by the item's row but kept the item's id beside it, with a
                    -- unique index of its own: a copy of the item table's id index, written on every
                    -- insert. Ids arrive in any order in an import of Taskwarrior tasks (their ids
                    -- come from random uuids), so each insert wrote a page of that index somewhere
                    -- else: 15% of such an import, 9% of a first pull. The id is one join away.
                    DROP TRIGGER itemCode_on_insert;
                    CREATE TABLE itemCodeOfRow (
                      rowNumber INTEGER PRIMARY KEY REFERENCES item(rowNumber) ON DELETE CASCADE,
                      code TEXT UNIQUE
                    );
                    INSERT INTO itemCodeOfRow (rowNumber, code) SELECT rowNumber, code FROM itemCode ORDER BY rowNumber;
                    DROP TABLE itemCode;
                    ALTER TABLE itemCodeOfRow RENAME TO itemCode;
                    CREATE INDEX itemCode_pending ON itemCode(rowNumber) WHERE code IS NULL;
                    CREATE TRIGGER itemCode_on_insert AFTER INSERT ON item BEGIN
                      INSERT OR IGNORE INTO itemCode(rowNumber, code) VALUES (new.rowNumber, \(shortCodeChoice));
                    END;
                    """)
        }
        migrator.registerMigration("v14 conflicts say where the versions met") { db in
            try db.execute(
                sql: """
                    -- 'sync': this device's version met the server's (every record before v14).
                    -- 'edit': a save that started from an older version met the item as another
                    -- writer on this device left it; the row holds both, queued like any change.
                    -- The table is built anew (it holds a few rows at most), so the step can run
                    -- again over a store that has it.
                    CREATE TABLE conflictWithOrigin (
                      itemId TEXT PRIMARY KEY NOT NULL REFERENCES item(id) ON DELETE CASCADE,
                      base TEXT,
                      local TEXT NOT NULL,
                      remote TEXT NOT NULL,
                      fields TEXT NOT NULL CHECK (json_valid(fields)),
                      detectedAt TEXT NOT NULL,
                      origin TEXT NOT NULL DEFAULT 'sync' CHECK (origin IN ('sync', 'edit'))
                    );
                    INSERT INTO conflictWithOrigin (itemId, base, local, remote, fields, detectedAt)
                      SELECT itemId, base, local, remote, fields, detectedAt FROM conflict;
                    DROP TABLE conflict;
                    ALTER TABLE conflictWithOrigin RENAME TO conflict;
                    """)
        }
        migrator.registerMigration("v15 projects") { db in
            // A task's project or a note's notebook (`home.garden`), matched without regard to
            // case: `project:home` reads the index as `project = 'home'` and the range from
            // 'home.' to 'home/'. Each column is added once, so the step can run again over a
            // store that has them.
            if try !db.columns(in: "item").contains(where: { $0.name == "project" }) {
                try db.execute(sql: "ALTER TABLE item ADD COLUMN project TEXT COLLATE NOCASE")
            }
            if try !db.columns(in: "itemVersion").contains(where: { $0.name == "project" }) {
                try db.execute(sql: "ALTER TABLE itemVersion ADD COLUMN project TEXT")
            }
            try db.execute(
                sql: "CREATE INDEX IF NOT EXISTS item_by_project ON item(project) WHERE project IS NOT NULL")
        }
        migrator.registerMigration("v16 recurrence, wait and scheduled") { db in
            // A recurring task's rule and two dates, as text (`weekly`, `YYYY-MM-DD`). Waiting
            // tasks are few: a partial index lets a listing ask cheaply whether any is hidden
            // today (`AppDatabase.hasWaitingTasks`) before it gives up its counted fast path.
            // Each column is added once, so the step can run again over a store that has them.
            for table in ["item", "itemVersion"] {
                let existing = Set(try db.columns(in: table).map(\.name))
                for column in ["recur", "wait", "scheduled"] where !existing.contains(column) {
                    try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(column) TEXT")
                }
            }
            try db.execute(
                sql: """
                    CREATE INDEX IF NOT EXISTS item_by_wait ON item(wait)
                      WHERE wait IS NOT NULL AND deleted = 0 AND done = 0
                    """)
            try db.execute(
                sql: "CREATE INDEX IF NOT EXISTS item_by_scheduled ON item(scheduled) WHERE scheduled IS NOT NULL")
        }
        migrator.registerMigration("v17 links") { db in
            // `[[…]]` links (see `AppDatabase+Links.swift`): each body's links, every title each
            // item has had on this device (filled from the history, so titles from before the
            // step count as former titles), and the bodies whose links are to be read again
            // before the write that changed them commits. The triggers fire on every write of
            // a row, whichever path makes it. They never lean on OR IGNORE, which an OR clause
            // on the statement that fires a trigger overrides (SQLite's rule), so they test for
            // what is there instead; and a new row first clears what its row number left behind
            // (a row deleted with foreign keys off: a store that drifted, which the state hash
            // repairs; re-downloading it failed on the title index until then). Built with IF NOT EXISTS and filled anew, so the
            // step can run again over a store that has it.
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS itemLink (
                      rowNumber INTEGER NOT NULL REFERENCES item(rowNumber) ON DELETE CASCADE,
                      position INTEGER NOT NULL,
                      key TEXT NOT NULL,
                      text TEXT NOT NULL,
                      PRIMARY KEY (rowNumber, position)
                    ) WITHOUT ROWID;
                    CREATE INDEX IF NOT EXISTS itemLink_by_key ON itemLink(key);
                    CREATE TABLE IF NOT EXISTS itemTitle (
                      key TEXT NOT NULL,
                      rowNumber INTEGER NOT NULL REFERENCES item(rowNumber) ON DELETE CASCADE,
                      PRIMARY KEY (key, rowNumber)
                    ) WITHOUT ROWID;
                    CREATE INDEX IF NOT EXISTS itemTitle_by_row ON itemTitle(rowNumber);
                    CREATE TABLE IF NOT EXISTS itemLinkStale (
                      rowNumber INTEGER PRIMARY KEY REFERENCES item(rowNumber) ON DELETE CASCADE
                    );
                    DROP TRIGGER IF EXISTS itemLink_on_insert;
                    CREATE TRIGGER itemLink_on_insert AFTER INSERT ON item BEGIN
                      DELETE FROM itemLink WHERE rowNumber = new.rowNumber;
                      DELETE FROM itemTitle WHERE rowNumber = new.rowNumber;
                      DELETE FROM itemLinkStale WHERE rowNumber = new.rowNumber;
                      INSERT INTO itemTitle (key, rowNumber) VALUES (lower(new.title), new.rowNumber);
                      INSERT INTO itemLinkStale (rowNumber) SELECT new.rowNumber WHERE instr(new.body, '[[') > 0;
                    END;
                    DROP TRIGGER IF EXISTS itemLink_on_title;
                    CREATE TRIGGER itemLink_on_title AFTER UPDATE OF title ON item WHEN old.title IS NOT new.title BEGIN
                      INSERT INTO itemTitle (key, rowNumber) SELECT lower(new.title), new.rowNumber
                        WHERE NOT EXISTS (
                          SELECT 1 FROM itemTitle WHERE key = lower(new.title) AND rowNumber = new.rowNumber);
                    END;
                    DROP TRIGGER IF EXISTS itemLink_on_body;
                    CREATE TRIGGER itemLink_on_body AFTER UPDATE OF body ON item WHEN old.body IS NOT new.body BEGIN
                      DELETE FROM itemLink WHERE rowNumber = new.rowNumber;
                      INSERT INTO itemLinkStale (rowNumber) SELECT new.rowNumber
                        WHERE instr(new.body, '[[') > 0
                          AND NOT EXISTS (SELECT 1 FROM itemLinkStale WHERE rowNumber = new.rowNumber);
                    END;
                    DELETE FROM itemLink;
                    DELETE FROM itemTitle;
                    INSERT OR IGNORE INTO itemTitle (key, rowNumber) SELECT lower(title), rowNumber FROM item;
                    INSERT OR IGNORE INTO itemTitle (key, rowNumber)
                      SELECT lower(itemVersion.title), item.rowNumber FROM itemVersion JOIN item ON item.id = itemVersion.itemId;
                    INSERT OR IGNORE INTO itemLinkStale (rowNumber) SELECT rowNumber FROM item WHERE instr(body, '[[') > 0;
                    """)
            try AppDatabase.readStaleLinks(in: db)
        }
        migrator.registerMigration("v18 purged items") { db in
            // Items deleted for good (`AppDatabase+Purge.swift`): their ids, so that a tombstone
            // the server sends again is not brought back, and `waiting` while the row stays for
            // a delete that has still to reach the server. Built with IF NOT EXISTS, so the step
            // can run again over a store that has it.
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS purgedItem (
                      id TEXT PRIMARY KEY NOT NULL,
                      waiting INTEGER NOT NULL DEFAULT 0 CHECK (waiting IN (0, 1))
                    );
                    CREATE INDEX IF NOT EXISTS purgedItem_waiting ON purgedItem(id) WHERE waiting = 1;
                    """)
        }
        migrator.registerMigration("v19 attachments") { db in
            // The files attached to an item, as a JSON list of one-line references
            // (`AttachedFile.wireText`), NULL for none; the bytes live in the attachment store
            // (`AttachmentStore`), by hash. `attachmentTransfer` keeps what this device knows of
            // each file's journey to and from the server: it is never synced. Each part is
            // made once, so the step can run again over a store that has it.
            for table in ["item", "itemVersion"] {
                let existing = Set(try db.columns(in: table).map(\.name))
                if !existing.contains("attachments") {
                    try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN attachments TEXT")
                }
            }
            // Few items have files: sync asks for them after every round, and `has:attachment`
            // filters by them, through this partial index instead of a scan of every item.
            try db.execute(
                sql: "CREATE INDEX IF NOT EXISTS item_with_attachments ON item(rowNumber) WHERE attachments IS NOT NULL"
            )
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS attachmentTransfer (
                      hash TEXT PRIMARY KEY NOT NULL,
                      state TEXT NOT NULL CHECK (state IN ('uploading', 'uploaded', 'refused')),
                      sentBytes INTEGER NOT NULL DEFAULT 0,
                      reason TEXT
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v20 open tasks by urgency") { db in
            // `quire next` scores every open task (`AppDatabase.mostUrgent`). Through
            // `item_by_open_order` it read the rows of every open item, notes too: 318 ms at a
            // million items. This partial index holds the live open tasks only, with every column
            // the scoring and the default list's waiting test read, so the scan never leaves it.
            // (The planner, without statistics, prefers `item_by_open_order`; the query names it.)
            try db.execute(
                sql: """
                    CREATE INDEX IF NOT EXISTS item_open_tasks
                      ON item(due, priority, createdAt, id, wait, kind, done, deleted)
                      WHERE deleted = 0 AND done = 0 AND kind = 'task'
                    """)
        }
        migrator.registerMigration("v21 filter indexes") { db in
            // A filter (`quire list +garden project:p due.before:eow`) read every live item's
            // tags out of their JSON and tested its project and due date: 881 ms at a million
            // items. Now each of those terms can start from an index (`ItemFilter.start`):
            // - `itemTag`: each item's tags, folded as SQLite's `lower` and NOCASE fold them
            //   (ASCII letters, as `Tags.same`), kept by triggers on every write of a row
            //   whichever path makes it. Like the links of "v17 links", a new row first clears
            //   what its row number left behind, and nothing leans on OR IGNORE.
            // - `item_by_project_and_due` replaces `item_by_project`: with `deleted` and `due`
            //   in it, `project:p due.before:eow` is decided in the index, and only the rows
            //   that match are read.
            // - `item_by_due`: a due range over done tasks too (`item_open_tasks` holds only
            //   the open ones).
            // Built with IF NOT EXISTS and filled anew, so the step can run again over a store
            // that has it.
            let retag = """
                DELETE FROM itemTag WHERE rowNumber = new.rowNumber;
                INSERT INTO itemTag (key, rowNumber) SELECT DISTINCT lower(value), new.rowNumber FROM json_each(new.tags);
                """
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS itemTag (
                      key TEXT NOT NULL,
                      rowNumber INTEGER NOT NULL REFERENCES item(rowNumber) ON DELETE CASCADE,
                      PRIMARY KEY (key, rowNumber)
                    ) WITHOUT ROWID;
                    CREATE INDEX IF NOT EXISTS itemTag_by_row ON itemTag(rowNumber);
                    DROP TRIGGER IF EXISTS itemTag_on_insert;
                    CREATE TRIGGER itemTag_on_insert AFTER INSERT ON item BEGIN
                      \(retag)
                    END;
                    DROP TRIGGER IF EXISTS itemTag_on_tags;
                    CREATE TRIGGER itemTag_on_tags AFTER UPDATE OF tags ON item WHEN old.tags IS NOT new.tags BEGIN
                      \(retag)
                    END;
                    DELETE FROM itemTag;
                    INSERT INTO itemTag (key, rowNumber)
                      SELECT DISTINCT lower(json_each.value), item.rowNumber FROM item, json_each(item.tags);
                    CREATE INDEX IF NOT EXISTS item_by_project_and_due ON item(project, deleted, due)
                      WHERE project IS NOT NULL;
                    DROP INDEX IF EXISTS item_by_project;
                    CREATE INDEX IF NOT EXISTS item_by_due ON item(due, deleted) WHERE due IS NOT NULL;
                    """)
        }
        migrator.registerMigration("v22 unreadable versions") { db in
            // The server versions of items this device received and could not open
            // (`UnreadableVersion`): the state hash counts them, so one altered item no longer
            // makes every round end in a resync.
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS unreadableItem (
                      itemId TEXT PRIMARY KEY NOT NULL,
                      rev INTEGER NOT NULL,
                      deleted INTEGER NOT NULL,
                      reason TEXT NOT NULL,
                      seenAt TEXT NOT NULL
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v23 uploads confirmed per epoch") { db in
            // The server epoch in which the server confirmed it holds each file. A server restored
            // from a backup (a new epoch) may have lost files uploaded after that backup was
            // made, so a confirmation from an earlier epoch no longer counts: the device asks the
            // server again and re-sends what it lacks. Rows from before this column count as
            // unconfirmed: one question per file.
            if !(try db.columns(in: "attachmentTransfer").contains { $0.name == "epoch" }) {
                try db.execute(sql: "ALTER TABLE attachmentTransfer ADD COLUMN epoch TEXT")
            }
        }
        migrator.registerMigration("v24 keys an unreadable version was tried with") { db in
            // The fingerprint of the data keys each unreadable version was tried with
            // (`UnreadableVersion.triedKeys`): once the device holds other keys, those versions
            // are read again. Added only if missing, as a store may run this migration again.
            let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('unreadableItem')")
            if !columns.contains("triedKeys") {
                try db.execute(sql: "ALTER TABLE unreadableItem ADD COLUMN triedKeys TEXT")
            }
        }
        migrator.registerMigration("v25 attachment claims") { db in
            // The (item, file) pairs this device has told the server of (`attachmentClaim`): the
            // server purges a file once every item that claimed it is gone, so each item that
            // refers to a file must claim it. A claim counts in the server epoch it was made in
            // and under the file address it was made for, and for a week (`claimRenewal`); an item
            // deleted here loses its claims, so restoring it from the trash claims (and, if need
            // be, uploads) the file again.
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS attachmentClaim (
                      item TEXT NOT NULL,
                      hash TEXT NOT NULL,
                      address TEXT NOT NULL,
                      epoch TEXT,
                      claimedAt REAL NOT NULL DEFAULT 0,
                      PRIMARY KEY (item, hash)
                    ) WITHOUT ROWID;
                    CREATE TRIGGER IF NOT EXISTS attachmentClaim_on_delete AFTER UPDATE OF deleted ON item
                    WHEN new.deleted = 1 BEGIN
                      DELETE FROM attachmentClaim WHERE item = new.id;
                    END;
                    CREATE TRIGGER IF NOT EXISTS attachmentClaim_on_remove AFTER DELETE ON item BEGIN
                      DELETE FROM attachmentClaim WHERE item = old.id;
                    END;
                    """)
        }
        migrator.registerMigration("v26 locked for want of keys") { db in
            // When the server last refused this device for want of an encrypted account's keys
            // (`SyncMeta.lockedAt`). Added only if missing, as a store may run this migration again.
            let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('syncMeta')")
            if !columns.contains("lockedAt") {
                try db.execute(sql: "ALTER TABLE syncMeta ADD COLUMN lockedAt TEXT")
            }
        }
        migrator.registerMigration("v27 shown version") { db in
            // A count of the commits that may change what a screen shows (`shownVersion()`). A
            // poll that sees the data version move reads it: when it stayed, the commits touched
            // only sync's own records (its log, its meta, a file's transfer progress, which an
            // upload commits at every chunk) or the editor's drafts (written 300 ms after each
            // key), and the list is not read again for them.
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS shownVersion (n INTEGER NOT NULL);
                    INSERT INTO shownVersion SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM shownVersion);
                    """)
            let tables = [
                "item", "itemVersion", "outbox", "conflict", "itemLink",
                "itemLinkStale", "purgedItem", "unreadableItem", "attachmentClaim",
            ]
            for table in tables {
                for event in ["INSERT", "UPDATE", "DELETE"] {
                    try db.execute(
                        sql: """
                            CREATE TRIGGER IF NOT EXISTS \(table)_shown_on_\(event.lowercased()) AFTER \(event) ON \(table)
                            BEGIN UPDATE shownVersion SET n = n + 1; END;
                            """)
                }
            }
        }
        return migrator
    }

    /// The short id a new item's row gets (v11, and v12 and v13 which keep it): the first of its
    /// 4-, 5- and 6-digit candidates that is free, else NULL for `assignShortIDs`; each candidate
    /// after the first is looked up only when the one before is taken. Frozen with those
    /// migrations.
    static let shortCodeChoice = """
        coalesce(
          (SELECT lower(substr(new.id, 33, 4))
            WHERE NOT EXISTS (SELECT 1 FROM itemCode WHERE code = lower(substr(new.id, 33, 4)))),
          (SELECT lower(substr(new.id, 32, 5))
            WHERE NOT EXISTS (SELECT 1 FROM itemCode WHERE code = lower(substr(new.id, 32, 5)))),
          (SELECT lower(substr(new.id, 31, 6))
            WHERE NOT EXISTS (SELECT 1 FROM itemCode WHERE code = lower(substr(new.id, 31, 6)))))
        """

    /// 1 when the tallies agree with the rows they count, else 0: what tests check after
    /// crashes, kills and simulated sync (`v9 tallies`).
    public static let talliesAgreeSQL = """
        SELECT
          coalesce((SELECT group_concat(key, ',') FROM (
            SELECT deleted || '/' || done || '/' || kind || '=' || count(*) AS key FROM item GROUP BY deleted, done, kind
            ORDER BY key)), '')
          = coalesce((SELECT group_concat(key, ',') FROM (
            SELECT deleted || '/' || done || '/' || kind || '=' || n AS key FROM itemTally WHERE n <> 0 ORDER BY key)), '')
          AND coalesce((SELECT group_concat(key, ',') FROM (
            SELECT state || '=' || count(*) AS key FROM outbox GROUP BY state ORDER BY key)), '')
          = coalesce((SELECT group_concat(key, ',') FROM (
            SELECT state || '=' || n AS key FROM outboxTally WHERE n <> 0 ORDER BY key)), '')
        """
}

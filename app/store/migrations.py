"""Schema migrations: an ordered list of named steps, each run once, in one transaction.

`PRAGMA user_version` holds how many steps a database has had, so a database written by a
newer Murmur (more steps than this one knows) is refused instead of being misread.
`PRAGMA application_id` says the file is Murmur's, so another program's database is refused
instead of being adopted; one made before the ID existed is known by its record of migrations.
Never edit a step that has shipped; append a new one.
"""

import json
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from sqlite3 import Connection

from app.errors import SchemaTooNewError, StoreError

Migration = tuple[str, Callable[[Connection], None]]

APPLICATION_ID = int.from_bytes(b"MRMR", "big")  # in the file's header: this is a Murmur database


def _run_ddl(db: Connection, script: str) -> None:
    """Run DDL statements inside the caller's transaction.

    Not `executescript`: it commits any open transaction first, which would break the
    all-or-nothing promise of a migration step. Steps hold no semicolons inside statements.
    """
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _m001_initial(db: Connection) -> None:
    _run_ddl(
        db,
        """
        CREATE TABLE utterances (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            text TEXT NOT NULL,
            source TEXT NOT NULL CHECK (source IN ('voice', 'typed', 'cli')),
            created_at TEXT NOT NULL,
            outcome TEXT NOT NULL CHECK (outcome IN ('pending', 'done', 'failed')),
            error TEXT,
            attempts INTEGER NOT NULL DEFAULT 0,
            processed_at TEXT
        );
        CREATE INDEX utterances_outcome ON utterances (outcome);

        CREATE TABLE entries (
            id TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 32),
            content TEXT NOT NULL,
            summary TEXT NOT NULL,
            category TEXT NOT NULL CHECK (category IN
                ('todo', 'note', 'reminder', 'idea', 'list', 'habit', 'question', 'thought')),
            priority INTEGER CHECK (priority BETWEEN 1 AND 5),
            due_at TEXT,
            due_text TEXT,
            cadence TEXT CHECK (cadence IN ('daily', 'weekdays', 'weekly', 'monthly')),
            status TEXT NOT NULL CHECK (status IN ('active', 'snoozed', 'completed', 'archived')),
            snooze_until TEXT,
            source_text TEXT NOT NULL,
            utterance_id INTEGER REFERENCES utterances (id) ON DELETE SET NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            completed_at TEXT,
            revision INTEGER NOT NULL DEFAULT 1
        );
        CREATE INDEX entries_status_order ON entries (status, priority, created_at);

        CREATE TABLE undo_batches (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            utterance_id INTEGER REFERENCES utterances (id) ON DELETE SET NULL,
            label TEXT NOT NULL,
            created_at TEXT NOT NULL,
            undone_at TEXT
        );

        CREATE TABLE undo_items (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            batch_id INTEGER NOT NULL REFERENCES undo_batches (id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            kind TEXT NOT NULL,
            entry_id TEXT NOT NULL,
            description TEXT NOT NULL,
            before_row TEXT,
            after_revision INTEGER NOT NULL,
            undone_at TEXT,
            undo_conflict TEXT
        );
        CREATE INDEX undo_items_batch ON undo_items (batch_id, position);
        CREATE INDEX undo_items_entry ON undo_items (entry_id);
        """,
    )


def _m002_llm_requests_and_conversations(db: Connection) -> None:
    _run_ddl(
        db,
        """
        CREATE TABLE conversations (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            started_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            messages TEXT NOT NULL,
            open_until TEXT
        );

        ALTER TABLE utterances ADD COLUMN conversation_id INTEGER REFERENCES conversations (id) ON DELETE SET NULL;

        CREATE TABLE llm_requests (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            utterance_id INTEGER REFERENCES utterances (id) ON DELETE SET NULL,
            created_at TEXT NOT NULL,
            base_url TEXT NOT NULL,
            model TEXT NOT NULL,
            turn INTEGER NOT NULL,
            request TEXT NOT NULL,
            response TEXT,
            error TEXT,
            prompt_tokens INTEGER NOT NULL DEFAULT 0,
            completion_tokens INTEGER NOT NULL DEFAULT 0,
            cost_usd REAL NOT NULL DEFAULT 0,
            first_token_ms REAL,
            total_ms REAL
        );
        CREATE INDEX llm_requests_created ON llm_requests (created_at);
        """,
    )


def _m003_run_leases_and_identity(db: Connection) -> None:
    # The lease of a run in progress (app/changes/runs.py): its holder's host and pid, and until when.
    _run_ddl(
        db,
        """
        ALTER TABLE utterances ADD COLUMN lease_host TEXT;
        ALTER TABLE utterances ADD COLUMN lease_pid INTEGER;
        ALTER TABLE utterances ADD COLUMN lease_until TEXT;
        CREATE INDEX utterances_leased ON utterances (lease_pid) WHERE lease_pid IS NOT NULL
        """,
    )
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")


_SEARCH_TOKENIZER = "porter unicode61 remove_diacritics 2"  # "calls" finds "call", "cafe" finds "café"


def _m004_search_memory_and_sessions(db: Connection) -> None:
    # Full-text search of entries (the context's relevance, search_entries) and of what the user said and
    # was answered (recall), kept in step with their tables by triggers; the user's remembered facts
    # (undoable like entries: undo items now say what they changed); and sessions of talk.
    if not db.execute("SELECT sqlite_compileoption_used('ENABLE_FTS5')").fetchone()[0]:
        raise StoreError("this Python's SQLite has no full-text search (FTS5); install a Python built with it")
    _run_ddl(
        db,
        f"""
        CREATE VIRTUAL TABLE entries_search USING fts5 (
            entry_id UNINDEXED, summary, content, tokenize = '{_SEARCH_TOKENIZER}'
        );
        INSERT INTO entries_search (entry_id, summary, content) SELECT id, summary, content FROM entries;
        CREATE VIRTUAL TABLE entries_search_terms USING fts5vocab (entries_search, 'row');
        CREATE INDEX entries_due ON entries (due_at) WHERE due_at IS NOT NULL;
        CREATE INDEX entries_snoozed ON entries (snooze_until) WHERE snooze_until IS NOT NULL;
        CREATE INDEX entries_updated ON entries (updated_at);
        CREATE INDEX entries_priority ON entries (priority) WHERE priority IS NOT NULL;
        CREATE INDEX entries_category ON entries (category, created_at);

        CREATE TABLE sessions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            started_at TEXT NOT NULL,
            last_at TEXT NOT NULL,
            ended_at TEXT,
            end_reason TEXT CHECK (end_reason IN ('silence', 'quit', 'asked')),
            synthesis TEXT,
            synthesis_error TEXT
        );
        CREATE INDEX sessions_open ON sessions (ended_at) WHERE ended_at IS NULL;

        ALTER TABLE utterances ADD COLUMN session_id INTEGER REFERENCES sessions (id) ON DELETE SET NULL;
        ALTER TABLE utterances ADD COLUMN reply TEXT;
        CREATE INDEX utterances_session ON utterances (session_id);
        CREATE INDEX utterances_created ON utterances (created_at);
        CREATE VIRTUAL TABLE utterances_search USING fts5 (
            text, reply, content = 'utterances', content_rowid = 'id', tokenize = '{_SEARCH_TOKENIZER}'
        );
        INSERT INTO utterances_search (rowid, text, reply) SELECT id, text, reply FROM utterances;

        CREATE TABLE memories (
            id TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 32),
            text TEXT NOT NULL,
            source TEXT NOT NULL CHECK (source IN ('model', 'user')),
            utterance_id INTEGER REFERENCES utterances (id) ON DELETE SET NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            used_at TEXT NOT NULL,
            forgotten_at TEXT,
            revision INTEGER NOT NULL DEFAULT 1
        );

        ALTER TABLE undo_items ADD COLUMN subject TEXT NOT NULL DEFAULT 'entry' CHECK (subject IN ('entry', 'memory'))
        """,
    )
    # Triggers hold semicolons, so they are not split like the statements above.
    for trigger in (
        """CREATE TRIGGER entries_search_insert AFTER INSERT ON entries BEGIN
            INSERT INTO entries_search (entry_id, summary, content) VALUES (new.id, new.summary, new.content);
        END""",
        """CREATE TRIGGER entries_search_delete AFTER DELETE ON entries BEGIN
            DELETE FROM entries_search WHERE entry_id = old.id;
        END""",
        """CREATE TRIGGER entries_search_update AFTER UPDATE OF summary, content ON entries BEGIN
            DELETE FROM entries_search WHERE entry_id = old.id;
            INSERT INTO entries_search (entry_id, summary, content) VALUES (new.id, new.summary, new.content);
        END""",
        """CREATE TRIGGER utterances_search_insert AFTER INSERT ON utterances BEGIN
            INSERT INTO utterances_search (rowid, text, reply) VALUES (new.id, new.text, new.reply);
        END""",
        """CREATE TRIGGER utterances_search_delete AFTER DELETE ON utterances BEGIN
            INSERT INTO utterances_search (utterances_search, rowid, text, reply)
            VALUES ('delete', old.id, old.text, old.reply);
        END""",
        """CREATE TRIGGER utterances_search_update AFTER UPDATE OF text, reply ON utterances BEGIN
            INSERT INTO utterances_search (utterances_search, rowid, text, reply)
            VALUES ('delete', old.id, old.text, old.reply);
            INSERT INTO utterances_search (rowid, text, reply) VALUES (new.id, new.text, new.reply);
        END""",
    ):
        db.execute(trigger)


def _m005_tool_protocols(db: Connection) -> None:
    # Which tools each request offered and how (native function calling or <execute> blocks in the text),
    # and what Murmur learned of each model's way of calling tools, so it is not found out again every time.
    _run_ddl(
        db,
        """
        ALTER TABLE llm_requests ADD COLUMN tools TEXT;
        ALTER TABLE llm_requests ADD COLUMN protocol TEXT CHECK (protocol IN ('native', 'text'));
        CREATE TABLE model_protocols (
            base_url TEXT NOT NULL,
            model TEXT NOT NULL,
            protocol TEXT NOT NULL CHECK (protocol IN ('native', 'text')),
            reason TEXT NOT NULL,
            learned_at TEXT NOT NULL,
            PRIMARY KEY (base_url, model)
        )
        """,
    )


# The four cadences as repeat rules, written out: a shipped step must not change if the rules' code does.
_CADENCE_RULES = {
    "daily": "FREQ=DAILY",
    "weekdays": "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
    "weekly": "FREQ=WEEKLY",
    "monthly": "FREQ=MONTHLY",
}


def _m006_recurrence(db: Connection) -> None:
    # Habits repeat by an iCalendar RRULE body ("every other monday") instead of one of four cadences.
    # Undo records hold whole rows, so theirs move to the new column too, or undoing an old change would
    # write the dropped one. DROP COLUMN needs SQLite 3.35; an older one keeps `cadence`, no longer written.
    db.execute("ALTER TABLE entries ADD COLUMN recurrence TEXT")
    cases = " ".join(f"WHEN '{cadence}' THEN '{rule}'" for cadence, rule in _CADENCE_RULES.items())
    db.execute(f"UPDATE entries SET recurrence = CASE cadence {cases} END WHERE cadence IS NOT NULL")
    rows = db.execute("SELECT id, before_row FROM undo_items WHERE subject = 'entry' AND before_row IS NOT NULL")
    for item_id, before_row in rows.fetchall():
        row = json.loads(before_row)
        if "cadence" in row:
            row["recurrence"] = _CADENCE_RULES.get(row.pop("cadence") or "")
            db.execute(
                "UPDATE undo_items SET before_row = ? WHERE id = ?", (json.dumps(row, ensure_ascii=False), item_id)
            )
    if sqlite3.sqlite_version_info >= (3, 35):
        db.execute("ALTER TABLE entries DROP COLUMN cadence")


def _undo_items_naming(*subjects: str) -> str:
    """The DDL that rebuilds undo_items with a CHECK allowing `subjects` (SQLite cannot alter a CHECK), its rows,
    IDs and AUTOINCREMENT counter kept: each step that lets undo name a new kind of thing runs it."""
    allowed = ", ".join(f"'{subject}'" for subject in subjects)
    return f"""
        CREATE TABLE undo_items_new (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            batch_id INTEGER NOT NULL REFERENCES undo_batches (id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            kind TEXT NOT NULL,
            entry_id TEXT NOT NULL,
            description TEXT NOT NULL,
            before_row TEXT,
            after_revision INTEGER NOT NULL,
            undone_at TEXT,
            undo_conflict TEXT,
            subject TEXT NOT NULL DEFAULT 'entry' CHECK (subject IN ({allowed}))
        );
        INSERT INTO undo_items_new SELECT id, batch_id, position, kind, entry_id, description, before_row,
            after_revision, undone_at, undo_conflict, subject FROM undo_items;
        DROP TABLE undo_items;
        ALTER TABLE undo_items_new RENAME TO undo_items;
        CREATE INDEX undo_items_batch ON undo_items (batch_id, position);
        CREATE INDEX undo_items_entry ON undo_items (entry_id)
        """


def _m007_inbox_dismissals(db: Connection) -> None:
    # The inbox can be cleared: an utterance is dismissed (kept, out of the inbox) or corrected (its first
    # words kept), both undoable, so undo items may now name an utterance. A CHECK cannot be altered in
    # SQLite: undo_items is rebuilt with the wider one, its rows, IDs and AUTOINCREMENT counter kept.
    _run_ddl(
        db,
        """
        ALTER TABLE utterances ADD COLUMN dismissed_at TEXT;
        ALTER TABLE utterances ADD COLUMN heard_text TEXT;
        ALTER TABLE utterances ADD COLUMN revision INTEGER NOT NULL DEFAULT 1
        """,
    )
    _run_ddl(db, _undo_items_naming("entry", "memory", "utterance"))


def _m008_sync(db: Connection) -> None:
    # Two-way sync with a CalDAV task list. Every change to an entry queues it in the outbox in the same
    # transaction, by trigger, whichever code path made it (an action, an undo, an import): nothing can be
    # changed without being sent. The outbox holds one row per entry (the newest change is what is sent).
    # sync_items maps an entry to its object on the server and keeps the version both sides last agreed on,
    # the base a three-way merge needs when both changed it.
    _run_ddl(
        db,
        """
        CREATE TABLE sync_outbox (
            entry_id TEXT PRIMARY KEY NOT NULL,
            queued_at TEXT NOT NULL
        );
        CREATE TABLE sync_items (
            entry_id TEXT PRIMARY KEY NOT NULL,
            uid TEXT NOT NULL UNIQUE,
            href TEXT NOT NULL UNIQUE,
            etag TEXT,
            synced_ics TEXT NOT NULL
        );
        CREATE TABLE sync_state (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            calendar_url TEXT NOT NULL,
            calendar_name TEXT NOT NULL DEFAULT '',
            sync_token TEXT,
            last_sync_at TEXT,
            last_error TEXT
        )
        """,
    )
    queue = (
        "INSERT OR REPLACE INTO sync_outbox (entry_id, queued_at) "
        "VALUES ({row}.id, strftime('%Y-%m-%dT%H:%M:%f', 'now'))"
    )
    for event, row in (("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")):
        # Not through _run_ddl: a trigger's body holds a semicolon.
        db.execute(
            f"CREATE TRIGGER entries_sync_{event.lower()} AFTER {event} ON entries BEGIN {queue.format(row=row)}; END"
        )


def _m009_checklists(db: Connection) -> None:
    # A list's items, each ticked on its own (app/domain/checklist.py): JSON, null for an entry without a
    # checklist. Ticking one is a change to the entry like any other, so the sync triggers above queue it.
    db.execute("ALTER TABLE entries ADD COLUMN items TEXT")


def _m010_model_standing(db: Connection) -> None:
    # The log keeps what a request was sent besides its messages (stop sequences, token and time limits) and
    # says when its tokens are an estimate (a request cut short before the server counted them). A model that
    # cannot do the work is set aside until it is tested again, so the user does not wait on it every time.
    _run_ddl(
        db,
        """
        ALTER TABLE llm_requests ADD COLUMN sent_with TEXT;
        ALTER TABLE llm_requests ADD COLUMN tokens_estimated INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE model_standings (
            base_url TEXT NOT NULL,
            model TEXT NOT NULL,
            failures INTEGER NOT NULL DEFAULT 0,
            set_aside TEXT,
            changed_at TEXT NOT NULL,
            PRIMARY KEY (base_url, model)
        )
        """,
    )


def _m011_writes_at_scale(db: Connection) -> None:
    # Deleting or changing an entry found its search row by `entry_id`, a column FTS5 cannot index: every
    # such write read the whole search table, so undoing a large import took time growing with the square of
    # the list. Each search row's rowid is now kept by entry ID. Deleting an utterance (undoing an import of
    # Murmur's own export) looked up the rows naming it to set their reference null, each a full scan without
    # these indexes. And setting that reference null (a foreign key's action) runs the entry's sync trigger under
    # the action's own conflict policy, not the trigger's OR REPLACE: an entry already queued failed the delete
    # with a unique constraint. An upsert is not overridden so.
    _run_ddl(
        db,
        """
        CREATE TABLE entries_search_rows (entry_id TEXT PRIMARY KEY NOT NULL, search_rowid INTEGER NOT NULL)
            WITHOUT ROWID;
        INSERT OR REPLACE INTO entries_search_rows (entry_id, search_rowid)
            SELECT entry_id, rowid FROM entries_search ORDER BY rowid;
        DROP TRIGGER entries_search_insert;
        DROP TRIGGER entries_search_delete;
        DROP TRIGGER entries_search_update;
        DROP TRIGGER entries_sync_insert;
        DROP TRIGGER entries_sync_update;
        DROP TRIGGER entries_sync_delete;
        CREATE INDEX entries_utterance ON entries (utterance_id) WHERE utterance_id IS NOT NULL;
        CREATE INDEX memories_utterance ON memories (utterance_id) WHERE utterance_id IS NOT NULL;
        CREATE INDEX undo_batches_utterance ON undo_batches (utterance_id) WHERE utterance_id IS NOT NULL;
        CREATE INDEX llm_requests_utterance ON llm_requests (utterance_id) WHERE utterance_id IS NOT NULL
        """,
    )
    add = """INSERT INTO entries_search (entry_id, summary, content) VALUES (new.id, new.summary, new.content);
        INSERT OR REPLACE INTO entries_search_rows (entry_id, search_rowid) VALUES (new.id, last_insert_rowid());"""
    remove = """DELETE FROM entries_search
            WHERE rowid = (SELECT search_rowid FROM entries_search_rows WHERE entry_id = old.id);
        DELETE FROM entries_search_rows WHERE entry_id = old.id;"""
    queue = (
        "INSERT INTO sync_outbox (entry_id, queued_at) VALUES ({row}.id, strftime('%Y-%m-%dT%H:%M:%f', 'now')) "
        "ON CONFLICT (entry_id) DO UPDATE SET queued_at = excluded.queued_at"
    )
    for event, row in (("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")):
        db.execute(
            f"CREATE TRIGGER entries_sync_{event.lower()} AFTER {event} ON entries BEGIN {queue.format(row=row)}; END"
        )
    for trigger in (
        f"CREATE TRIGGER entries_search_insert AFTER INSERT ON entries BEGIN {add} END",
        f"CREATE TRIGGER entries_search_delete AFTER DELETE ON entries BEGIN {remove} END",
        f"CREATE TRIGGER entries_search_update AFTER UPDATE OF summary, content ON entries BEGIN {remove} {add} END",
    ):
        db.execute(trigger)  # not through _run_ddl: a trigger's body holds semicolons


def _m012_sync_failures_shown(db: Connection) -> None:
    # Sync says when it last failed, and which objects it left aside (one bad task never stops the rest, but
    # the user is told of it): what the tray and `murmur sync status` show.
    _run_ddl(
        db,
        """
        ALTER TABLE sync_state ADD COLUMN last_error_at TEXT;
        ALTER TABLE sync_state ADD COLUMN skipped TEXT NOT NULL DEFAULT '';
        ALTER TABLE sync_state ADD COLUMN unread TEXT NOT NULL DEFAULT ''
        """,
    )


def _m013_entry_originals(db: Connection) -> None:
    # The secrets privacy.keep_unredacted put back into entries, so sync and exports can leave them out.
    _run_ddl(
        db,
        """
        CREATE TABLE entry_originals (
            entry_id TEXT NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
            original TEXT NOT NULL,
            placeholder TEXT NOT NULL,
            PRIMARY KEY (entry_id, original)
        )
        """,
    )


def _m014_sync_failing_since(db: Connection) -> None:
    # A failing sync says since when it fails and what to do about it, after the process that failed is gone.
    _run_ddl(
        db,
        """
        ALTER TABLE sync_state ADD COLUMN failing_since TEXT;
        ALTER TABLE sync_state ADD COLUMN last_error_remedy TEXT;
        UPDATE sync_state SET failing_since = last_error_at WHERE last_error IS NOT NULL
        """,
    )


def _m015_batch_origin_and_held_requests(db: Connection) -> None:
    # Which other program made a batch ("Claude Desktop", over MCP), for History to say; and the changes such a
    # program asked for that wait for the user's yes (too many at once), kept with the inbox item that shows them.
    _run_ddl(
        db,
        """
        ALTER TABLE undo_batches ADD COLUMN origin TEXT;
        ALTER TABLE utterances ADD COLUMN held TEXT
        """,
    )


def _m016_recordings(db: Connection) -> None:
    # The sound of each dictated utterance, kept beside the database (app/recordings/), so a better engine can hear
    # it again. The row outlives its file: what removed the sound (retention, the user) is what `murmur play` says.
    # Forgetting a sound is undoable, so undo items may now name a recording: undo_items is rebuilt with the wider
    # CHECK (SQLite cannot alter one), its rows, IDs and AUTOINCREMENT counter kept, as step 007 did.
    _run_ddl(db, _undo_items_naming("entry", "memory", "utterance", "recording"))
    _run_ddl(
        db,
        """
        CREATE TABLE recordings (
            id INTEGER PRIMARY KEY,
            utterance_id INTEGER NOT NULL UNIQUE REFERENCES utterances(id) ON DELETE CASCADE,
            file TEXT NOT NULL,
            bytes INTEGER NOT NULL,
            seconds REAL NOT NULL,
            created_at TEXT NOT NULL,
            removed_at TEXT,
            removed_why TEXT,
            revision INTEGER NOT NULL DEFAULT 1
        );
        CREATE INDEX recordings_kept ON recordings(created_at) WHERE removed_at IS NULL
        """,
    )


def _m017_vocabulary(db: Connection) -> None:
    # The user's words: terms speech engines are told to expect, and replacements ("jay son" -> "JSON") put into
    # what was dictated. Removing one keeps the row (removed_at) so undo can bring it back; undo items may now
    # name a word, so undo_items is rebuilt with the wider CHECK, its rows, IDs and AUTOINCREMENT counter kept.
    _run_ddl(
        db,
        """
        CREATE TABLE vocabulary (
            id TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 32),
            term TEXT NOT NULL,
            heard TEXT,
            created_at TEXT NOT NULL,
            removed_at TEXT,
            revision INTEGER NOT NULL DEFAULT 1
        )
        """,
    )
    _run_ddl(db, _undo_items_naming("entry", "memory", "utterance", "recording", "word"))


MIGRATIONS: list[Migration] = [
    ("001_initial", _m001_initial),
    ("002_llm_requests_and_conversations", _m002_llm_requests_and_conversations),
    ("003_run_leases_and_identity", _m003_run_leases_and_identity),
    ("004_search_memory_and_sessions", _m004_search_memory_and_sessions),
    ("005_tool_protocols", _m005_tool_protocols),
    ("006_recurrence", _m006_recurrence),
    ("007_inbox_dismissals", _m007_inbox_dismissals),
    ("008_sync", _m008_sync),
    ("009_checklists", _m009_checklists),
    ("010_model_standing", _m010_model_standing),
    ("011_writes_at_scale", _m011_writes_at_scale),
    ("012_sync_failures_shown", _m012_sync_failures_shown),
    ("013_entry_originals", _m013_entry_originals),
    ("014_sync_failing_since", _m014_sync_failing_since),
    ("015_batch_origin_and_held_requests", _m015_batch_origin_and_held_requests),
    ("016_recordings", _m016_recordings),
    ("017_vocabulary", _m017_vocabulary),
]


def schema_version(db: Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def is_murmurs(db: Connection) -> bool:
    application_id = db.execute("PRAGMA application_id").fetchone()[0]
    if application_id:
        return bool(application_id == APPLICATION_ID)
    if not db.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone():
        return True  # empty: a new database
    # Made before the ID was stamped (or while a new one's first steps ran): its record of migrations.
    has_record = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'migrations'").fetchone()
    first_step = MIGRATIONS[0][0]
    return bool(has_record and db.execute("SELECT 1 FROM migrations WHERE name = ?", (first_step,)).fetchone())


def check_openable(db: Connection, path: str, steps: list[Migration] = MIGRATIONS) -> None:
    """Refuse another program's database, or one newer than this Murmur, by reading only: nothing is
    written to a file before it passes."""
    if not is_murmurs(db):
        raise StoreError(f"not a Murmur database: {path}")
    current = schema_version(db)
    if current > len(steps):
        raise SchemaTooNewError(
            f"{path} has schema version {current}, newer than this Murmur knows "
            f"({len(steps)}): upgrade Murmur to open it"
        )


def migrate(db: Connection, path: str, steps: list[Migration] = MIGRATIONS) -> int:
    """Bring the database up to the newest schema (or the last of `steps`); returns the number run.

    `db` is a raw sqlite3 connection in autocommit mode; each step and its bookkeeping run in
    one IMMEDIATE transaction, so a crash mid-migration leaves the previous version intact. A new
    database gets all its steps in one transaction: it has no version between them worth keeping, and
    one commit (one sync to disk) instead of one per step makes it several times quicker to create.
    """
    check_openable(db, path, steps)
    current = schema_version(db)
    pending = list(enumerate(steps, start=1))[current:]
    batches = [pending] if current == 0 else [[one] for one in pending]
    ran = 0
    for batch in batches:
        db.execute("BEGIN IMMEDIATE")
        try:
            # Re-read inside the lock: another process may have migrated meanwhile.
            version = schema_version(db)
            todo = [(number, migration) for number, migration in batch if number > version]
            if not todo:
                db.execute("ROLLBACK")
                continue
            db.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
            for _, (name, step) in todo:
                step(db)
                db.execute(
                    "INSERT INTO migrations (name, applied_at) VALUES (?, ?)",
                    (name, datetime.now(UTC).isoformat(timespec="microseconds")),
                )
            db.execute(f"PRAGMA user_version = {todo[-1][0]}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        ran += len(todo)
    return ran

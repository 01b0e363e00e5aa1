-- Schema version 3: live refresh state.
-- fetch_state: per source URL, the validators of the copy behind the current snapshot (ETag,
-- Last-Modified, for conditional requests) and that copy (raw body, or the offers parsed from a
-- large file as catalog CSV), so that a 304 Not Modified can reuse it without downloading again.
-- Written only after the snapshot it belongs to was committed.
CREATE TABLE fetch_state (
    url TEXT PRIMARY KEY,
    provider TEXT NOT NULL REFERENCES provider(id),
    etag TEXT NOT NULL DEFAULT '',
    last_modified TEXT NOT NULL DEFAULT '',
    fetched_at TEXT NOT NULL,
    cache_kind TEXT NOT NULL DEFAULT '' CHECK (cache_kind IN ('', 'raw', 'offers-csv')),
    cache BLOB
);
CREATE INDEX fetch_state_provider ON fetch_state(provider);

-- refresh_log: one row per refresh or file import attempt; the newest failure is the "last error".
CREATE TABLE refresh_log (
    id INTEGER PRIMARY KEY,
    provider TEXT NOT NULL REFERENCES provider(id),
    started_at TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('imported', 'unchanged', 'failed', 'cancelled')),
    origin TEXT NOT NULL DEFAULT '',
    snapshot_id INTEGER REFERENCES snapshot(id) ON DELETE SET NULL,
    message TEXT NOT NULL DEFAULT ''
);
CREATE INDEX refresh_log_provider ON refresh_log(provider, id);

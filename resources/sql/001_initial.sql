-- Schema version 1: providers, snapshots (price history), canonical GPUs and offers.
CREATE TABLE provider (
    id TEXT PRIMARY KEY,
    display_name TEXT NOT NULL
);

CREATE TABLE snapshot (
    id INTEGER PRIMARY KEY,
    provider TEXT NOT NULL REFERENCES provider(id),
    source_kind TEXT NOT NULL CHECK (source_kind IN ('bundled', 'live', 'file')),
    origin TEXT NOT NULL,
    fetched_at TEXT NOT NULL,
    data_date TEXT,
    checksum TEXT NOT NULL,
    row_count INTEGER NOT NULL CHECK (row_count >= 0),
    unrecognised_count INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'ok' CHECK (status IN ('ok', 'unchanged')),
    note TEXT NOT NULL DEFAULT ''
);
CREATE INDEX snapshot_provider ON snapshot(provider, status, fetched_at);

CREATE TABLE gpu_model (
    id TEXT PRIMARY KEY,
    vendor TEXT NOT NULL DEFAULT '',
    name TEXT NOT NULL,
    memory_gb REAL
);

CREATE TABLE offer (
    id INTEGER PRIMARY KEY,
    snapshot_id INTEGER NOT NULL REFERENCES snapshot(id) ON DELETE CASCADE,
    provider TEXT NOT NULL REFERENCES provider(id),
    instance_type TEXT NOT NULL,
    region TEXT NOT NULL,
    zone TEXT NOT NULL DEFAULT '',
    gpu_raw_name TEXT NOT NULL,
    gpu_id TEXT,
    gpu_count REAL NOT NULL CHECK (gpu_count > 0),
    gpu_mem_gb REAL,
    vcpus REAL,
    ram_gb REAL,
    network_gbps REAL,
    interconnect TEXT NOT NULL DEFAULT '',
    ondemand_usd_h REAL CHECK (ondemand_usd_h IS NULL OR ondemand_usd_h > 0),
    spot_usd_h REAL CHECK (spot_usd_h IS NULL OR spot_usd_h > 0),
    spot_label TEXT NOT NULL DEFAULT '',
    interruption TEXT NOT NULL DEFAULT '',
    reliability REAL,
    billing_increment_s INTEGER NOT NULL DEFAULT 1,
    billing_minimum_s INTEGER NOT NULL DEFAULT 60,
    source TEXT NOT NULL DEFAULT '',
    flags INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX offer_snapshot ON offer(snapshot_id);

-- Schema version 2: probe runs (local benchmark results used for calibration) and the
-- instance lookup used by the price history.
CREATE TABLE probe_run (
    id INTEGER PRIMARY KEY,
    created_at TEXT NOT NULL,
    origin TEXT NOT NULL DEFAULT 'local',
    kind TEXT NOT NULL CHECK (kind IN ('cuda', 'cpu')),
    device_name TEXT NOT NULL DEFAULT '',
    gpu_id TEXT,
    schema_version INTEGER NOT NULL,
    json TEXT NOT NULL
);
CREATE INDEX probe_run_created ON probe_run(created_at);
CREATE INDEX offer_instance ON offer(provider, instance_type, region);

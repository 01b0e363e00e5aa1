-- User measurements: training throughput measured on a rented offer (a launch plan's
-- gf_measure.py, or any document in its shape) and imported with `gpufrontier-cli measure --import` or
-- the Measurements page. The projection uses the newest one per (workload, GPU) as that GPU's speed.
-- Numbered 006: it follows 005_price_dates.sql.
-- checksum: SHA-256 of (workload, gpu, samples/s, GPU count, offer, measured_at): the same measurement
-- imported twice (its JSON file, then a job log holding it) is stored once.
CREATE TABLE user_measurement (
    id INTEGER PRIMARY KEY,
    workload_id TEXT NOT NULL CHECK (length(workload_id) > 0),
    gpu_id TEXT NOT NULL CHECK (length(gpu_id) > 0),
    samples_per_s_per_gpu REAL NOT NULL CHECK (samples_per_s_per_gpu > 0),
    gpu_count INTEGER NOT NULL DEFAULT 1 CHECK (gpu_count >= 1),
    batch_per_gpu INTEGER NOT NULL DEFAULT 0 CHECK (batch_per_gpu >= 0),
    precision TEXT NOT NULL DEFAULT '',
    offer_key TEXT NOT NULL DEFAULT '',
    source TEXT NOT NULL DEFAULT '',
    measured_at TEXT,
    imported_at TEXT NOT NULL,
    origin TEXT NOT NULL DEFAULT '',
    checksum TEXT NOT NULL UNIQUE,
    json TEXT NOT NULL DEFAULT ''
);
CREATE INDEX user_measurement_workload_gpu ON user_measurement(workload_id, gpu_id);

-- Schema version 4: vast.ai host metrics as columns (they were only in the row's source note).
-- upload_gbps: host upload bandwidth in Gbit/s (network_gbps holds the download bandwidth);
-- dlperf: vast.ai's DLPerf score. NULL for every other provider and for older snapshots.
ALTER TABLE offer ADD COLUMN upload_gbps REAL CHECK (upload_gbps IS NULL OR upload_gbps >= 0);
ALTER TABLE offer ADD COLUMN dlperf REAL CHECK (dlperf IS NULL OR dlperf >= 0);

-- Schema version 5: a row's own price date and a marketplace listing's end (price sanity).
-- price_date: ISO date of the row's price when it differs from its snapshot's data date (vast.ai offers
-- captured at another time); NULL = the snapshot's date. listing_end: ISO date the listing ends (vast.ai
-- end_date); NULL = not stated. A row older than its snapshot by > 90 days, or whose listing ended before
-- the snapshot's date, is flagged stale when the catalog is read.
ALTER TABLE offer ADD COLUMN price_date TEXT;
ALTER TABLE offer ADD COLUMN listing_end TEXT;

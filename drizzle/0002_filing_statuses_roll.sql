-- The planned filing quarters are computed from the open quarter; only the base statuses stay in the table.
DELETE FROM "filing_statuses" WHERE "name" ~ '^Q[1-4] [0-9]{4}$';

-- What the consolidated Sales Report reads from a report's rows (its counts and filter values) was
-- kept under the report row's version (xmin), which every decision changes too: approving the
-- largest report (118,800 rows on the skewed L data set) made the next page read all of its rows
-- again (p95 340 ms). rows_version moves only when a change writes the report's rows.
ALTER TABLE "reports" ADD COLUMN "rows_version" integer DEFAULT 0 NOT NULL;

-- The dashboard's sales sums are written when the transaction commits, not when its rows change.
-- Every partner's save adds to rows of dashboard_sales that other partners' saves add to as well
-- (the sums per month over every partner, per product and month, per country and month, per
-- product and country): a row written by the sales rows' INSERT or UPDATE stayed locked until the
-- transaction's COMMIT, through every statement after it, each a round trip to the server. With
-- 200 partners saving at once the saves queued for those rows one after another
-- (pg_stat_activity: most of the sessions inside a transaction waiting on Lock/transactionid in
-- the sales rows' INSERT or UPDATE; see bench/README.md, "Load").
-- Now the statement triggers add the statement's rows up by partner, product, country and month
-- (dashboard_sales_apply's inner query, 0005) into dashboard_sales_pending, and a deferred
-- constraint trigger spreads the transaction's pending sums over the grains and adds them to
-- dashboard_sales (dashboard_sales_apply's outer query) as the transaction commits: the shared rows
-- are locked only from then until the commit is written. The sums are the same and are written in
-- the same transaction: a transaction that rolls back leaves nothing, and no page sees sales rows
-- without their sums. A report's approval and a partner's activation go the same way, so the
-- changes of one transaction reach dashboard_sales once, added up. Pending rows never outlive their
-- transaction (unlogged: nothing of them goes to the WAL). dashboard_sales_apply stays as it was,
-- for rebuilding the sums by hand.
CREATE UNLOGGED TABLE "dashboard_sales_pending" (
	"tx" xid8 NOT NULL,
	"approved_only" boolean NOT NULL,
	"product_id" integer NOT NULL,
	"partner_id" integer NOT NULL,
	"country_id" integer NOT NULL,
	"year" integer,
	"month" integer,
	"units" numeric NOT NULL,
	"value_usd" numeric NOT NULL,
	"priced_gross_usd" numeric NOT NULL,
	"priced_packs" numeric NOT NULL,
	"priced_units" numeric NOT NULL,
	"row_count" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "dashboard_sales_pending_tx_idx" ON "dashboard_sales_pending" ("tx");
--> statement-breakpoint
-- One row per transaction with pending sums: its insert queues the deferred trigger once.
CREATE UNLOGGED TABLE "dashboard_sales_pending_flush" (
	"tx" xid8 PRIMARY KEY
);
--> statement-breakpoint
-- What some sales rows add (direction 1) or take away (-1), by scope, partner, product, country and
-- month, kept until the transaction commits. The arguments are dashboard_sales_apply's.
CREATE FUNCTION dashboard_sales_stage(changed sales_rows[], direction integer, approved_as boolean DEFAULT NULL, active_as boolean DEFAULT NULL, approved_scope_only boolean DEFAULT false)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO dashboard_sales_pending (tx, approved_only, product_id, partner_id, country_id, year, month,
    units, value_usd, priced_gross_usd, priced_packs, priced_units, row_count)
  SELECT pg_current_xact_id(), scope.approved_only, f.product_id, f.partner_id, f.country_id, f.year, f.month,
    direction * f.units, direction * f.value_usd, direction * f.priced_gross_usd, direction * f.priced_packs, direction * f.priced_units, direction * f.row_count
  FROM (
    SELECT s.product_id, r.partner_id, coalesce(s.country_id, 0) AS country_id, s.year, s.month,
      coalesce(active_as, p.is_active) AS counted, coalesce(approved_as, r.status = 'Approved') AS approved,
      coalesce(sum(CASE WHEN s.kind = 'FDF' THEN s.pack_size * s.quantity END), 0) AS units,
      coalesce(sum(CASE WHEN s.kind = 'FDF' THEN s.total_gross_value ELSE s.total_value END), 0) AS value_usd,
      coalesce(sum(s.total_gross_value) FILTER (WHERE s.kind = 'FDF' AND s.total_gross_value IS NOT NULL AND s.quantity > 0 AND s.pack_size > 0), 0) AS priced_gross_usd,
      coalesce(sum(s.quantity) FILTER (WHERE s.kind = 'FDF' AND s.total_gross_value IS NOT NULL AND s.quantity > 0 AND s.pack_size > 0), 0) AS priced_packs,
      coalesce(sum(s.quantity * s.pack_size) FILTER (WHERE s.kind = 'FDF' AND s.total_gross_value IS NOT NULL AND s.quantity > 0 AND s.pack_size > 0), 0) AS priced_units,
      count(*) AS row_count
    FROM unnest(changed) s
    JOIN reports r ON r.id = s.report_id
    JOIN partners p ON p.id = r.partner_id
    WHERE s.product_id IS NOT NULL
    GROUP BY 1, 2, 3, 4, 5, 6, 7
  ) f
  CROSS JOIN (VALUES (false), (true)) AS scope(approved_only)
  WHERE f.counted
    AND (NOT scope.approved_only OR f.approved)
    AND (scope.approved_only OR NOT approved_scope_only);
  INSERT INTO dashboard_sales_pending_flush (tx) VALUES (pg_current_xact_id()) ON CONFLICT DO NOTHING;
$$;
--> statement-breakpoint
-- At commit: the transaction's pending sums over every grain, added to dashboard_sales in the order
-- of its key (transactions wait for each other's rows in one order, never in a cycle).
CREATE FUNCTION dashboard_sales_flush() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM dashboard_sales_pending_flush WHERE tx = NEW.tx;
  WITH f AS (DELETE FROM dashboard_sales_pending WHERE tx = NEW.tx RETURNING *)
  INSERT INTO dashboard_sales AS d (grain, approved_only, product_id, partner_id, country_id, year, month,
    units, value_usd, priced_gross_usd, priced_packs, priced_units, row_count)
  SELECT
    CASE GROUPING(f.product_id, f.partner_id, f.country_id, f.year, f.month)
      WHEN 7 THEN 'product_partner' WHEN 11 THEN 'product_country' WHEN 19 THEN 'partner_country'
      WHEN 12 THEN 'product_month' WHEN 20 THEN 'partner_month' WHEN 24 THEN 'country_month' ELSE 'month' END,
    f.approved_only,
    -- A dimension left out of a grouping set comes out NULL: stored as 0.
    coalesce(f.product_id, 0), coalesce(f.partner_id, 0), coalesce(f.country_id, 0),
    coalesce(f.year, 0), coalesce(f.month, 0),
    sum(f.units), sum(f.value_usd), sum(f.priced_gross_usd), sum(f.priced_packs), sum(f.priced_units), sum(f.row_count)
  FROM f
  GROUP BY GROUPING SETS (
    (f.approved_only, f.product_id, f.partner_id),
    (f.approved_only, f.product_id, f.country_id),
    (f.approved_only, f.partner_id, f.country_id),
    (f.approved_only, f.product_id, f.year, f.month),
    (f.approved_only, f.partner_id, f.year, f.month),
    (f.approved_only, f.country_id, f.year, f.month),
    (f.approved_only, f.year, f.month)
  )
  -- Rows without a year or month count everywhere but over time.
  HAVING GROUPING(f.year) = 1 OR (f.year IS NOT NULL AND f.month IS NOT NULL)
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT (grain, approved_only, product_id, partner_id, country_id, year, month) DO UPDATE SET
    units = d.units + excluded.units,
    value_usd = d.value_usd + excluded.value_usd,
    priced_gross_usd = d.priced_gross_usd + excluded.priced_gross_usd,
    priced_packs = d.priced_packs + excluded.priced_packs,
    priced_units = d.priced_units + excluded.priced_units,
    row_count = d.row_count + excluded.row_count;
  DELETE FROM dashboard_sales WHERE row_count = 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER dashboard_sales_flush AFTER INSERT ON dashboard_sales_pending_flush
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION dashboard_sales_flush();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dashboard_sales_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM dashboard_sales_stage(ARRAY(SELECT ROW(o.*)::sales_rows FROM old_rows o), -1); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM dashboard_sales_stage(ARRAY(SELECT ROW(n.*)::sales_rows FROM new_rows n), 1); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dashboard_report_approval_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  direction integer := CASE WHEN NEW.status = 'Approved' THEN 1 ELSE -1 END;
BEGIN
  PERFORM dashboard_sales_stage(ARRAY(SELECT s FROM sales_rows s WHERE s.report_id = NEW.id), direction, true, NULL, true);
  PERFORM dashboard_filings_apply(ARRAY(SELECT f FROM filing_values f WHERE f.report_id = NEW.id), direction, true, NULL, true);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dashboard_partner_activation_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  direction integer := CASE WHEN NEW.is_active THEN 1 ELSE -1 END;
BEGIN
  PERFORM dashboard_sales_stage(ARRAY(SELECT s FROM sales_rows s JOIN reports r ON r.id = s.report_id WHERE r.partner_id = NEW.id), direction, NULL, true);
  PERFORM dashboard_filings_apply(ARRAY(SELECT f FROM filing_values f JOIN reports r ON r.id = f.report_id WHERE r.partner_id = NEW.id), direction, NULL, true);
  RETURN NULL;
END $$;

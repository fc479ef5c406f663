CREATE TABLE "dashboard_filings" (
	"quarter_id" integer NOT NULL,
	"approved_only" boolean NOT NULL,
	"product_id" integer NOT NULL,
	"country_id" integer NOT NULL,
	"status" text NOT NULL,
	"partners" integer NOT NULL,
	CONSTRAINT "dashboard_filings_quarter_id_approved_only_status_product_id_country_id_pk" PRIMARY KEY("quarter_id","approved_only","status","product_id","country_id")
);
--> statement-breakpoint
CREATE TABLE "dashboard_sales" (
	"grain" text NOT NULL,
	"approved_only" boolean NOT NULL,
	"product_id" integer NOT NULL,
	"partner_id" integer NOT NULL,
	"country_id" integer NOT NULL,
	"year" integer NOT NULL,
	"month" integer NOT NULL,
	"units" numeric NOT NULL,
	"value_usd" numeric NOT NULL,
	"priced_gross_usd" numeric NOT NULL,
	"priced_packs" numeric NOT NULL,
	"priced_units" numeric NOT NULL,
	"row_count" integer NOT NULL,
	CONSTRAINT "dashboard_sales_grain_approved_only_product_id_partner_id_country_id_year_month_pk" PRIMARY KEY("grain","approved_only","product_id","partner_id","country_id","year","month")
);
--> statement-breakpoint
CREATE INDEX "dashboard_sales_emptied_idx" ON "dashboard_sales" ("grain") WHERE "row_count" = 0;
--> statement-breakpoint
CREATE INDEX "dashboard_filings_emptied_idx" ON "dashboard_filings" ("quarter_id") WHERE "partners" = 0;
--> statement-breakpoint
-- Adds (direction 1) or takes away (direction -1) what some sales rows contribute to dashboard_sales:
-- to the sums over every report (approved_only false) and, for an approved report's rows, to the
-- sums over approved reports (approved_only true). Both are kept so a page reads its figures
-- without adding the two together.
-- approved_as / active_as stand in for the report's approval and the partner's activation when a
-- trigger moves rows from one state to the other; NULL reads them from reports and partners.
-- approved_scope_only: only the sums over approved reports change (a report's approval changed).
CREATE FUNCTION dashboard_sales_apply(changed sales_rows[], direction integer, approved_as boolean DEFAULT NULL, active_as boolean DEFAULT NULL, approved_scope_only boolean DEFAULT false)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO dashboard_sales AS d (grain, approved_only, product_id, partner_id, country_id, year, month,
    units, value_usd, priced_gross_usd, priced_packs, priced_units, row_count)
  SELECT
    CASE GROUPING(s.product_id, r.partner_id, coalesce(s.country_id, 0), s.year, s.month)
      WHEN 7 THEN 'product_partner' WHEN 11 THEN 'product_country' WHEN 19 THEN 'partner_country'
      WHEN 12 THEN 'product_month' WHEN 20 THEN 'partner_month' WHEN 24 THEN 'country_month' ELSE 'month' END,
    scope.approved_only,
    -- A dimension left out of a grouping set comes out NULL: stored as 0.
    coalesce(s.product_id, 0), coalesce(r.partner_id, 0), coalesce(coalesce(s.country_id, 0), 0),
    coalesce(s.year, 0), coalesce(s.month, 0),
    direction * coalesce(sum(CASE WHEN s.kind = 'FDF' THEN s.pack_size * s.quantity END), 0),
    direction * coalesce(sum(CASE WHEN s.kind = 'FDF' THEN s.total_gross_value ELSE s.total_value END), 0),
    direction * coalesce(sum(s.total_gross_value) FILTER (WHERE s.kind = 'FDF' AND s.total_gross_value IS NOT NULL AND s.quantity > 0 AND s.pack_size > 0), 0),
    direction * coalesce(sum(s.quantity) FILTER (WHERE s.kind = 'FDF' AND s.total_gross_value IS NOT NULL AND s.quantity > 0 AND s.pack_size > 0), 0),
    direction * coalesce(sum(s.quantity * s.pack_size) FILTER (WHERE s.kind = 'FDF' AND s.total_gross_value IS NOT NULL AND s.quantity > 0 AND s.pack_size > 0), 0),
    direction * count(*)
  FROM unnest(changed) s
  JOIN reports r ON r.id = s.report_id
  JOIN partners p ON p.id = r.partner_id
  CROSS JOIN (VALUES (false), (true)) AS scope(approved_only)
  WHERE s.product_id IS NOT NULL AND coalesce(active_as, p.is_active)
    AND (NOT scope.approved_only OR coalesce(approved_as, r.status = 'Approved'))
    AND (scope.approved_only OR NOT approved_scope_only)
  GROUP BY GROUPING SETS (
    (scope.approved_only, s.product_id, r.partner_id),
    (scope.approved_only, s.product_id, coalesce(s.country_id, 0)),
    (scope.approved_only, r.partner_id, coalesce(s.country_id, 0)),
    (scope.approved_only, s.product_id, s.year, s.month),
    (scope.approved_only, r.partner_id, s.year, s.month),
    (scope.approved_only, coalesce(s.country_id, 0), s.year, s.month),
    (scope.approved_only, s.year, s.month)
  )
  -- Rows without a year or month count everywhere but over time.
  HAVING GROUPING(s.year) = 1 OR (s.year IS NOT NULL AND s.month IS NOT NULL)
  ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT (grain, approved_only, product_id, partner_id, country_id, year, month) DO UPDATE SET
    units = d.units + excluded.units,
    value_usd = d.value_usd + excluded.value_usd,
    priced_gross_usd = d.priced_gross_usd + excluded.priced_gross_usd,
    priced_packs = d.priced_packs + excluded.priced_packs,
    priced_units = d.priced_units + excluded.priced_units,
    row_count = d.row_count + excluded.row_count;
  DELETE FROM dashboard_sales WHERE row_count = 0;
$$;
--> statement-breakpoint
-- The same for Filing Plans cells: partners per quarter, product, country and status ('0' is no filing).
CREATE FUNCTION dashboard_filings_apply(changed filing_values[], direction integer, approved_as boolean DEFAULT NULL, active_as boolean DEFAULT NULL, approved_scope_only boolean DEFAULT false)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO dashboard_filings AS d (quarter_id, approved_only, status, product_id, country_id, partners)
  SELECT r.quarter_id, scope.approved_only, f.status, f.product_id, f.country_id, direction * count(*)
  FROM unnest(changed) f
  JOIN reports r ON r.id = f.report_id
  JOIN partners p ON p.id = r.partner_id
  CROSS JOIN (VALUES (false), (true)) AS scope(approved_only)
  WHERE f.status <> '0' AND coalesce(active_as, p.is_active)
    AND (NOT scope.approved_only OR coalesce(approved_as, r.status = 'Approved'))
    AND (scope.approved_only OR NOT approved_scope_only)
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (quarter_id, approved_only, status, product_id, country_id) DO UPDATE SET partners = d.partners + excluded.partners;
  DELETE FROM dashboard_filings WHERE partners = 0;
$$;
--> statement-breakpoint
CREATE FUNCTION dashboard_sales_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM dashboard_sales_apply(ARRAY(SELECT ROW(o.*)::sales_rows FROM old_rows o), -1); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM dashboard_sales_apply(ARRAY(SELECT ROW(n.*)::sales_rows FROM new_rows n), 1); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER dashboard_sales_rows_inserted AFTER INSERT ON sales_rows REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_sales_rows_changed();
--> statement-breakpoint
CREATE TRIGGER dashboard_sales_rows_updated AFTER UPDATE ON sales_rows REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_sales_rows_changed();
--> statement-breakpoint
CREATE TRIGGER dashboard_sales_rows_deleted AFTER DELETE ON sales_rows REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_sales_rows_changed();
--> statement-breakpoint
CREATE FUNCTION dashboard_filing_values_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM dashboard_filings_apply(ARRAY(SELECT ROW(o.*)::filing_values FROM old_rows o), -1); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM dashboard_filings_apply(ARRAY(SELECT ROW(n.*)::filing_values FROM new_rows n), 1); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER dashboard_filing_values_inserted AFTER INSERT ON filing_values REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_filing_values_changed();
--> statement-breakpoint
CREATE TRIGGER dashboard_filing_values_updated AFTER UPDATE ON filing_values REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_filing_values_changed();
--> statement-breakpoint
CREATE TRIGGER dashboard_filing_values_deleted AFTER DELETE ON filing_values REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_filing_values_changed();
--> statement-breakpoint
-- A report approved, or no longer approved (reopened): its rows join or leave the sums over approved
-- reports (the sums over every report do not change).
CREATE FUNCTION dashboard_report_approval_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  direction integer := CASE WHEN NEW.status = 'Approved' THEN 1 ELSE -1 END;
BEGIN
  PERFORM dashboard_sales_apply(ARRAY(SELECT s FROM sales_rows s WHERE s.report_id = NEW.id), direction, true, NULL, true);
  PERFORM dashboard_filings_apply(ARRAY(SELECT f FROM filing_values f WHERE f.report_id = NEW.id), direction, true, NULL, true);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER dashboard_report_approval_changed AFTER UPDATE OF status ON reports
  FOR EACH ROW WHEN ((OLD.status = 'Approved') IS DISTINCT FROM (NEW.status = 'Approved'))
  EXECUTE FUNCTION dashboard_report_approval_changed();
--> statement-breakpoint
-- A partner deactivated (or activated again): its rows leave (or join) every figure.
CREATE FUNCTION dashboard_partner_activation_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  direction integer := CASE WHEN NEW.is_active THEN 1 ELSE -1 END;
BEGIN
  PERFORM dashboard_sales_apply(ARRAY(SELECT s FROM sales_rows s JOIN reports r ON r.id = s.report_id WHERE r.partner_id = NEW.id), direction, NULL, true);
  PERFORM dashboard_filings_apply(ARRAY(SELECT f FROM filing_values f JOIN reports r ON r.id = f.report_id WHERE r.partner_id = NEW.id), direction, NULL, true);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER dashboard_partner_activation_changed AFTER UPDATE OF is_active ON partners
  FOR EACH ROW WHEN (OLD.is_active IS DISTINCT FROM NEW.is_active)
  EXECUTE FUNCTION dashboard_partner_activation_changed();
--> statement-breakpoint
-- What the rows already hold.
SELECT dashboard_sales_apply(ARRAY(SELECT s FROM sales_rows s), 1);
--> statement-breakpoint
SELECT dashboard_filings_apply(ARRAY(SELECT f FROM filing_values f), 1);

-- The save's dropUnusedVerifications and the verification dialog's row counts look sales rows up by
-- their verification: without an index each look-up read the whole table (a one-cell save of a
-- 12,000-row draft with a pending verification: 1,217 ms on 5,000,000 rows). Few rows carry one.
CREATE INDEX "sales_rows_product_verification_idx" ON "sales_rows" USING btree ("product_verification_id") WHERE "sales_rows"."product_verification_id" IS NOT NULL;
--> statement-breakpoint
-- A report deleted: its sales rows and Filing Plans cells went by the foreign keys' cascade after
-- the report row was gone, so the aggregate triggers found no partner, quarter or status for them
-- (they join reports) and their sums stayed in dashboard_sales and dashboard_filings. Deleted here
-- first, while the report is still there, they leave the sums as rows deleted any other way do.
-- (A partner is not deleted with its reports: reports.partner_id refuses it.)
CREATE FUNCTION dashboard_report_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM sales_rows WHERE report_id = OLD.id;
  DELETE FROM filing_values WHERE report_id = OLD.id;
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE TRIGGER dashboard_report_deleted BEFORE DELETE ON reports
  FOR EACH ROW EXECUTE FUNCTION dashboard_report_deleted();

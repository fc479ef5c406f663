-- Stored checks (issue 32): each partner's mean FDF price per pack per quarter, product and country (the peer-price
-- rule's medians come from here, not from the quarter's sales rows), and each report's open findings counted by kind.
CREATE TABLE "report_check_counts" (
	"report_id" integer PRIMARY KEY NOT NULL,
	"total" integer NOT NULL,
	"licence" integer NOT NULL,
	"contradiction" integer NOT NULL,
	"unusual" integer NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_price_means" (
	"quarter_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"country_id" integer,
	"partner_id" integer NOT NULL,
	"mean_price_usd" numeric NOT NULL,
	"row_count" integer NOT NULL,
	CONSTRAINT "sales_price_means_uq" UNIQUE NULLS NOT DISTINCT("quarter_id","product_id","country_id","partner_id")
);
--> statement-breakpoint
ALTER TABLE "report_check_counts" ADD CONSTRAINT "report_check_counts_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sales_price_means_partner_idx" ON "sales_price_means" USING btree ("partner_id","quarter_id");
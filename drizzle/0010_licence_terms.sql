-- Licence terms per partner and product (issue 32): the default royalty rate, the API licence, and the
-- countries where the licence differs (another rate, or outside the territory). Rates are percent, as
-- the Sales Report's Royalty % (numeric(9,4), 0 to 100).
CREATE TABLE "licence_country_terms" (
	"licence_term_id" integer NOT NULL,
	"country_id" integer NOT NULL,
	"royalty_rate" numeric(9, 4),
	"is_licensed" boolean DEFAULT true NOT NULL,
	CONSTRAINT "licence_country_terms_licence_term_id_country_id_pk" PRIMARY KEY("licence_term_id","country_id"),
	CONSTRAINT "licence_country_terms_licensed_rate" CHECK ("licence_country_terms"."is_licensed" = false or "licence_country_terms"."royalty_rate" is not null),
	CONSTRAINT "licence_country_terms_royalty_rate_range" CHECK ("licence_country_terms"."royalty_rate" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "licence_terms" (
	"id" serial PRIMARY KEY NOT NULL,
	"partner_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"royalty_rate" numeric(9, 4) NOT NULL,
	"api_licensed" boolean DEFAULT false NOT NULL,
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "licence_terms_royalty_rate_range" CHECK ("licence_terms"."royalty_rate" between 0 and 100)
);
--> statement-breakpoint
ALTER TABLE "licence_country_terms" ADD CONSTRAINT "licence_country_terms_licence_term_id_licence_terms_id_fk" FOREIGN KEY ("licence_term_id") REFERENCES "public"."licence_terms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_country_terms" ADD CONSTRAINT "licence_country_terms_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_terms" ADD CONSTRAINT "licence_terms_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_terms" ADD CONSTRAINT "licence_terms_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_terms" ADD CONSTRAINT "licence_terms_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "licence_terms_partner_product_uq" ON "licence_terms" USING btree ("partner_id","product_id");
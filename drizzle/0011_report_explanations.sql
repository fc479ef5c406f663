-- The partner's reasons for the changes a report must explain before it is submitted (issue 32: sales swings,
-- timeline slips), one per report and subject, and the reasons as submitted kept in the submission's snapshot.
CREATE TABLE "report_explanations" (
	"report_id" integer NOT NULL,
	"subject" text NOT NULL,
	"reason" text NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_explanations_report_id_subject_pk" PRIMARY KEY("report_id","subject")
);
--> statement-breakpoint
ALTER TABLE "report_snapshots" ADD COLUMN "explanations" jsonb;--> statement-breakpoint
ALTER TABLE "report_explanations" ADD CONSTRAINT "report_explanations_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_explanations" ADD CONSTRAINT "report_explanations_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
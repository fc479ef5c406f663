CREATE TABLE "report_thread_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"thread_id" integer NOT NULL,
	"author_id" integer,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_threads" (
	"id" serial PRIMARY KEY NOT NULL,
	"report_id" integer NOT NULL,
	"table_name" text NOT NULL,
	"row_id" integer NOT NULL,
	"column" text,
	"row_label" text NOT NULL,
	"opened_by" integer,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_by" integer,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "report_thread_messages" ADD CONSTRAINT "report_thread_messages_thread_id_report_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."report_threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_thread_messages" ADD CONSTRAINT "report_thread_messages_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_threads" ADD CONSTRAINT "report_threads_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_threads" ADD CONSTRAINT "report_threads_opened_by_users_id_fk" FOREIGN KEY ("opened_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_threads" ADD CONSTRAINT "report_threads_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_thread_messages_thread_idx" ON "report_thread_messages" USING btree ("thread_id","id");--> statement-breakpoint
CREATE INDEX "report_threads_report_idx" ON "report_threads" USING btree ("report_id","resolved_at");
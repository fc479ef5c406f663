import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();
/** Money and quantities: exact decimals, never floating point. */
const money = (name: string) => numeric(name, { precision: 20, scale: 6 });

export const roleEnum = pgEnum("role", ["ADMIN", "STAFF", "PARTNER"]);
export const productCategoryEnum = pgEnum("product_category", ["FDF", "API"]);
export const projectStatusEnum = pgEnum("project_status", ["PLANNED", "UNDER_DEVELOPMENT", "ON_HOLD", "DROPPED", "FILED", "APPROVED"]);
export const reportTypeEnum = pgEnum("report_type", ["pdt", "filing", "sales"]);
export const reportStatusEnum = pgEnum("report_status", ["Saved", "Submitted", "Resubmitted", "Approved", "Rejected"]);
export const salesKindEnum = pgEnum("sales_kind", ["API", "FDF"]);
export const verificationStatusEnum = pgEnum("verification_status", ["pending", "approved", "rejected"]);
export const mailStatusEnum = pgEnum("mail_status", ["pending", "sent", "failed"]);
export const tokenPurposeEnum = pgEnum("token_purpose", ["set", "reset"]);

// ---------------------------------------------------------------- reference data

export const countries = pgTable("countries", {
  id: serial("id").primaryKey(),
  isoCode: text("iso_code").notNull().unique(),
  name: text("name").notNull().unique(),
  callingCode: text("calling_code").notNull(),
});

export const currencies = pgTable("currencies", {
  code: text("code").primaryKey(),
  name: text("name").notNull(),
  usdRate: numeric("usd_rate", { precision: 24, scale: 12 }).notNull(),
  updatedAt: updatedAt(),
});

export const formulationTypes = pgTable("formulation_types", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
  sortOrder: integer("sort_order").notNull(),
});

export const therapyAreas = pgTable("therapy_areas", {
  code: text("code").primaryKey(),
  sortOrder: integer("sort_order").notNull(),
});

export const stages = pgTable(
  "stages",
  {
    id: serial("id").primaryKey(),
    category: productCategoryEnum("category").notNull(),
    name: text("name").notNull(),
    sortOrder: integer("sort_order").notNull(),
  },
  (t) => [uniqueIndex("stages_category_name_uq").on(t.category, t.name)],
);

/** Allowed values of a Filing Plans cell, per product category (decisions.md section 5). */
export const filingStatuses = pgTable(
  "filing_statuses",
  {
    id: serial("id").primaryKey(),
    category: productCategoryEnum("category").notNull(),
    name: text("name").notNull(),
    sortOrder: integer("sort_order").notNull(),
  },
  (t) => [uniqueIndex("filing_statuses_category_name_uq").on(t.category, t.name)],
);

export const quarters = pgTable(
  "quarters",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull().unique(),
    year: integer("year").notNull(),
    quarter: integer("quarter").notNull(),
    startDate: date("start_date").notNull(),
    endDate: date("end_date").notNull(),
  },
  (t) => [uniqueIndex("quarters_year_quarter_uq").on(t.year, t.quarter)],
);

// ---------------------------------------------------------------- partners and people

export const partners = pgTable(
  "partners",
  {
    id: serial("id").primaryKey(),
    companyName: text("company_name").notNull(),
    email: text("email").notNull(),
    contactNumber: text("contact_number").notNull(),
    address: text("address"),
    region: text("region").notNull(),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("partners_email_lower_uq").on(sql`lower(${t.email})`), index("partners_company_name_idx").on(t.companyName)],
);

export const employees = pgTable(
  "employees",
  {
    id: serial("id").primaryKey(),
    partnerId: integer("partner_id")
      .notNull()
      .references(() => partners.id, { onDelete: "cascade" }),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    contactNumber: text("contact_number").notNull(),
  },
  (t) => [index("employees_partner_idx").on(t.partnerId)],
);

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    passwordHash: text("password_hash"),
    role: roleEnum("role").notNull(),
    partnerId: integer("partner_id").references(() => partners.id),
    language: text("language").notNull().default("en"),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_lower_uq").on(sql`lower(${t.email})`), index("users_partner_idx").on(t.partnerId)],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    /** The absolute end: 12 hours after sign-in, or 30 days with "remember me". */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** A plain sign-in also ends this long after its last request; null ("remember me"): no idle end. */
    idleTimeoutSeconds: integer("idle_timeout_seconds"),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

export const passwordTokens = pgTable(
  "password_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    purpose: tokenPurposeEnum("purpose").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("password_tokens_user_idx").on(t.userId)],
);

export const apiTokens = pgTable(
  "api_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("api_tokens_user_idx").on(t.userId)],
);

/** Fixed-window counters shared by every server instance (login and reset throttling). */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  count: integer("count").notNull(),
});

// ---------------------------------------------------------------- products

export const products = pgTable(
  "products",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    category: productCategoryEnum("category").notNull(),
    therapyArea: text("therapy_area")
      .notNull()
      .references(() => therapyAreas.code),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("products_name_lower_uq").on(sql`lower(${t.name})`)],
);

export const partnerProducts = pgTable(
  "partner_products",
  {
    id: serial("id").primaryKey(),
    partnerId: integer("partner_id")
      .notNull()
      .references(() => partners.id, { onDelete: "cascade" }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id),
    projectStatus: projectStatusEnum("project_status").notNull().default("PLANNED"),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("partner_products_partner_product_uq").on(t.partnerId, t.productId), index("partner_products_product_idx").on(t.productId)],
);

// ---------------------------------------------------------------- licence terms

/** Royalty rates in percent, as the Sales Report's Royalty % (numeric(9,4), 0 to 100). */
const royaltyRate = (name: string) => numeric(name, { precision: 9, scale: 4 });

/** A partner's licence for one of its products: the default royalty rate and whether it may sell the product's API. */
export const licenceTerms = pgTable(
  "licence_terms",
  {
    id: serial("id").primaryKey(),
    partnerId: integer("partner_id")
      .notNull()
      .references(() => partners.id, { onDelete: "cascade" }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id),
    royaltyRate: royaltyRate("royalty_rate").notNull(),
    apiLicensed: boolean("api_licensed").notNull().default(false),
    updatedBy: integer("updated_by").references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("licence_terms_partner_product_uq").on(t.partnerId, t.productId),
    check("licence_terms_royalty_rate_range", sql`${t.royaltyRate} between 0 and 100`),
  ],
);

/**
 * A country where a licence differs from its default: another rate (0 is royalty-free), or not
 * licensed at all (outside the territory: no rate).
 */
export const licenceCountryTerms = pgTable(
  "licence_country_terms",
  {
    licenceTermId: integer("licence_term_id")
      .notNull()
      .references(() => licenceTerms.id, { onDelete: "cascade" }),
    countryId: integer("country_id")
      .notNull()
      .references(() => countries.id),
    royaltyRate: royaltyRate("royalty_rate"),
    isLicensed: boolean("is_licensed").notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.licenceTermId, t.countryId] }),
    check("licence_country_terms_licensed_rate", sql`${t.isLicensed} = false or ${t.royaltyRate} is not null`),
    check("licence_country_terms_royalty_rate_range", sql`${t.royaltyRate} between 0 and 100`),
  ],
);

// ---------------------------------------------------------------- reports

export const reports = pgTable(
  "reports",
  {
    id: serial("id").primaryKey(),
    partnerId: integer("partner_id")
      .notNull()
      .references(() => partners.id),
    quarterId: integer("quarter_id")
      .notNull()
      .references(() => quarters.id),
    type: reportTypeEnum("type").notNull(),
    status: reportStatusEnum("status").notNull(),
    /** Incremented on every change; a save carries the version its editor loaded. */
    version: integer("version").notNull().default(1),
    /** Incremented by a change that writes the report's rows (not by a decision): what is read from the rows is kept under it. */
    rowsVersion: integer("rows_version").notNull().default(0),
    isLate: boolean("is_late").notNull().default(false),
    savedAt: timestamp("saved_at", { withTimezone: true }),
    savedBy: integer("saved_by").references(() => users.id),
    firstSubmittedAt: timestamp("first_submitted_at", { withTimezone: true }),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    isEmpty: boolean("is_empty").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("reports_partner_quarter_type_uq").on(t.partnerId, t.quarterId, t.type), index("reports_quarter_type_idx").on(t.quarterId, t.type)],
);

export const reportMessages = pgTable(
  "report_messages",
  {
    id: serial("id").primaryKey(),
    reportId: integer("report_id")
      .notNull()
      .references(() => reports.id, { onDelete: "cascade" }),
    authorId: integer("author_id").references(() => users.id),
    isPartnerMessage: boolean("is_partner_message").notNull(),
    /** true: approval, false: rejection, null: a submission or plain message. */
    isApproved: boolean("is_approved"),
    message: text("message").notNull(),
    readByPartnerAt: timestamp("read_by_partner_at", { withTimezone: true }),
    readByAdminAt: timestamp("read_by_admin_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("report_messages_report_idx").on(t.reportId, t.createdAt)],
);

/** Immutable copies of a report's rows at each submission and decision, with their SHA-256. */
export const reportSnapshots = pgTable(
  "report_snapshots",
  {
    id: serial("id").primaryKey(),
    reportId: integer("report_id")
      .notNull()
      .references(() => reports.id, { onDelete: "cascade" }),
    event: text("event").notNull(),
    version: integer("version").notNull(),
    rows: jsonb("rows").notNull(),
    rowCount: integer("row_count").notNull(),
    sha256: text("sha256").notNull(),
    comment: text("comment"),
    /** The partner's reasons for the changes to explain, as submitted (null when there were none). */
    explanations: jsonb("explanations"),
    createdBy: integer("created_by").references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index("report_snapshots_report_idx").on(t.reportId, t.createdAt)],
);

/** Binary data: a Buffer here, whichever driver (postgres-js answers a Buffer, the embedded database a Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

/** A submission's proof (its PDF, app/reports/frame/submission-pdf.server.ts), kept once drawn: its snapshot never changes. */
export const submissionPdfs = pgTable("submission_pdfs", {
  snapshotId: integer("snapshot_id")
    .primaryKey()
    .references(() => reportSnapshots.id, { onDelete: "cascade" }),
  pdf: bytea("pdf").notNull(),
  createdAt: createdAt(),
});

/**
 * The partner's reason for a change its report must explain before it is submitted (a sales swing,
 * a timeline slip), one per report and subject: the report declares the subjects ("sales:<product>:<country>").
 */
export const reportExplanations = pgTable(
  "report_explanations",
  {
    reportId: integer("report_id")
      .notNull()
      .references(() => reports.id, { onDelete: "cascade" }),
    subject: text("subject").notNull(),
    reason: text("reason").notNull(),
    updatedBy: integer("updated_by").references(() => users.id),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.subject] })],
);

/**
 * A conversation on a row or a cell of a report, between the partner and the administrators. It
 * names the row by its id in the report's row table (no foreign key: a removed row keeps its
 * thread, shown as removed) and the table the row is in ("API", "FDF"); `column` is null for the
 * whole row. Open until someone resolves it.
 */
export const reportThreads = pgTable(
  "report_threads",
  {
    id: serial("id").primaryKey(),
    reportId: integer("report_id")
      .notNull()
      .references(() => reports.id, { onDelete: "cascade" }),
    tableName: text("table_name").notNull(),
    rowId: integer("row_id").notNull(),
    column: text("column"),
    /** How the row read when the thread was opened (product, country, purchaser): named so when the row is gone. */
    rowLabel: text("row_label").notNull(),
    openedBy: integer("opened_by").references(() => users.id),
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull().defaultNow(),
    resolvedBy: integer("resolved_by").references(() => users.id),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
  },
  (t) => [index("report_threads_report_idx").on(t.reportId, t.resolvedAt)],
);

/** A message of a thread, in the order written. */
export const reportThreadMessages = pgTable(
  "report_thread_messages",
  {
    id: serial("id").primaryKey(),
    threadId: integer("thread_id")
      .notNull()
      .references(() => reportThreads.id, { onDelete: "cascade" }),
    authorId: integer("author_id").references(() => users.id),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("report_thread_messages_thread_idx").on(t.threadId, t.id)],
);

export const pdtValues = pgTable(
  "pdt_values",
  {
    id: serial("id").primaryKey(),
    reportId: integer("report_id")
      .notNull()
      .references(() => reports.id, { onDelete: "cascade" }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id),
    stageId: integer("stage_id")
      .notNull()
      .references(() => stages.id),
    startDate: date("start_date"),
    endDate: date("end_date"),
    notes: text("notes"),
  },
  (t) => [uniqueIndex("pdt_values_report_product_stage_uq").on(t.reportId, t.productId, t.stageId)],
);

export const filingValues = pgTable(
  "filing_values",
  {
    id: serial("id").primaryKey(),
    reportId: integer("report_id")
      .notNull()
      .references(() => reports.id, { onDelete: "cascade" }),
    countryId: integer("country_id")
      .notNull()
      .references(() => countries.id),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id),
    status: text("status").notNull(),
  },
  (t) => [
    uniqueIndex("filing_values_report_country_product_uq").on(t.reportId, t.countryId, t.productId),
    // The consolidated report reads a quarter's filled cells (status, country, product) from this index alone.
    index("filing_values_report_status_idx").on(t.reportId, t.status, t.countryId, t.productId),
  ],
);

export const productVerifications = pgTable(
  "product_verifications",
  {
    id: serial("id").primaryKey(),
    partnerId: integer("partner_id")
      .notNull()
      .references(() => partners.id),
    reportId: integer("report_id").references(() => reports.id, { onDelete: "set null" }),
    productName: text("product_name").notNull(),
    category: productCategoryEnum("category").notNull(),
    status: verificationStatusEnum("status").notNull().default("pending"),
    productId: integer("product_id").references(() => products.id),
    decidedBy: integer("decided_by").references(() => users.id),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("product_verifications_partner_idx").on(t.partnerId, t.status),
    uniqueIndex("product_verifications_pending_uq")
      .on(t.partnerId, t.category, sql`lower(${t.productName})`)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * A sales row's country, product, formulation type and currency are checked once per statement
 * over all the rows it writes (migration 0005: `sales_rows_check_references`, and
 * `sales_rows_keep_referenced` on the four tables), not by a foreign key each: a foreign key
 * checks every row on its own, and the four took 160 ms of a 10,000-row save.
 */
export const salesRows = pgTable(
  "sales_rows",
  {
    id: serial("id").primaryKey(),
    reportId: integer("report_id")
      .notNull()
      .references(() => reports.id, { onDelete: "cascade" }),
    kind: salesKindEnum("kind").notNull(),
    year: integer("year"),
    month: integer("month"),
    countryId: integer("country_id"),
    purchaser: text("purchaser"),
    productId: integer("product_id"),
    /** The name as the partner entered it; kept while a product verification is pending. */
    productName: text("product_name"),
    productVerificationId: integer("product_verification_id").references(() => productVerifications.id),
    quantity: money("quantity"),
    totalValue: money("total_value"),
    strength: text("strength"),
    formulationTypeId: integer("formulation_type_id"),
    packSize: money("pack_size"),
    currencyCode: text("currency_code"),
    grossSalePriceCurrency: money("gross_sale_price_currency"),
    usdExchangeRate: numeric("usd_exchange_rate", { precision: 24, scale: 12 }),
    grossSalePriceUsd: money("gross_sale_price_usd"),
    totalGrossValue: money("total_gross_value"),
    deductableExpenses: money("deductable_expenses"),
    royaltyPercent: numeric("royalty_percent", { precision: 9, scale: 4 }),
    royaltyDue: money("royalty_due"),
    procurementEndCountry: text("procurement_end_country"),
    comments: text("comments"),
    createdAt: createdAt(),
  },
  (t) => [
    index("sales_rows_report_kind_idx").on(t.reportId, t.kind, t.id),
    // Few rows carry a verification: the save's and the verification dialog's look-ups by it.
    index("sales_rows_product_verification_idx")
      .on(t.productVerificationId)
      .where(sql`${t.productVerificationId} IS NOT NULL`),
  ],
);

// ---------------------------------------------------------------- settings, mail, audit

export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedBy: integer("updated_by").references(() => users.id),
  updatedAt: updatedAt(),
});

export const outbox = pgTable(
  "outbox",
  {
    id: serial("id").primaryKey(),
    kind: text("kind").notNull(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body"),
    status: mailStatusEnum("status").notNull().default("pending"),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    partnerId: integer("partner_id").references(() => partners.id),
    reportType: reportTypeEnum("report_type"),
    /** A submission receipt's attachment: the proof (PDF) of this snapshot, drawn when the mail is sent (nothing is stored but the reference). */
    attachmentSnapshotId: integer("attachment_snapshot_id").references(() => reportSnapshots.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [index("outbox_status_idx").on(t.status), index("outbox_partner_kind_idx").on(t.partnerId, t.kind, t.createdAt)],
);

export const auditLog = pgTable(
  "audit_log",
  {
    id: serial("id").primaryKey(),
    actorId: integer("actor_id").references(() => users.id),
    action: text("action").notNull(),
    entity: text("entity").notNull(),
    entityId: text("entity_id"),
    before: jsonb("before"),
    after: jsonb("after"),
    requestId: text("request_id"),
    createdAt: createdAt(),
  },
  (t) => [index("audit_log_entity_idx").on(t.entity, t.entityId), index("audit_log_created_idx").on(t.createdAt)],
);

/**
 * Reminder mails to partners (manual and scheduled). A scheduled reminder carries its schedule
 * key ("before-7", "after-1"…): the partial unique index lets each one be sent once per partner,
 * report type and quarter, even with several servers.
 */
export const reminders = pgTable(
  "reminders",
  {
    id: serial("id").primaryKey(),
    partnerId: integer("partner_id")
      .notNull()
      .references(() => partners.id),
    reportType: reportTypeEnum("report_type").notNull(),
    quarterId: integer("quarter_id")
      .notNull()
      .references(() => quarters.id),
    kind: text("kind").$type<"manual" | "scheduled">().notNull(),
    scheduleKey: text("schedule_key"),
    outboxId: integer("outbox_id").references(() => outbox.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    createdBy: integer("created_by").references(() => users.id),
  },
  (t) => [
    uniqueIndex("reminders_schedule_uq")
      .on(t.partnerId, t.reportType, t.quarterId, t.scheduleKey)
      .where(sql`${t.scheduleKey} is not null`),
    index("reminders_partner_type_created_idx").on(t.partnerId, t.reportType, t.createdAt),
  ],
);

// ---------------------------------------------------------------- dashboard aggregates

/**
 * Sales figures of the admin dashboard, summed ahead of time. Kept by database triggers
 * (drizzle/0003_dashboard_aggregates.sql) in the same transaction as every change of sales rows,
 * of a report's approval or of a partner's activation, so a figure never disagrees with the rows.
 * Only active partners' rows with a known product count. `grain` names the dimensions a row sums
 * over (the others are 0): product_partner, product_country, partner_country (country 0: none
 * given), product_month, partner_month, country_month, month. Each sum is kept twice: over approved
 * reports only (`approvedOnly`) and over every report, so a page reads one set without adding up.
 */
export const dashboardSales = pgTable(
  "dashboard_sales",
  {
    grain: text("grain").notNull(),
    approvedOnly: boolean("approved_only").notNull(),
    productId: integer("product_id").notNull(),
    partnerId: integer("partner_id").notNull(),
    countryId: integer("country_id").notNull(),
    year: integer("year").notNull(),
    month: integer("month").notNull(),
    /** FDF: sum of pack size x quantity (the spec's sales total). */
    units: numeric("units").notNull(),
    /** FDF total gross value plus API total value, USD. */
    valueUsd: numeric("value_usd").notNull(),
    /** FDF rows with a gross value and a quantity and pack size above 0: their sums, for the prices. */
    pricedGrossUsd: numeric("priced_gross_usd").notNull(),
    pricedPacks: numeric("priced_packs").notNull(),
    pricedUnits: numeric("priced_units").notNull(),
    rowCount: integer("row_count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.grain, t.approvedOnly, t.productId, t.partnerId, t.countryId, t.year, t.month] })],
);

/** Filing Plans cells per quarter, product, country and status: how many partners (same triggers). */
export const dashboardFilings = pgTable(
  "dashboard_filings",
  {
    quarterId: integer("quarter_id").notNull(),
    approvedOnly: boolean("approved_only").notNull(),
    productId: integer("product_id").notNull(),
    countryId: integer("country_id").notNull(),
    status: text("status").notNull(),
    partners: integer("partners").notNull(),
  },
  (t) => [primaryKey({ columns: [t.quarterId, t.approvedOnly, t.status, t.productId, t.countryId] })],
);

// ---------------------------------------------------------------- stored checks (issue 32)

/**
 * Each partner's mean FDF price per pack (USD) per quarter and product, per country and, with
 * country null, over all its rows of the product: the Sales Report's peer-price rule takes the
 * other partners' medians from here instead of reading the quarter's sales rows. Only rows with a
 * product and a price above 0 count. Refreshed per partner and quarter by the "sales-price-means"
 * job after each Sales save (app/reports/sales/price-means.server.ts).
 */
export const salesPriceMeans = pgTable(
  "sales_price_means",
  {
    quarterId: integer("quarter_id").notNull(),
    productId: integer("product_id").notNull(),
    countryId: integer("country_id"),
    partnerId: integer("partner_id").notNull(),
    /** avg() of the rows' gross sale price per pack in USD, unrounded. */
    meanPriceUsd: numeric("mean_price_usd").notNull(),
    rowCount: integer("row_count").notNull(),
  },
  (t) => [
    unique("sales_price_means_uq").on(t.quarterId, t.productId, t.countryId, t.partnerId).nullsNotDistinct(),
    index("sales_price_means_partner_idx").on(t.partnerId, t.quarterId),
  ],
);

/**
 * The open findings of a report's checks, as an administrator sees them (with the other partners'
 * prices), counted by kind (app/reports/frame/checks.ts): what the partner list and the dashboard
 * Summary show and sort by. Refreshed by the "report-checks" job after the changes the checks read.
 */
export const reportCheckCounts = pgTable("report_check_counts", {
  reportId: integer("report_id")
    .primaryKey()
    .references(() => reports.id, { onDelete: "cascade" }),
  total: integer("total").notNull(),
  licence: integer("licence").notNull(),
  contradiction: integer("contradiction").notNull(),
  unusual: integer("unusual").notNull(),
  computedAt: timestamp("computed_at", { withTimezone: true }).notNull().defaultNow(),
});

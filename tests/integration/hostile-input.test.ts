/// <reference types="vite/client" />
/**
 * Hostile input: every action of the app gets generated bad input (missing, empty, wrongly
 * typed, huge, NUL, badly encoded, sparse and deep field names, non-form bodies, hostile route
 * params) and must answer with a refusal (4xx, or the redirect the route uses to refuse),
 * never a 5xx or a thrown error, with a small reply, and without writing anything: the row
 * count and md5 of every application table are the same before and after each refused case.
 *
 * Cases of values that a field may legitimately accept (free text with emoji, say) are
 * "either": accepted or refused, but never a 5xx, a huge reply or a write on refusal; an
 * accepted case is undone from a snapshot before the next one.
 *
 * Run: npx vitest run --project integration tests/integration/hostile-input.test.ts
 * HOSTILE_INPUT_REPORT=/path/file.json also writes every failed case there;
 * HOSTILE_INPUT_TRACE=/path/file.txt appends every case with its time and answer.
 */
import fs from "node:fs";
import ExcelJS from "exceljs";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppLoadContext } from "@remix-run/node";
import { db } from "~/db/client.server";
import { employees, partnerProducts, partners, products, quarters, rateLimits, reportExplanations, reports, salesRows, stages } from "~/db/schema";
import { loadFilingPlan, saveFilingPlan } from "~/reports/filing/model.server";
import { getPartnerFormValues } from "~/models/partner.server";
import { createPasswordToken } from "~/models/password-token.server";
import { loadPdtReport, savePdtReport } from "~/reports/pdt/model.server";
import { pdtChangesToExplain } from "~/reports/pdt/slips.server";
import { getOpenQuarter } from "~/models/quarter.server";
import { loadSalesReport } from "~/reports/sales/model.server";
import { findUserByEmail } from "~/models/user.server";
import { FILING_COUNTRY_COLUMN, FILING_SHEET } from "~/reports/filing/contract";
import { plannedFilingQuarters } from "~/reports/filing/statuses";
import { PDT_SHEET, PDT_WORKBOOK_COLUMNS } from "~/reports/pdt/contract";
import { columnsFor } from "~/reports/sales/columns";
import {
  bodyCases,
  changedTables,
  deepName,
  dropSnapshot,
  entry,
  fieldMutations,
  fingerprint,
  formOf,
  formRequest,
  HOSTILE_PARAMS,
  MAX_REPLY_BYTES,
  MEGABYTE_STRING,
  repeated,
  restoreResetsDatabase,
  restoreChangedTables,
  rowHash,
  runAction,
  setField,
  startNotingWrites,
  stopNotingWrites,
  takeSnapshot,
  takeWrittenTables,
  twentyMegabyteCase,
  withEntries,
  without,
  type Expectation,
  type FieldKind,
  type FilePart,
  type Form,
  type HostileCase,
  type Outcome,
} from "../support/hostile-input";
import { sessionCookieFor, testContext } from "../support/remix";

const routeModules = import.meta.glob("/app/routes/*.tsx", { eager: true }) as Record<string, Record<string, unknown>>;
const moduleOf = (module: string) => routeModules[module] as { action: Parameters<typeof runAction>[0] };

// ---------------------------------------------------------------- the seeded world

const ACCOUNTS = {
  ADMIN: "admin@example.org",
  PARTNER: "partner1@example.org",
  /** Cedar Life Sciences: no Sales Report in the open quarter (for "nothing to report"). */
  PARTNER3: "partner3@example.org",
} as const;
type Role = keyof typeof ACCOUNTS | "ANONYMOUS";

const PASSWORDS = { ADMIN: "admin-pass-1", PARTNER: "partner-pass-1" };

/** An uploaded workbook of the right layout whose content is wrong, and what the route must do with it. */
interface BadWorkbook {
  label: string;
  bytes: Uint8Array;
  expect: Expectation;
}

interface Ctx {
  cookies: Record<keyof typeof ACCOUNTS, string>;
  acme: number;
  borealis: number;
  cedar: number;
  openQuarter: { id: number; name: string };
  previousQuarter: { id: number; name: string };
  /** Dolutegravir 50 mg: a product of the catalogue. */
  productId: number;
  product: { id: number; name: string; therapyArea: string };
  acmeVersion: number;
  /** Two saved API rows of Acme's open-quarter report (grid cells), the first to edit, the second to delete. */
  acmeRows: Record<string, string | number>[];
  pendingVerificationId: number;
  partnerForm: Form;
  token: string;
  workbook: Uint8Array;
  /** Another partner's (Borealis's) records, which Acme's forms must not reach. */
  other: { employeeId: number; salesRowId: number };
  /** An API product: the pending verification is of an FDF product. */
  apiProductId: number;
  /**
   * Acme's Development Timeline in the open quarter: Dolutegravir 50 mg (FDF) and two of its
   * stages; a workbook of one valid row, and workbooks a partner might upload instead.
   */
  pdt: { version: number; stageIds: [number, number]; workbook: Uint8Array; badWorkbooks: BadWorkbook[] };
  /** A stage of the other category (API), which no row of Dolutegravir 50 mg has. */
  apiStageId: number;
  /** Acme's Filing Plans in the open quarter: a country of the grid, a status of the list that is no base status, workbooks as for the timeline. */
  filing: { version: number; countryId: number; plannedQuarter: string; workbook: Uint8Array; badWorkbooks: BadWorkbook[] };
  /** Borealis's Daclatasvir 60 mg: its product id and its partner_products row, which Acme's posts must not reach. */
  otherProduct: { id: number; linkId: number };
  /** Acme's Sofosbuvir/Daclatasvir, taken off Acme's list by deactivateAcmesProduct for the variants that name it. */
  inactiveProductId: number;
}

async function partnerId(email: string) {
  const [row] = await db.select({ id: partners.id }).from(partners).where(eq(partners.email, email));
  return row.id;
}

const workbooks = new Map<string, Uint8Array>();
async function buildWorkbook(row: Record<string, string | number>): Promise<Uint8Array> {
  const key = JSON.stringify(row);
  if (!workbooks.has(key)) workbooks.set(key, await writeWorkbook(row));
  return workbooks.get(key)!;
}

async function writeWorkbook(row: Record<string, string | number>): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const api = workbook.addWorksheet("API");
  api.addRow(columnsFor("API").map((column) => column.label));
  api.addRow(columnsFor("API").map((column) => String(row[column.key] ?? "")));
  workbook.addWorksheet("FDF").addRow(columnsFor("FDF").map((column) => column.label));
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

/** A pdt.xlsx: Product, Stage, Status, Notes, Start Date, End Date; the cells as text. */
async function pdtWorkbook(rows: string[][], sheet = PDT_SHEET): Promise<Uint8Array> {
  const key = JSON.stringify(["pdt", sheet, rows]);
  if (!workbooks.has(key)) {
    const workbook = new ExcelJS.Workbook();
    const worksheet = workbook.addWorksheet(sheet);
    worksheet.addRow(PDT_WORKBOOK_COLUMNS.map((column) => column.label));
    for (const row of rows) worksheet.addRow(row);
    workbooks.set(key, new Uint8Array(await workbook.xlsx.writeBuffer()));
  }
  return workbooks.get(key)!;
}

/** A filing-plans.xlsx: Country, then a column per product name; one row per country. */
async function filingWorkbook(productNames: string[], rows: string[][]): Promise<Uint8Array> {
  const key = JSON.stringify(["filing", productNames, rows]);
  if (!workbooks.has(key)) {
    const workbook = new ExcelJS.Workbook();
    const worksheet = workbook.addWorksheet(FILING_SHEET);
    worksheet.addRow([FILING_COUNTRY_COLUMN, ...productNames]);
    for (const row of rows) worksheet.addRow(row);
    workbooks.set(key, new Uint8Array(await workbook.xlsx.writeBuffer()));
  }
  return workbooks.get(key)!;
}

async function buildContext(): Promise<Ctx> {
  const cookies = {
    ADMIN: await sessionCookieFor(ACCOUNTS.ADMIN),
    PARTNER: await sessionCookieFor(ACCOUNTS.PARTNER),
    PARTNER3: await sessionCookieFor(ACCOUNTS.PARTNER3),
  };
  const acme = await partnerId(ACCOUNTS.PARTNER);
  const open = await getOpenQuarter();
  const [previous] = await db
    .select()
    .from(quarters)
    .where(
      open.quarter === 1
        ? and(eq(quarters.year, open.year - 1), eq(quarters.quarter, 4))
        : and(eq(quarters.year, open.year), eq(quarters.quarter, open.quarter - 1)),
    );
  const [product] = await db.select().from(products).where(eq(products.name, "Dolutegravir 50 mg"));
  const user = await findUserByEmail(ACCOUNTS.PARTNER);
  const view = await loadSalesReport({ viewer: { id: user!.id, role: "PARTNER", partnerId: acme }, partnerId: acme });
  const acmeRows = view.rows.API.slice(0, 2).map((row) => ({ ...row }) as Record<string, string | number>);
  const [verification] = await db.query.productVerifications.findMany({ where: (table, { eq: equals }) => equals(table.status, "pending") });

  const values = (await getPartnerFormValues(acme))!.value;
  const partnerForm: Form = formOf({
    companyName: `${values.companyName} (hostile)`,
    email: values.email,
    contactPrefix: values.contactPrefix,
    contactNumber: values.contactNumber,
    address: values.address,
    region: values.region,
  });
  values.products.forEach((row, index) => {
    partnerForm.push(entry(`products[${index}].productId`, row.productId), entry(`products[${index}].status`, row.status));
  });
  values.people.forEach((row, index) => {
    for (const [key, value] of Object.entries(row)) partnerForm.push(entry(`people[${index}].${key}`, value));
  });

  const borealis = await partnerId("partner2@example.org");
  const [otherEmployee] = await db.select({ id: employees.id }).from(employees).where(eq(employees.partnerId, borealis));
  const [otherRow] = await db
    .select({ id: salesRows.id })
    .from(salesRows)
    .innerJoin(reports, eq(reports.id, salesRows.reportId))
    .where(and(eq(reports.partnerId, borealis), eq(salesRows.kind, "API")));
  const [apiProduct] = await db.select({ id: products.id }).from(products).where(eq(products.category, "API"));

  const acmeViewer = { id: user!.id, role: "PARTNER" as const, partnerId: acme };
  const pdtView = await loadPdtReport({ viewer: acmeViewer, partnerId: acme });
  const pdtRows = pdtView.rows.filter((row) => row.productId === product.id);
  const [apiStage] = await db.select({ id: stages.id, name: stages.name }).from(stages).where(eq(stages.category, "API"));
  /** A workbook row of Dolutegravir 50 mg's first stage, with some cells replaced (by column position). */
  const pdtCells = (replace: Record<number, string> = {}) =>
    Object.assign([product.name, pdtRows[0].stageName, "Filed", "Uploaded by the hostile-input suite.", "3/1/2027", "6/30/2027"], replace);
  const filingView = await loadFilingPlan({ viewer: acmeViewer, partnerId: acme });
  const country = filingView.rows.find((row) => row.country === "Kenya")!;
  const [otherProduct] = await db
    .select({ id: products.id, linkId: partnerProducts.id })
    .from(partnerProducts)
    .innerJoin(products, eq(products.id, partnerProducts.productId))
    .where(and(eq(partnerProducts.partnerId, borealis), eq(products.name, "Daclatasvir 60 mg")));
  const [inactiveProduct] = await db.select({ id: products.id }).from(products).where(eq(products.name, "Sofosbuvir/Daclatasvir"));
  return {
    cookies,
    acme,
    borealis,
    other: { employeeId: otherEmployee.id, salesRowId: otherRow.id },
    apiProductId: apiProduct.id,
    cedar: await partnerId(ACCOUNTS.PARTNER3),
    openQuarter: { id: open.id, name: open.name },
    previousQuarter: { id: previous.id, name: previous.name },
    productId: product.id,
    product: { id: product.id, name: product.name, therapyArea: product.therapyArea },
    acmeVersion: view.report.version,
    acmeRows,
    pendingVerificationId: verification.id,
    partnerForm,
    token: await createPasswordToken(user!.id, "reset"),
    workbook: await buildWorkbook(acmeRows[0]),
    pdt: {
      version: pdtView.report.version,
      stageIds: [pdtRows[0].stageId, pdtRows[1].stageId],
      workbook: await pdtWorkbook([pdtCells()]),
      badWorkbooks: [
        { label: "a row of another partner's product", bytes: await pdtWorkbook([pdtCells({ 0: "Daclatasvir 60 mg" })]), expect: "refuse" },
        { label: "a stage of the other category", bytes: await pdtWorkbook([pdtCells({ 1: apiStage.name })]), expect: "refuse" },
        { label: "a status not in the list", bytes: await pdtWorkbook([pdtCells({ 2: "Shipped" })]), expect: "refuse" },
        { label: "an end date before the start date", bytes: await pdtWorkbook([pdtCells({ 4: "6/30/2027", 5: "3/1/2027" })]), expect: "refuse" },
        { label: "a start date of 2/30/2027", bytes: await pdtWorkbook([pdtCells({ 4: "2/30/2027" })]), expect: "refuse" },
        { label: "a note of 2,001 characters", bytes: await pdtWorkbook([pdtCells({ 3: "n".repeat(2001) })]), expect: "refuse" },
        { label: "no sheet PDT", bytes: await pdtWorkbook([pdtCells()], "Sheet1"), expect: "refuse" },
        {
          label: "2,000 rows naming no product of the timeline",
          bytes: await pdtWorkbook(Array.from({ length: 2000 }, (_, index) => pdtCells({ 0: `Unknown product ${index}` }))),
          expect: "refuse",
        },
        {
          label: "two rows of one product with different statuses",
          bytes: await pdtWorkbook([pdtCells(), pdtCells({ 1: pdtRows[1].stageName, 2: "Dropped" })]),
          expect: "refuse",
        },
      ],
    },
    apiStageId: apiStage.id,
    filing: {
      version: filingView.report.version,
      countryId: country.countryId,
      plannedQuarter: plannedFilingQuarters(open)[0],
      workbook: await filingWorkbook([product.name], [[country.country, "Filed"]]),
      badWorkbooks: [
        { label: "a column of another partner's product", bytes: await filingWorkbook(["Daclatasvir 60 mg"], [[country.country, "Filed"]]), expect: "refuse" },
        {
          label: "a product's column twice",
          bytes: await filingWorkbook([product.name, product.name], [[country.country, "Filed", "Filed"]]),
          expect: "refuse",
        },
        { label: "a country not in the list", bytes: await filingWorkbook([product.name], [["Atlantis", "Filed"]]), expect: "refuse" },
        {
          label: "a country twice",
          bytes: await filingWorkbook(
            [product.name],
            [
              [country.country, "Filed"],
              [country.country, "Registered"],
            ],
          ),
          expect: "refuse",
        },
        { label: "a status not in the list", bytes: await filingWorkbook([product.name], [[country.country, "Launched"]]), expect: "refuse" },
        { label: "a status of 1,000 characters", bytes: await filingWorkbook([product.name], [[country.country, "F".repeat(1000)]]), expect: "refuse" },
        {
          label: "2,000 rows of countries not in the list",
          bytes: await filingWorkbook(
            [product.name],
            Array.from({ length: 2000 }, (_, index) => [`Atlantis ${index}`, "Filed"]),
          ),
          expect: "refuse",
        },
        {
          label: "3 rows of a 30,000-character country",
          bytes: await filingWorkbook(
            [product.name],
            ["A", "B", "C"].map((letter) => [letter.repeat(30_000), "Filed"]),
          ),
          expect: "refuse",
        },
        {
          label: "2,000 columns of products not in the list",
          bytes: await filingWorkbook(
            Array.from({ length: 2000 }, (_, index) => `Unknown product ${index}`),
            [[country.country]],
          ),
          expect: "refuse",
        },
        {
          label: "3 columns of a 30,000-character product name",
          bytes: await filingWorkbook(
            ["A", "B", "C"].map((letter) => letter.repeat(30_000)),
            [[country.country]],
          ),
          expect: "refuse",
        },
      ],
    },
    otherProduct,
    inactiveProductId: inactiveProduct.id,
  };
}

// ---------------------------------------------------------------- the actions and their base inputs

interface Variant {
  /** The route module, as import.meta.glob names it. */
  module: string;
  /** The action's variant (an intent, a form of the page). */
  name: string;
  role: Role;
  path: (ctx: Ctx, params: Record<string, string>) => string;
  params?: (ctx: Ctx) => Record<string, string>;
  /** Route params to attack with HOSTILE_PARAMS. */
  hostileParams?: string[];
  /** A valid form: the base is checked to be accepted, so that refusals of its mutations mean something. */
  base: (ctx: Ctx) => Form;
  /** The fields to mutate, and what each accepts (a function when the names hold record ids). */
  fields: Record<string, FieldKind> | ((ctx: Ctx) => Record<string, FieldKind>);
  /** The base made invalid (default: without its first required field): the reply of a refused form must stay small too. */
  refused?: (base: Form, ctx: Ctx) => Form;
  multipart?: boolean;
  /** Parsed by conform (parseWithZod): its reserved fields are attacked too. */
  conform?: boolean;
  /** Real array fields of the form, as `name[index]...=value` with a huge index. */
  sparse?: string[];
  /** The field posted 20,000 times. */
  repeatField?: string;
  /** The grid's JSON body in `payload`: its cases, for the report's own shape. */
  json?: (ctx: Ctx, base: Form) => HostileCase[];
  /** A new session per case (the action may end or lock it). */
  freshSession?: boolean;
  /** Sign-in throttling is cleared before each case (so that each case reaches the code under test). */
  rateLimited?: boolean;
  /** The redirects by which this route refuses a request. */
  refusalRedirect?: (outcome: Outcome) => boolean;
  /** The route answers every post the same refusing way (no base to accept). */
  alwaysRefuses?: boolean;
  /** Posts the 20 MB body (slow: a few routes only). */
  twentyMegabytes?: boolean;
  extraCases?: (ctx: Ctx, base: Form) => HostileCase[];
  /** Brings the database to the state the base form needs (before the snapshot). */
  setup?: (ctx: Ctx) => Promise<void>;
}

const toNotFound = (outcome: Outcome) => outcome.location === "/error-404";
const partnerFields: Record<string, FieldKind> = {
  companyName: "text",
  email: "email",
  contactPrefix: "code",
  contactNumber: "phone",
  address: "text?",
  region: "enum",
  "products[0].productId": "id",
  "products[0].status": "enum",
  "people[0].firstName": "text",
  "people[0].lastName": "text",
  "people[0].contactPrefix": "code",
  "people[0].contactNumber": "phone",
};
const partnerSparse = ["products[99999].productId=1", "products[99999][productId]=1", "people[5000].firstName=a", "people[5000][firstName]=a"];

const salesPayload = (ctx: Ctx) => JSON.stringify({ API: [{ ...ctx.acmeRows[0], purchaser: "Hostile Buyer Ltd" }], FDF: [], deletedIds: [ctx.acmeRows[1].id] });

const salesJsonFields: Record<string, FieldKind> = { intent: "enum", quarterId: "id", version: "version", tab: "lenient", payload: "json" };

/** Cedar reports nothing for the open quarter: a submitted report for the administrator to approve or reject. */
async function submitCedarsReport(ctx: Ctx) {
  const form = formOf({ intent: "submit-empty", quarterId: String(ctx.openQuarter.id), version: "0", comment: "Nothing sold this quarter." });
  const request = formRequest("/partner/sales-report", form, { cookie: ctx.cookies.PARTNER3 });
  const outcome = await runAction(moduleOf(partnerSales).action, request, {}, testContext());
  if (outcome.status !== 302) throw new Error(`Cedar's report could not be submitted: ${outcome.summary}`);
}

// The decision forms also post the version, which the decisions do not use.
const decisionFields: Record<string, FieldKind> = { intent: "enum", quarterId: "id", comment: "text" };

const partnerSales = "/app/routes/_shell.partner.sales-report.tsx";
const adminSales = "/app/routes/_shell.admin.sales-report.$id.tsx";

/** A file part of an upload. */
const xlsx = (bytes: Uint8Array, filename: string): FilePart => ({
  filename,
  type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  bytes,
});

/** What a partner might upload instead of a workbook, as the Sales, timeline and filing uploads all get it. */
function uploadFileCases(base: Form, filename: string): HostileCase[] {
  const file = (bytes: Uint8Array): FilePart => ({ filename, type: "application/octet-stream", bytes });
  return [
    { label: "file: 1 MB of garbage", expect: "refuse", form: setField(base, "file", file(new TextEncoder().encode(MEGABYTE_STRING))) },
    { label: "file: zero bytes", expect: "refuse", form: setField(base, "file", file(new Uint8Array())) },
    { label: "file: a text file named .xlsx", expect: "refuse", form: setField(base, "file", file(new TextEncoder().encode("Year,Month\n2026,May\n"))) },
    { label: "file: 11 MB (over the 10 MB limit)", expect: "refuse", form: setField(base, "file", file(new Uint8Array(11 * 1024 * 1024))) },
    { label: "file: sent as a text field", expect: "refuse", form: setField(base, "file", "not a file") },
    { label: "file: two files", expect: "either", form: [...base, entry("file", file(new Uint8Array([1, 2, 3])))] },
  ];
}

/** Workbooks of the right layout and wrong content. */
const badWorkbookCases = (base: Form, filename: string, workbooks: BadWorkbook[]): HostileCase[] =>
  workbooks.map((workbook) => ({
    label: `file: a workbook with ${workbook.label}`,
    expect: workbook.expect,
    form: setField(base, "file", xlsx(workbook.bytes, filename)),
  }));

async function actorOf(email: string) {
  const user = await findUserByEmail(email);
  if (!user) throw new Error(`No user ${email}`);
  return { id: user.id, role: user.role, partnerId: user.partnerId };
}

/** Sofosbuvir/Daclatasvir leaves Acme's list (the link stays, inactive): rows and cells naming it must be refused. */
async function deactivateAcmesProduct(ctx: Ctx) {
  await db
    .update(partnerProducts)
    .set({ isActive: false })
    .where(and(eq(partnerProducts.partnerId, ctx.acme), eq(partnerProducts.productId, ctx.inactiveProductId)));
}

/**
 * Acme's timeline of the open quarter has changes to explain (the demo's plans slip), and the
 * suite's row moves its first stage later still: their reasons are written first, so that a
 * submission is refused only for what a case changes.
 */
async function explainAcmesTimeline(ctx: Ctx) {
  await deactivateAcmesProduct(ctx);
  const [report] = await db
    .select({ id: reports.id })
    .from(reports)
    .where(and(eq(reports.partnerId, ctx.acme), eq(reports.quarterId, ctx.openQuarter.id), eq(reports.type, "pdt")));
  const lines = await pdtChangesToExplain(db, { reportId: report.id, partnerId: ctx.acme, quarterId: ctx.openQuarter.id, withPeers: false });
  const subjects = new Set([...lines.map((line) => line.subject), `pdt:slipped:${ctx.productId}:${ctx.pdt.stageIds[0]}`]);
  await db
    .insert(reportExplanations)
    .values([...subjects].map((subject) => ({ reportId: report.id, subject, reason: "Explained by the hostile-input suite." })))
    .onConflictDoNothing();
}

const partnerPdt = "/app/routes/_shell.partner.development-timeline.tsx";
const adminPdt = "/app/routes/_shell.admin.development-timeline.$id.tsx";
const partnerFiling = "/app/routes/_shell.partner.filing-plans.tsx";
const adminFiling = "/app/routes/_shell.admin.filing-plans.$id.tsx";

/** One row of the timeline as the grid posts it: Dolutegravir 50 mg's first stage. */
const pdtRow = (ctx: Ctx, overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  productId: ctx.productId,
  stageId: ctx.pdt.stageIds[0],
  status: "FILED",
  notes: "Planned by the hostile-input suite.",
  startDate: "3/1/2027",
  endDate: "6/30/2027",
  ...overrides,
});
const pdtPayload = (ctx: Ctx) => JSON.stringify({ rows: [pdtRow(ctx)] });

/** One cell of the Filing Plans as the grid posts it: Kenya, Dolutegravir 50 mg. */
const filingPayload = (ctx: Ctx) => JSON.stringify({ cells: { [ctx.filing.countryId]: { [ctx.productId]: "Filed" } } });
const filingCell = (ctx: Ctx) => `filing[${ctx.filing.countryId}][${ctx.productId}]`;

// The timeline's and the Filing Plans' grids post no tab.
const reportJsonFields: Record<string, FieldKind> = { intent: "enum", quarterId: "id", version: "version", payload: "json" };

/** Cedar's report of the open quarter (it has none yet), submitted by Cedar: for the administrator to approve or reject. */
async function submitCedars(ctx: Ctx, type: "pdt" | "filing") {
  const request = {
    actor: await actorOf(ACCOUNTS.PARTNER3),
    partnerId: ctx.cedar,
    quarterId: ctx.openQuarter.id,
    expectedVersion: 0,
    action: "submit" as const,
    comment: "Our plan is complete.",
  };
  const result = type === "pdt" ? await savePdtReport({ ...request, rows: [], statuses: {} }) : await saveFilingPlan({ ...request, cells: [] });
  if (!result.ok || result.version !== 1) throw new Error(`Cedar's ${type} report could not be submitted: ${JSON.stringify(result)}`);
}

/** Cedar's report of the open quarter, submitted and approved: for the administrator to reopen. */
async function approveCedars(ctx: Ctx, type: "pdt" | "filing") {
  await submitCedars(ctx, type);
  const request = {
    actor: await actorOf(ACCOUNTS.ADMIN),
    partnerId: ctx.cedar,
    quarterId: ctx.openQuarter.id,
    expectedVersion: 1,
    action: "approve" as const,
    comment: "Thank you, approved.",
  };
  const result = type === "pdt" ? await savePdtReport({ ...request, rows: [], statuses: {} }) : await saveFilingPlan({ ...request, cells: [] });
  if (!result.ok || result.version !== 2) throw new Error(`Cedar's ${type} report could not be approved: ${JSON.stringify(result)}`);
}

/**
 * Cedar's Filing Plans of the open quarter, saved empty (it would carry the last quarter's plan
 * over): only an empty plan may be submitted as "nothing to report".
 */
async function emptyCedarsFiling(ctx: Ctx) {
  const actor = await actorOf(ACCOUNTS.PARTNER3);
  const view = await loadFilingPlan({ viewer: actor, partnerId: ctx.cedar });
  const cells = view.rows.flatMap((row) =>
    Object.entries(row.cells)
      .filter(([, status]) => status !== "0")
      .map(([productId]) => ({ countryId: row.countryId, productId: Number(productId), status: "0" })),
  );
  const result = await saveFilingPlan({ actor, partnerId: ctx.cedar, quarterId: ctx.openQuarter.id, expectedVersion: 0, cells, action: "save" });
  if (!result.ok || result.version !== 1) throw new Error(`Cedar's Filing Plans could not be emptied: ${JSON.stringify(result)}`);
}

/** The variants of a report on the frame (timeline or Filing Plans): the partner's page and the administrator's. */
function reportVariants(report: {
  type: "pdt" | "filing";
  partnerModule: string;
  adminModule: string;
  partnerPath: string;
  adminPath: string;
  version: (ctx: Ctx) => number;
  payload: (ctx: Ctx) => string;
  json: (ctx: Ctx, base: Form) => HostileCase[];
  /** The plain form's cells (without the envelope), what they accept, how to make them invalid, and extra cases. */
  plainCells: (ctx: Ctx) => Record<string, string>;
  plainFields: (ctx: Ctx) => Record<string, FieldKind>;
  plainRefused: (base: Form, ctx: Ctx) => Form;
  plainExtra: (ctx: Ctx, base: Form) => HostileCase[];
  plainSparse: string[];
  /** A cell of the plain form, posted 20,000 times. */
  plainRepeat: (ctx: Ctx) => string;
  submitEmptySetup?: (ctx: Ctx) => Promise<void>;
  /** What the submission needs first (the timeline: reasons for its changes to explain). */
  submitSetup?: (ctx: Ctx) => Promise<void>;
  submitEmptyVersion: string;
  upload: (ctx: Ctx) => { filename: string; bytes: Uint8Array; bad: BadWorkbook[] };
}): Variant[] {
  const adminPath = (_ctx: Ctx, params: Record<string, string>) => `${report.adminPath}/${encodeURIComponent(params.id)}`;
  const envelope = (ctx: Ctx, intent: string) => ({ intent, quarterId: String(ctx.openQuarter.id), version: String(report.version(ctx)) });
  const jsonForm = (ctx: Ctx, intent: string) => formOf({ ...envelope(ctx, intent), payload: report.payload(ctx) });
  const plainForm = (ctx: Ctx) => formOf({ ...envelope(ctx, "save"), page: "1", ...report.plainCells(ctx) });
  const plainExtra = (ctx: Ctx, base: Form): HostileCase[] => [
    ...report.plainExtra(ctx, base),
    { label: `${report.plainRepeat(ctx)} posted 20,000 times`, expect: "refuse", form: repeated(base, report.plainRepeat(ctx)) },
  ];
  const plainFields = (ctx: Ctx): Record<string, FieldKind> => ({
    intent: "enum",
    quarterId: "id",
    version: "version",
    page: "lenient",
    ...report.plainFields(ctx),
  });
  const uploadForm = (ctx: Ctx) => {
    const upload = report.upload(ctx);
    return formOf({ intent: "upload", quarter: ctx.openQuarter.name, version: String(report.version(ctx)), file: xlsx(upload.bytes, upload.filename) });
  };
  const uploadCases = (ctx: Ctx, base: Form) => {
    const upload = report.upload(ctx);
    return [
      ...uploadFileCases(base, upload.filename),
      ...badWorkbookCases(base, upload.filename, upload.bad),
      { label: "quarter: the previous quarter (closed)", expect: "either" as const, form: setField(base, "quarter", ctx.previousQuarter.name) },
    ];
  };
  const uploadFields: Record<string, FieldKind> = { intent: "enum", quarter: "enum?", version: "version", file: "file" };
  const decision = (intent: "approve" | "reject" | "reopen", setup: (ctx: Ctx) => Promise<void>, version: string): Variant => ({
    module: report.adminModule,
    name: intent,
    role: "ADMIN",
    path: adminPath,
    params: (ctx) => ({ id: String(ctx.cedar) }),
    hostileParams: ["id"],
    base: (ctx) => formOf({ intent, quarterId: String(ctx.openQuarter.id), version, comment: `${intent} by the hostile-input suite.` }),
    fields: decisionFields,
    refused: (base) => without(base, "comment"),
    repeatField: "quarterId",
    setup,
  });
  return [
    {
      module: report.partnerModule,
      name: "save (grid JSON)",
      role: "PARTNER",
      path: () => report.partnerPath,
      base: (ctx) => jsonForm(ctx, "save"),
      fields: reportJsonFields,
      refused: (base) => setField(base, "version", "0"),
      json: report.json,
      repeatField: "quarterId",
      twentyMegabytes: true,
      setup: deactivateAcmesProduct,
    },
    {
      module: report.partnerModule,
      name: "save (form without JavaScript)",
      role: "PARTNER",
      path: () => report.partnerPath,
      base: plainForm,
      fields: plainFields,
      refused: report.plainRefused,
      extraCases: plainExtra,
      sparse: report.plainSparse,
      repeatField: "quarterId",
      setup: deactivateAcmesProduct,
    },
    {
      module: report.partnerModule,
      name: "submit",
      role: "PARTNER",
      path: () => report.partnerPath,
      base: (ctx) => formOf({ ...envelope(ctx, "submit"), comment: "Submitted by the hostile-input suite.", payload: report.payload(ctx) }),
      fields: { ...reportJsonFields, comment: "text" },
      refused: (base) => without(base, "comment"),
      json: report.json,
      repeatField: "comment",
      setup: report.submitSetup ?? deactivateAcmesProduct,
    },
    {
      module: report.partnerModule,
      name: "submit-empty (nothing to report)",
      role: "PARTNER3",
      path: () => report.partnerPath,
      base: (ctx) =>
        formOf({
          intent: "submit-empty",
          quarterId: String(ctx.openQuarter.id),
          version: report.submitEmptyVersion,
          comment: "Nothing to report this quarter.",
        }),
      fields: { intent: "enum", quarterId: "id", version: "version", comment: "text" },
      refused: (base) => without(base, "comment"),
      repeatField: "quarterId",
      setup: report.submitEmptySetup,
    },
    {
      module: report.partnerModule,
      name: "read-messages",
      role: "PARTNER",
      path: () => report.partnerPath,
      base: (ctx) => formOf({ intent: "read-messages", quarterId: String(ctx.previousQuarter.id) }),
      fields: { intent: "enum", quarterId: "id" },
      refused: (base) => without(base, "intent"),
      repeatField: "quarterId",
    },
    {
      module: report.partnerModule,
      name: "upload (multipart)",
      role: "PARTNER",
      path: () => report.partnerPath,
      multipart: true,
      base: uploadForm,
      fields: uploadFields,
      refused: (base) => setField(base, "version", "0"),
      repeatField: "version",
      extraCases: uploadCases,
    },
    {
      module: report.adminModule,
      name: "save (grid JSON) by the administrator",
      role: "ADMIN",
      path: adminPath,
      params: (ctx) => ({ id: String(ctx.acme) }),
      hostileParams: ["id"],
      base: (ctx) => jsonForm(ctx, "save"),
      fields: reportJsonFields,
      refused: (base) => setField(base, "version", "0"),
      json: report.json,
      repeatField: "version",
      extraCases: (_ctx, base) => [
        {
          label: "intent: submit by the administrator",
          expect: "refuse",
          form: setField(setField(base, "intent", "submit"), "comment", "Submitted by the administrator."),
        },
        {
          label: "intent: submit-empty by the administrator",
          expect: "refuse",
          form: setField(setField(base, "intent", "submit-empty"), "comment", "Nothing to report."),
        },
      ],
      setup: deactivateAcmesProduct,
    },
    {
      module: report.adminModule,
      name: "save (form without JavaScript) by the administrator",
      role: "ADMIN",
      path: adminPath,
      params: (ctx) => ({ id: String(ctx.acme) }),
      base: plainForm,
      fields: plainFields,
      refused: report.plainRefused,
      extraCases: plainExtra,
      sparse: report.plainSparse,
      repeatField: "version",
      setup: deactivateAcmesProduct,
    },
    decision("approve", (ctx) => submitCedars(ctx, report.type), "1"),
    decision("reject", (ctx) => submitCedars(ctx, report.type), "1"),
    decision("reopen", (ctx) => approveCedars(ctx, report.type), "2"),
    {
      module: report.adminModule,
      name: "read-messages by the administrator",
      role: "ADMIN",
      path: adminPath,
      params: (ctx) => ({ id: String(ctx.cedar) }),
      base: (ctx) => formOf({ intent: "read-messages", quarterId: String(ctx.previousQuarter.id) }),
      fields: { intent: "enum", quarterId: "id" },
      refused: (base) => without(base, "intent"),
      repeatField: "quarterId",
    },
    {
      module: report.adminModule,
      name: "upload (multipart) by the administrator",
      role: "ADMIN",
      path: adminPath,
      params: (ctx) => ({ id: String(ctx.acme) }),
      multipart: true,
      base: uploadForm,
      fields: uploadFields,
      refused: (base) => setField(base, "version", "0"),
      repeatField: "version",
      extraCases: uploadCases,
    },
  ];
}

const pdtCell = (index: number, key: string) => `pdt[${index}][${key}]`;

const VARIANTS: Variant[] = [
  {
    module: "/app/routes/$.tsx",
    name: "any post to an unknown path",
    role: "ADMIN",
    path: (_ctx, params) => `/${params["*"]}`,
    params: () => ({ "*": "no/such/page" }),
    hostileParams: ["*"],
    base: () => formOf({ a: "1" }),
    fields: { a: "lenient" },
    alwaysRefuses: true,
    refusalRedirect: toNotFound,
  },
  {
    module: "/app/routes/_shell.admin.add-partner.tsx",
    name: "add partner",
    role: "ADMIN",
    path: () => "/admin/add-partner",
    base: (ctx) =>
      formOf({
        companyName: "Hostile Input Pharma",
        email: "hostile-input@example.org",
        contactPrefix: "+91",
        contactNumber: "9876500001",
        address: "1 Test Road, Pune",
        region: "Asia",
        "products[0].productId": String(ctx.productId),
        "products[0].status": "PLANNED",
        "people[0].firstName": "Asha",
        "people[0].lastName": "Rao",
        "people[0].contactPrefix": "+91",
        "people[0].contactNumber": "9811122233",
      }),
    fields: partnerFields,
    conform: true,
    sparse: partnerSparse,
    repeatField: "products[0].productId",
    twentyMegabytes: true,
  },
  {
    module: "/app/routes/_shell.admin.edit-partner.$id.tsx",
    name: "edit partner",
    role: "ADMIN",
    path: (_ctx, params) => `/admin/edit-partner/${encodeURIComponent(params.id)}`,
    params: (ctx) => ({ id: String(ctx.acme) }),
    hostileParams: ["id"],
    base: (ctx) => ctx.partnerForm,
    fields: { ...partnerFields, "people[0].employeeId": "id?" },
    extraCases: (ctx, base) => [
      // An id that is not one of this partner's people is taken as a new person; the other partner's person must stay as it was.
      {
        label: "people[0].employeeId: a person of another partner",
        expect: "either",
        form: setField(base, "people[0].employeeId", String(ctx.other.employeeId)),
        protectedRow: { table: "employees", id: ctx.other.employeeId },
      },
    ],
    conform: true,
    sparse: partnerSparse,
    repeatField: "products[0].productId",
  },
  {
    module: "/app/routes/_shell.admin.add-product.tsx",
    name: "add product",
    role: "ADMIN",
    path: () => "/admin/add-product",
    base: () => formOf({ name: "Hostile Input Product", category: "API", therapyArea: "HIV" }),
    fields: { name: "text", category: "enum", therapyArea: "code" },
    conform: true,
    repeatField: "name",
  },
  {
    module: "/app/routes/_shell.admin.edit-product.$product_id.tsx",
    name: "edit product",
    role: "ADMIN",
    path: (_ctx, params) => `/admin/edit-product/${encodeURIComponent(params.product_id)}`,
    params: (ctx) => ({ product_id: String(ctx.product.id) }),
    hostileParams: ["product_id"],
    base: (ctx) => formOf({ name: `${ctx.product.name} (hostile)`, category: "FDF", therapyArea: ctx.product.therapyArea }),
    fields: { name: "text", therapyArea: "code", category: "lenient" },
    conform: true,
    repeatField: "name",
  },
  {
    module: "/app/routes/_shell.admin.licence-terms.$id.tsx",
    name: "licence terms",
    role: "ADMIN",
    path: (_ctx, params) => `/admin/licence-terms/${encodeURIComponent(params.id)}`,
    params: (ctx) => ({ id: String(ctx.acme) }),
    hostileParams: ["id"],
    base: (ctx) =>
      formOf({
        partnerId: String(ctx.acme),
        "products[0].productId": String(ctx.productId),
        "products[0].royaltyRate": "5",
        "products[0].apiLicensed": "on",
        "products[0].countries[0].countryId": String(ctx.filing.countryId),
        "products[0].countries[0].royaltyRate": "0.5",
      }),
    fields: {
      partnerId: "id",
      "products[0].productId": "id",
      "products[0].royaltyRate": "number?",
      "products[0].apiLicensed": "checkbox",
      "products[0].countries[0].countryId": "id",
      "products[0].countries[0].royaltyRate": "number",
    },
    extraCases: (ctx, base) => [
      {
        label: "products[1]: a product of another partner",
        expect: "refuse",
        form: [...base, entry("products[1].productId", String(ctx.otherProduct.id)), entry("products[1].royaltyRate", "1")],
      },
    ],
    conform: true,
    sparse: ["products[99999].productId=1", "products[0].countries[5000].countryId=1"],
    repeatField: "products[0].productId",
  },
  {
    module: "/app/routes/_shell.admin.partner-list.tsx",
    name: "deactivate partner",
    role: "ADMIN",
    path: () => "/admin/partner-list",
    base: (ctx) => formOf({ intent: "deactivate", partnerId: String(ctx.cedar) }),
    fields: { intent: "enum", partnerId: "id" },
    repeatField: "partnerId",
    refusalRedirect: toNotFound,
  },
  {
    module: "/app/routes/_shell.admin.product-list.tsx",
    name: "deactivate product",
    role: "ADMIN",
    path: () => "/admin/product-list",
    base: (ctx) => formOf({ intent: "deactivate", productId: String(ctx.productId) }),
    fields: { intent: "enum", productId: "id" },
    repeatField: "productId",
  },
  {
    module: "/app/routes/_shell.admin.settings.tsx",
    name: "cut-off date",
    role: "ADMIN",
    path: () => "/admin/settings",
    base: () => formOf({ intent: "cut-off", cutOffDate: "2030-06-15" }),
    // The date picker beside the field posts only without JavaScript.
    fields: { intent: "enum", cutOffDate: "date", cutOffDatePicked: "date?" },
    refused: (base) => without(base, "cutOffDate"),
    conform: true,
    repeatField: "cutOffDate",
  },
  {
    module: "/app/routes/_shell.admin.settings.tsx",
    name: "reminder schedule",
    role: "ADMIN",
    path: () => "/admin/settings",
    base: () => formOf({ intent: "schedule", daysBefore: "7, 3", daysAfter: "1, 7" }),
    fields: { intent: "enum", daysBefore: "dayList", daysAfter: "dayList" },
    refused: (base) => setField(base, "daysBefore", "x"),
    conform: true,
    repeatField: "daysBefore",
  },
  {
    module: "/app/routes/_shell.change-password.tsx",
    name: "change password",
    role: "PARTNER",
    path: () => "/change-password",
    base: () => formOf({ currentPassword: PASSWORDS.PARTNER, password: "hostile-pass-2", confirmPassword: "hostile-pass-2" }),
    fields: { currentPassword: "password", password: "password", confirmPassword: "password" },
    refused: (base) => setField(base, "confirmPassword", "other-pass-3"),
    conform: true,
    freshSession: true,
    repeatField: "password",
  },
  {
    module: partnerSales,
    name: "save (grid JSON)",
    role: "PARTNER",
    path: () => "/partner/sales-report",
    base: (ctx) => formOf({ intent: "save", quarterId: String(ctx.openQuarter.id), version: String(ctx.acmeVersion), tab: "API", payload: salesPayload(ctx) }),
    fields: salesJsonFields,
    refused: (base) => setField(base, "version", "0"),
    json: salesJsonCases,
    repeatField: "quarterId",
    twentyMegabytes: true,
  },
  {
    module: partnerSales,
    name: "save (form without JavaScript)",
    role: "PARTNER",
    path: () => "/partner/sales-report",
    base: (ctx) => {
      const form = formOf({ intent: "save", quarterId: String(ctx.openQuarter.id), version: String(ctx.acmeVersion), tab: "API", page: "1" });
      for (const [key, value] of Object.entries(ctx.acmeRows[0])) form.push(entry(`api[0][${key}]`, key === "purchaser" ? "Hostile Buyer Ltd" : String(value)));
      form.push(entry("deleteIds", String(ctx.acmeRows[1].id)));
      return form;
    },
    fields: {
      intent: "enum",
      quarterId: "id",
      version: "version",
      tab: "lenient",
      page: "lenient",
      // Every cell of an API row is optional (an empty cell stays empty).
      "api[0][id]": "id?",
      "api[0][year]": "number?",
      "api[0][month]": "enum?",
      "api[0][country]": "code?",
      "api[0][purchaser]": "text?",
      "api[0][productName]": "text?",
      "api[0][quantity]": "amount?",
      "api[0][totalValue]": "amount?",
      deleteIds: "idList",
    },
    refused: (base) => setField(base, "api[0][month]", "Smarch"),
    extraCases: (ctx, base) => [
      {
        label: "api[0][id]: a row of another partner",
        expect: "refuse",
        form: setField(base, "api[0][id]", String(ctx.other.salesRowId)),
        protectedRow: { table: "sales_rows", id: ctx.other.salesRowId },
      },
      {
        label: "deleteIds: a row of another partner",
        expect: "refuse",
        form: setField(base, "deleteIds", String(ctx.other.salesRowId)),
        protectedRow: { table: "sales_rows", id: ctx.other.salesRowId },
      },
    ],
    sparse: ["api[9999999][country]=x", "fdf[99999][purchaser]=x", "api[0][id][99999]=1"],
    repeatField: "deleteIds",
  },
  {
    module: partnerSales,
    name: "submit",
    role: "PARTNER",
    path: () => "/partner/sales-report",
    base: (ctx) =>
      formOf({
        intent: "submit",
        quarterId: String(ctx.openQuarter.id),
        version: String(ctx.acmeVersion),
        comment: "Submitted by the hostile-input suite.",
        payload: salesPayload(ctx),
      }),
    fields: { ...salesJsonFields, comment: "text" },
    refused: (base) => without(base, "comment"),
    json: salesJsonCases,
    repeatField: "comment",
  },
  {
    module: partnerSales,
    name: "submit-empty (nothing to report)",
    role: "PARTNER3",
    path: () => "/partner/sales-report",
    base: (ctx) => formOf({ intent: "submit-empty", quarterId: String(ctx.openQuarter.id), version: "0", comment: "Nothing sold this quarter." }),
    // No report exists yet: there is no version to be stale against.
    fields: { intent: "enum", quarterId: "id", version: "lenient", comment: "text" },
    refused: (base) => without(base, "comment"),
    repeatField: "quarterId",
  },
  {
    module: partnerSales,
    name: "read-messages",
    role: "PARTNER",
    path: () => "/partner/sales-report",
    base: (ctx) => formOf({ intent: "read-messages", quarterId: String(ctx.previousQuarter.id) }),
    fields: { intent: "enum", quarterId: "id" },
    refused: (base) => without(base, "intent"),
    repeatField: "quarterId",
  },
  {
    module: partnerSales,
    name: "upload (multipart)",
    role: "PARTNER",
    path: () => "/partner/sales-report",
    multipart: true,
    base: (ctx) =>
      formOf({
        intent: "upload",
        quarter: ctx.openQuarter.name,
        version: String(ctx.acmeVersion),
        mode: "append",
        file: { filename: "sales-report.xlsx", type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", bytes: ctx.workbook },
      }),
    fields: { intent: "enum", quarter: "enum?", version: "version", mode: "lenient", file: "file" },
    refused: (base) => setField(base, "version", "0"),
    repeatField: "version",
    extraCases: (_ctx, base) => uploadFileCases(base, "sales-report.xlsx"),
  },
  {
    module: adminSales,
    name: "save (grid JSON) by the administrator",
    role: "ADMIN",
    path: (_ctx, params) => `/admin/sales-report/${encodeURIComponent(params.id)}`,
    params: (ctx) => ({ id: String(ctx.acme) }),
    hostileParams: ["id"],
    base: (ctx) => formOf({ intent: "save", quarterId: String(ctx.openQuarter.id), version: String(ctx.acmeVersion), tab: "API", payload: salesPayload(ctx) }),
    fields: salesJsonFields,
    refused: (base) => setField(base, "version", "0"),
    json: salesJsonCases,
    repeatField: "version",
  },
  ...(["approve", "reject"] as const).map((intent): Variant => ({
    module: adminSales,
    name: intent,
    role: "ADMIN",
    path: (_ctx, params) => `/admin/sales-report/${encodeURIComponent(params.id)}`,
    params: (ctx) => ({ id: String(ctx.cedar) }),
    hostileParams: ["id"],
    base: (ctx) => formOf({ intent, quarterId: String(ctx.openQuarter.id), version: "1", comment: `${intent} by the hostile-input suite.` }),
    fields: decisionFields,
    refused: (base) => without(base, "comment"),
    repeatField: "quarterId",
    setup: submitCedarsReport,
  })),
  {
    module: adminSales,
    name: "reopen",
    role: "ADMIN",
    path: (_ctx, params) => `/admin/sales-report/${encodeURIComponent(params.id)}`,
    params: (ctx) => ({ id: String(ctx.borealis) }),
    hostileParams: ["id"],
    base: (ctx) => formOf({ intent: "reopen", quarterId: String(ctx.openQuarter.id), version: "1", comment: "Reopened by the hostile-input suite." }),
    fields: decisionFields,
    refused: (base) => without(base, "comment"),
    repeatField: "quarterId",
  },
  {
    module: adminSales,
    name: "read-messages by the administrator",
    role: "ADMIN",
    path: (_ctx, params) => `/admin/sales-report/${encodeURIComponent(params.id)}`,
    params: (ctx) => ({ id: String(ctx.cedar) }),
    hostileParams: ["id"],
    base: (ctx) => formOf({ intent: "read-messages", quarterId: String(ctx.previousQuarter.id) }),
    fields: { intent: "enum", quarterId: "id" },
    refused: (base) => without(base, "intent"),
    repeatField: "quarterId",
  },
  {
    module: adminSales,
    name: "verify-product",
    role: "ADMIN",
    path: (_ctx, params) => `/admin/sales-report/${encodeURIComponent(params.id)}`,
    params: (ctx) => ({ id: String(ctx.acme) }),
    hostileParams: ["id"],
    base: (ctx) =>
      formOf({
        intent: "verify-product",
        quarterId: String(ctx.openQuarter.id),
        verificationId: String(ctx.pendingVerificationId),
        decision: "approve",
        mapToProductId: "",
        productName: "Hostile Verified Product 10 mg",
        therapyArea: "HIV",
        projectStatus: "PLANNED",
      }),
    // The form also posts quarterId, which the decision does not use.
    fields: {
      intent: "enum",
      verificationId: "id",
      decision: "enum",
      mapToProductId: "id?",
      productName: "text",
      therapyArea: "code",
      projectStatus: "enum",
    },
    refused: (base) => setField(base, "therapyArea", ""),
    extraCases: (ctx, base) => [
      { label: "mapToProductId: a product of the other category (API)", expect: "refuse", form: setField(base, "mapToProductId", String(ctx.apiProductId)) },
    ],
    repeatField: "verificationId",
  },
  ...reportVariants({
    type: "pdt",
    partnerModule: partnerPdt,
    adminModule: adminPdt,
    partnerPath: "/partner/development-timeline",
    adminPath: "/admin/development-timeline",
    version: (ctx) => ctx.pdt.version,
    payload: pdtPayload,
    submitSetup: explainAcmesTimeline,
    json: pdtJsonCases,
    // Date inputs post ISO dates.
    plainCells: (ctx) => ({
      [pdtCell(0, "productId")]: String(ctx.productId),
      [pdtCell(0, "stageId")]: String(ctx.pdt.stageIds[0]),
      [pdtCell(0, "status")]: "FILED",
      [pdtCell(0, "notes")]: "Planned by the hostile-input suite.",
      [pdtCell(0, "startDate")]: "2027-03-01",
      [pdtCell(0, "endDate")]: "2027-06-30",
    }),
    // A row names its product and stage; an empty status keeps the product's, an empty date clears it.
    plainFields: () => ({
      [pdtCell(0, "productId")]: "id",
      [pdtCell(0, "stageId")]: "id",
      [pdtCell(0, "status")]: "enum?",
      [pdtCell(0, "notes")]: "text?",
      [pdtCell(0, "startDate")]: "date?",
      [pdtCell(0, "endDate")]: "date?",
    }),
    plainRefused: (base) => setField(base, pdtCell(0, "startDate"), "2027-02-30"),
    plainExtra: (ctx, base) => {
      const secondRow = (status: string) =>
        withEntries(
          base,
          [pdtCell(1, "productId"), String(ctx.productId)],
          [pdtCell(1, "stageId"), String(ctx.pdt.stageIds[1])],
          [pdtCell(1, "status"), status],
          [pdtCell(1, "startDate"), "2027-07-01"],
        );
      return [
        {
          label: "pdt[0][productId]: a product of another partner",
          expect: "refuse",
          form: setField(base, pdtCell(0, "productId"), String(ctx.otherProduct.id)),
          protectedRow: { table: "partner_products", id: ctx.otherProduct.linkId },
        },
        {
          label: "pdt[0][productId]: a product taken off the partner's list",
          expect: "refuse",
          form: setField(base, pdtCell(0, "productId"), String(ctx.inactiveProductId)),
        },
        { label: "pdt[0][productId]: 2147483647 (no product)", expect: "refuse", form: setField(base, pdtCell(0, "productId"), "2147483647") },
        {
          label: "pdt[0][stageId]: a stage of the other category (API)",
          expect: "refuse",
          form: setField(base, pdtCell(0, "stageId"), String(ctx.apiStageId)),
        },
        { label: "pdt[0][status]: not in the list (SHIPPED)", expect: "refuse", form: setField(base, pdtCell(0, "status"), "SHIPPED") },
        { label: "pdt[0][endDate]: before the start date", expect: "refuse", form: setField(base, pdtCell(0, "endDate"), "2027-01-01") },
        { label: "pdt[0][startDate]: year 99999", expect: "refuse", form: setField(base, pdtCell(0, "startDate"), "99999-03-01") },
        { label: "pdt[1]: a second row of the product with another status", expect: "refuse", form: secondRow("DROPPED") },
        { label: "pdt[1]: a second row of the product with the same status", expect: "either", form: secondRow("FILED") },
        {
          label: "pdt[1]: the same row again at another index",
          expect: "either",
          form: withEntries(base, [pdtCell(1, "productId"), String(ctx.productId)], [pdtCell(1, "stageId"), String(ctx.pdt.stageIds[0])]),
        },
      ];
    },
    plainSparse: ["pdt[99999][notes]=x", "pdt[999999][notes]=x", "pdt[0][productId][99999]=1", "pdt[-1][notes]=x"],
    plainRepeat: () => pdtCell(0, "notes"),
    submitEmptyVersion: "0",
    upload: (ctx) => ({ filename: "development-timeline.xlsx", bytes: ctx.pdt.workbook, bad: ctx.pdt.badWorkbooks }),
  }),
  ...reportVariants({
    type: "filing",
    partnerModule: partnerFiling,
    adminModule: adminFiling,
    partnerPath: "/partner/filing-plans",
    adminPath: "/admin/filing-plans",
    version: (ctx) => ctx.filing.version,
    payload: filingPayload,
    json: filingJsonCases,
    plainCells: (ctx) => ({ [filingCell(ctx)]: "Filed" }),
    // An empty cell (or "0") empties the filing.
    plainFields: (ctx) => ({ [filingCell(ctx)]: "enum?" }),
    plainRefused: (base, ctx) => setField(base, filingCell(ctx), "Launched"),
    plainExtra: (ctx, base) => {
      const cell = filingCell(ctx);
      const renamed = (name: string, label: string, expect: Expectation = "refuse"): HostileCase => ({
        label: `${cell} as ${name}: ${label}`,
        expect,
        form: [...without(base, cell), entry(name, "Filed")],
      });
      const country = ctx.filing.countryId;
      return [
        renamed(`filing[${country}][${ctx.otherProduct.id}]`, "a product of another partner"),
        renamed(`filing[${country}][${ctx.inactiveProductId}]`, "a product taken off the partner's list"),
        renamed(`filing[${country}][2147483647]`, "product 2147483647 (no product)"),
        renamed(`filing[${country}][2147483648]`, "product 2147483648 (above int4)"),
        renamed(`filing[${country}][0]`, "product 0"),
        renamed(`filing[2147483647][${ctx.productId}]`, "country 2147483647 (no country)"),
        renamed(`filing[2147483648][${ctx.productId}]`, "country 2147483648 (above int4)"),
        renamed(`filing[0][${ctx.productId}]`, "country 0"),
        renamed(`filing[00${country}][${ctx.productId}]`, "the country with leading zeros", "either"),
        renamed(`filing[${country}][${ctx.productId}][0]`, "a cell nested deeper", "either"),
        {
          label: `${cell}: and the same cell with leading zeros`,
          expect: "refuse",
          form: withEntries(base, [`filing[0${country}][${ctx.productId}]`, "Registered"]),
        },
        { label: `${cell}: the open quarter (no planned filing quarter)`, expect: "refuse", form: setField(base, cell, ctx.openQuarter.name) },
        { label: `${cell}: a planned filing quarter`, expect: "either", form: setField(base, cell, ctx.filing.plannedQuarter) },
        { label: `${cell}: 65 characters`, expect: "refuse", form: setField(base, cell, "F".repeat(65)) },
        { label: `${cell}: 0 (empties the cell)`, expect: "either", form: setField(base, cell, "0") },
      ];
    },
    plainSparse: ["filing[99999999999][1]=Filed", "filing[1][99999999999]=Filed", "filing[2147483648][1]=Filed", "filing[1][2][3]=Filed"],
    plainRepeat: filingCell,
    submitEmptySetup: emptyCedarsFiling,
    submitEmptyVersion: "1",
    upload: (ctx) => ({ filename: "filing-plans.xlsx", bytes: ctx.filing.workbook, bad: ctx.filing.badWorkbooks }),
  }),
  {
    module: "/app/routes/admin.reminders.tsx",
    name: "send reminders",
    role: "ADMIN",
    path: () => "/admin/reminders",
    base: (ctx) => formOf({ partnerId: String(ctx.cedar), reportType: "sales", redirectTo: "/admin/partner-list" }),
    fields: { partnerId: "id", reportType: "enum", redirectTo: "lenient" },
    repeatField: "partnerId",
    // A resource route posted by a form without JavaScript: it refuses by going back with an error message.
    refusalRedirect: (outcome) => outcome.toast !== null && outcome.toast.type !== "success",
  },
  {
    module: "/app/routes/language.tsx",
    name: "choose the language",
    // Signed out it sets only the pages' language: the menu's post is open to everyone.
    role: "ANONYMOUS",
    path: () => "/language",
    base: () => formOf({ language: "fr", redirectTo: "/partner/dashboard" }),
    fields: { language: "enum", redirectTo: "lenient" },
    repeatField: "language",
    // A resource route posted by the menu: it refuses by going back with an error message.
    refusalRedirect: (outcome) => outcome.toast !== null && outcome.toast.type !== "success",
  },
  {
    module: "/app/routes/lock-screen.tsx",
    name: "unlock",
    role: "ADMIN",
    path: () => "/lock-screen",
    base: () => formOf({ intent: "unlock", password: PASSWORDS.ADMIN }),
    fields: { intent: "lenient", password: "password" },
    refused: (base) => without(base, "password"),
    conform: true,
    freshSession: true,
    rateLimited: true,
    repeatField: "password",
  },
  {
    module: "/app/routes/lock-screen.tsx",
    name: "lock",
    role: "ADMIN",
    path: () => "/lock-screen",
    base: () => formOf({ intent: "lock" }),
    fields: { intent: "enum" },
    freshSession: true,
    rateLimited: true,
    repeatField: "intent",
  },
  {
    module: "/app/routes/login.tsx",
    name: "sign in",
    role: "ANONYMOUS",
    path: () => "/login",
    base: () => formOf({ email: ACCOUNTS.ADMIN, password: PASSWORDS.ADMIN, remember: "on" }),
    fields: { email: "email", password: "password", remember: "checkbox" },
    refused: (base) => without(base, "password"),
    conform: true,
    rateLimited: true,
    repeatField: "email",
    twentyMegabytes: true,
  },
  {
    // The API answers JSON bodies with a bearer token: a signed-in browser's form gets a refusal.
    module: "/app/routes/api.$.tsx",
    name: "a form posted to an API call",
    role: "PARTNER",
    path: (_ctx, params) => `/api/${params["*"]}`,
    params: () => ({ "*": "template/sales/api" }),
    hostileParams: ["*"],
    base: () => formOf({ a: "1" }),
    fields: { a: "lenient" },
    alwaysRefuses: true,
  },
  {
    module: "/app/routes/logout.tsx",
    name: "log out",
    role: "ADMIN",
    path: () => "/logout",
    base: () => formOf({ a: "1" }),
    fields: { a: "lenient" },
    freshSession: true,
    alwaysRefuses: true,
    refusalRedirect: (outcome) => outcome.location === "/login",
  },
  {
    module: "/app/routes/reset-password.tsx",
    name: "ask for a password link",
    role: "ANONYMOUS",
    path: () => "/reset-password",
    base: () => formOf({ email: ACCOUNTS.PARTNER }),
    fields: { email: "email" },
    conform: true,
    rateLimited: true,
    repeatField: "email",
  },
  {
    module: "/app/routes/set-password.$token.tsx",
    name: "set a password with a link",
    role: "ANONYMOUS",
    path: (_ctx, params) => `/set-password/${encodeURIComponent(params.token)}`,
    params: (ctx) => ({ token: ctx.token }),
    hostileParams: ["token"],
    base: () => formOf({ password: "hostile-pass-3", confirmPassword: "hostile-pass-3" }),
    fields: { password: "password", confirmPassword: "password" },
    refused: (base) => setField(base, "confirmPassword", "other-pass-4"),
    conform: true,
    repeatField: "password",
    // An unknown or used link goes back to its own page, which says the link has ended.
    refusalRedirect: (outcome) => Boolean(outcome.location?.startsWith("/set-password/")),
  },
];

// ---------------------------------------------------------------- the generated cases

const fieldsOf = (variant: Variant, ctx: Ctx) => (typeof variant.fields === "function" ? variant.fields(ctx) : variant.fields);

/** The Sales grid's JSON body, attacked. */
function salesJsonCases(ctx: Ctx, base: Form): HostileCase[] {
  const row: Record<string, string | number> = { ...ctx.acmeRows[0], purchaser: "Hostile Buyer Ltd" };
  const newRow = Object.fromEntries(Object.entries(row).filter(([key]) => key !== "id"));
  const payload = (value: string, label: string, expect: "refuse" | "either" = "refuse"): HostileCase => ({
    label: `payload: ${label}`,
    expect,
    form: setField(base, "payload", value),
  });
  const otherRow = { table: "sales_rows", id: ctx.other.salesRowId };
  const body = (value: unknown) => JSON.stringify(value);
  const deepArray = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
  const deepObject = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
  return [
    payload('{"API":[', "invalid JSON"),
    payload("null", "null"),
    payload('"API"', "a JSON string"),
    payload(deepArray, "[[[…]]] nested 100,000 levels"),
    payload(deepObject, '{"a":{"a":…}} nested 100,000 levels'),
    payload(`{"API":[${deepArray}],"FDF":[],"deletedIds":[]}`, "a row nested 100,000 levels"),
    payload(body({ API: Array.from({ length: 100_001 }, () => ({})), FDF: [], deletedIds: [] }), "100,001 rows"),
    payload(body({ API: Array.from({ length: 100_001 }, () => newRow), FDF: [], deletedIds: [] }), "100,001 valid rows"),
    payload(
      body({
        API: [{ year: [], month: {}, country: true, purchaser: null, productName: 1e300, quantity: [1], totalValue: { $gt: 0 } }],
        FDF: [],
        deletedIds: [],
      }),
      "a row of wrong types",
    ),
    payload(body({ API: "rows", FDF: {}, deletedIds: "1" }), "lists of wrong types"),
    payload(body({ API: { length: 100_000_000 }, FDF: [], deletedIds: [] }), "API an object with length 100,000,000"),
    payload(body({ API: [{ ...row, id: 2147483648 }], FDF: [], deletedIds: [] }), "row id 2147483648 (above int4)"),
    payload(body({ API: [{ ...row, id: 99999999999 }], FDF: [], deletedIds: [] }), "row id 99999999999"),
    payload(body({ API: [{ ...row, id: "99999999999" }], FDF: [], deletedIds: [] }), 'row id "99999999999" (a string)'),
    payload(body({ API: [{ ...row, id: 1e21 }], FDF: [], deletedIds: [] }), "row id 1e21"),
    { ...payload(body({ API: [{ ...row, id: ctx.other.salesRowId }], FDF: [], deletedIds: [] }), "row id of another partner's row"), protectedRow: otherRow },
    { ...payload(body({ API: [], FDF: [], deletedIds: [ctx.other.salesRowId] }), "deletedIds [another partner's row]"), protectedRow: otherRow },
    payload(body({ API: [], FDF: [], deletedIds: [2147483648] }), "deletedIds [2147483648]"),
    payload(body({ API: [], FDF: [], deletedIds: ["99999999999"] }), 'deletedIds ["99999999999"]'),
    payload(body({ API: [], FDF: [], deletedIds: Array.from({ length: 20_000 }, (_, index) => index + 1_000_000) }), "20,000 unknown deletedIds"),
    payload(body({ API: [{ ...row, id: -1 }], FDF: [], deletedIds: [-1, 0, "abc", null] }), "negative and junk ids", "either"),
    payload(
      body({
        API: [
          { ...row, id: row.id },
          { ...row, id: row.id },
        ],
        FDF: [],
        deletedIds: [],
      }),
      "the same row id twice",
      "either",
    ),
    payload(body({ API: [{ ...newRow, year: "2147483648" }], FDF: [], deletedIds: [] }), "year 2147483648"),
    payload(body({ API: [{ ...newRow, quantity: "1e309" }], FDF: [], deletedIds: [] }), "quantity 1e309"),
    payload(body({ API: [{ ...newRow, quantity: "9".repeat(400) }], FDF: [], deletedIds: [] }), "quantity of 400 digits"),
    payload(body({ API: [{ ...newRow, purchaser: MEGABYTE_STRING }], FDF: [], deletedIds: [] }), "a 1 MB purchaser"),
    payload(body({ API: [{ ...newRow, purchaser: "a\u0000b" }], FDF: [], deletedIds: [] }), "a NUL byte in a cell"),
    payload(
      `{"API":[${JSON.stringify({ ...newRow, purchaser: "X" }).replace('"X"', '"\\ud800"')}],"FDF":[],"deletedIds":[]}`,
      "a lone surrogate (\\ud800) in a cell",
      "either",
    ),
    payload(
      body({ API: [{ ...newRow, purchaser: "Buyer \u202Efdp.exe 💊 Z\u0336\u0336 <script>alert(1)</script>" }], FDF: [], deletedIds: [] }),
      "RTL, emoji, combining, <script> in a cell",
      "either",
    ),
    payload('{"__proto__":{"polluted":"yes"},"API":[],"FDF":[],"deletedIds":[]}', "__proto__ key", "either"),
  ];
}

const DEEP_ARRAY = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
const DEEP_OBJECT = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;

/** The timeline grid's JSON body (`{"rows":[…]}`), attacked. */
function pdtJsonCases(ctx: Ctx, base: Form): HostileCase[] {
  const payload = (value: string, label: string, expect: Expectation = "refuse"): HostileCase => ({
    label: `payload: ${label}`,
    expect,
    form: setField(base, "payload", value),
  });
  const row = pdtRow(ctx);
  const rows = (...list: unknown[]) => JSON.stringify({ rows: list });
  const withRow = (overrides: Record<string, unknown>) => rows(pdtRow(ctx, overrides));
  const secondStage = ctx.pdt.stageIds[1];
  return [
    payload('{"rows":[', "invalid JSON"),
    payload("null", "null"),
    payload("[]", "a JSON array"),
    payload('"rows"', "a JSON string"),
    payload(DEEP_ARRAY, "[[[…]]] nested 100,000 levels"),
    payload(DEEP_OBJECT, '{"a":{"a":…}} nested 100,000 levels'),
    payload(`{"rows":[${DEEP_ARRAY}]}`, "a row nested 100,000 levels"),
    payload(`{"rows":[${JSON.stringify(row).slice(0, -1)},"notes":${DEEP_OBJECT}}]}`, "a note nested 100,000 levels"),
    payload(JSON.stringify({ rows: [row], deletedIds: [] }), "a key of another report (deletedIds)"),
    payload(JSON.stringify({ rows: "all" }), "rows a string"),
    payload(JSON.stringify({ rows: { length: 100_000_000 } }), "rows an object with length 100,000,000"),
    payload(rows(...Array.from({ length: 20_001 }, () => ({}))), "20,001 empty rows"),
    payload(rows(...Array.from({ length: 100_001 }, () => row)), "100,001 valid rows"),
    payload(rows(...Array.from({ length: 20_000 }, () => row)), "20,000 copies of one row", "either"),
    payload(rows({ productId: [], stageId: {}, status: 1, notes: true, startDate: 1e300, endDate: [] }), "a row of wrong types"),
    payload(withRow({ id: 1 }), "a row with an id"),
    payload(rows([row]), "a row inside an array"),
    {
      ...payload(withRow({ productId: ctx.otherProduct.id }), "productId of another partner's product"),
      protectedRow: { table: "partner_products", id: ctx.otherProduct.linkId },
    },
    payload(withRow({ productId: ctx.inactiveProductId }), "productId of a product taken off the partner's list"),
    payload(withRow({ productId: 2147483647 }), "productId 2147483647 (no product)"),
    payload(withRow({ productId: 2147483648 }), "productId 2147483648 (above int4)"),
    payload(withRow({ productId: 99999999999 }), "productId 99999999999"),
    payload(withRow({ productId: "99999999999" }), 'productId "99999999999" (a string)'),
    payload(withRow({ productId: 1e21 }), "productId 1e21"),
    payload(withRow({ productId: 1.5 }), "productId 1.5"),
    payload(withRow({ productId: -1 }), "productId -1"),
    payload(withRow({ productId: 0 }), "productId 0"),
    payload(withRow({ productId: null }), "productId null"),
    payload(withRow({ productId: String(ctx.productId) }), "productId as a string", "either"),
    payload(withRow({ stageId: ctx.apiStageId }), "stageId of the other category (API)"),
    payload(withRow({ stageId: 2147483648 }), "stageId 2147483648 (above int4)"),
    payload(withRow({ stageId: 2147483647 }), "stageId 2147483647 (no stage)"),
    payload(withRow({ stageId: null }), "stageId null"),
    payload(withRow({ status: "SHIPPED" }), "status not in the list"),
    payload(withRow({ status: "filed" }), "status in lower case", "either"),
    payload(withRow({ status: "Under Development" }), "status as its label", "either"),
    payload(withRow({ status: ["FILED"] }), "status an array"),
    payload(withRow({ status: 1 }), "status a number"),
    payload(withRow({ status: "F".repeat(5000) }), "status of 5,000 characters"),
    payload(rows(row, pdtRow(ctx, { stageId: secondStage, status: "DROPPED" })), "two rows of one product with different statuses"),
    payload(rows(row, pdtRow(ctx, { stageId: secondStage })), "two rows of one product with the same status", "either"),
    payload(rows(row, pdtRow(ctx, { stageId: secondStage, status: "" })), "two rows of one product, the second without a status", "either"),
    payload(rows(row, row), "the same row twice", "either"),
    payload(rows(row, pdtRow(ctx, { notes: "Other notes." })), "the same row twice with different notes", "either"),
    payload(withRow({ startDate: "2/30/2027" }), "startDate 2/30/2027"),
    payload(withRow({ startDate: "13/1/2027" }), "startDate 13/1/2027"),
    payload(withRow({ startDate: "1/1/99999" }), "startDate in year 99999"),
    payload(withRow({ startDate: "1/1/1000" }), "startDate in year 1000"),
    payload(withRow({ startDate: "1e309" }), "startDate 1e309"),
    payload(withRow({ startDate: 46000 }), "startDate a number (an Excel serial)"),
    payload(withRow({ startDate: "2027-03-01T00:00:00Z" }), "startDate a timestamp"),
    payload(withRow({ startDate: "6/30/2027", endDate: "3/1/2027" }), "endDate before startDate"),
    payload(withRow({ endDate: " " }), "endDate a single space (clears it)", "either"),
    payload(withRow({ notes: "n".repeat(2001) }), "notes of 2,001 characters"),
    payload(withRow({ notes: MEGABYTE_STRING }), "a 1 MB note"),
    payload(withRow({ notes: "a\u0000b" }), "a NUL byte in a note"),
    payload(withRow({ notes: "a\u0007b" }), "a control character in a note"),
    payload(`{"rows":[${JSON.stringify(pdtRow(ctx, { notes: "X" })).replace('"X"', '"\\ud800"')}]}`, "a lone surrogate (\\ud800) in a note", "either"),
    payload(withRow({ notes: "Plan \u202Efdp.exe 💊 Z\u0336\u0336 <script>alert(1)</script>" }), "RTL, emoji, combining, <script> in a note", "either"),
    payload('{"__proto__":{"polluted":"yes"},"rows":[]}', "__proto__ key", "either"),
    payload(`{"rows":[{"__proto__":{"polluted":"yes"},${JSON.stringify(row).slice(1)}]}`, "__proto__ key in a row", "either"),
    payload(`{"rows":[{"constructor":{"prototype":{"polluted":"yes"}},${JSON.stringify(row).slice(1)}]}`, "constructor.prototype in a row", "either"),
  ];
}

/** The Filing Plans grid's JSON body (`{"cells":{"<countryId>":{"<productId>":"<status>"}}}`), attacked. */
function filingJsonCases(ctx: Ctx, base: Form): HostileCase[] {
  const payload = (value: string, label: string, expect: Expectation = "refuse"): HostileCase => ({
    label: `payload: ${label}`,
    expect,
    form: setField(base, "payload", value),
  });
  const country = String(ctx.filing.countryId);
  const product = String(ctx.productId);
  const cells = (value: unknown) => JSON.stringify({ cells: value });
  const cell = (status: unknown, countryKey = country, productKey = product) => cells({ [countryKey]: { [productKey]: status } });
  const range = (count: number) => Array.from({ length: count }, (_, index) => String(index + 1));
  return [
    payload('{"cells":{', "invalid JSON"),
    payload("null", "null"),
    payload("[]", "a JSON array"),
    payload('"cells"', "a JSON string"),
    payload(DEEP_ARRAY, "[[[…]]] nested 100,000 levels"),
    payload(DEEP_OBJECT, '{"a":{"a":…}} nested 100,000 levels'),
    payload(`{"cells":{"${country}":${DEEP_OBJECT}}}`, "a country nested 100,000 levels"),
    payload(`{"cells":{"${country}":{"${product}":${DEEP_ARRAY}}}}`, "a cell nested 100,000 levels"),
    payload(cell({ status: "Filed" }), "a cells map one level deeper than expected"),
    payload(cell({ [product]: { x: "Filed" } }), "a cells map two levels deeper than expected"),
    payload(cells({ [country]: "Filed" }), "a country mapped to a status (a level short)"),
    payload(cells({ [country]: ["Filed"] }), "a country mapped to an array"),
    payload(cells({ [country]: null }), "a country mapped to null"),
    payload(cells([{ [product]: "Filed" }]), "cells an array"),
    payload(cells("Filed"), "cells a string"),
    payload(JSON.stringify({}), "no cells"),
    payload(JSON.stringify({ cells: { [country]: { [product]: "Filed" } }, rows: [] }), "a key of another report (rows)"),
    payload(cell("Filed", country, String(ctx.otherProduct.id)), "productId of another partner's product"),
    payload(cell("Filed", country, String(ctx.inactiveProductId)), "productId of a product taken off the partner's list"),
    payload(cell("Filed", country, "2147483647"), "productId 2147483647 (no product)"),
    payload(cell("Filed", country, "2147483648"), "productId 2147483648 (above int4)"),
    payload(cell("Filed", country, "99999999999"), "productId 99999999999"),
    payload(cell("Filed", country, "0"), "productId 0"),
    payload(cell("Filed", country, "-1"), "productId -1"),
    payload(cell("Filed", country, `0${product}`), "productId with a leading zero"),
    payload(cell("Filed", country, "1e3"), "productId 1e3"),
    payload(cell("Filed", country, "Dolutegravir 50 mg"), "productId a product's name"),
    payload(cell("Filed", "2147483647"), "countryId 2147483647 (no country)"),
    payload(cell("Filed", "2147483648"), "countryId 2147483648 (above int4)"),
    payload(cell("Filed", "99999999999"), "countryId 99999999999"),
    payload(cell("Filed", "0"), "countryId 0"),
    payload(cell("Filed", `0${country}`), "countryId with a leading zero"),
    payload(cell("Filed", "Kenya"), "countryId a country's name"),
    payload(cell("Filed", ""), "countryId empty"),
    payload(cell("Launched"), "status not in the list"),
    payload(cell(ctx.openQuarter.name), "status the open quarter (no planned filing quarter)"),
    payload(cell(ctx.filing.plannedQuarter), "status a planned filing quarter", "either"),
    payload(cell("filed"), "status in lower case", "either"),
    payload(cell(" Filed "), "status with spaces around it", "either"),
    payload(cell(null), "status null (empties the cell)", "either"),
    payload(cell("0"), "status 0 (empties the cell)", "either"),
    payload(cell(""), "status empty (empties the cell)", "either"),
    payload(cell(0), "status the number 0"),
    payload(cell(1), "status a number"),
    payload(cell(true), "status true"),
    payload(cell(["Filed"]), "status an array"),
    payload(cell("F".repeat(65)), "status of 65 characters"),
    payload(cell(MEGABYTE_STRING), "a 1 MB status"),
    payload(cell("Filed\u0000"), "a NUL byte in a status"),
    payload(cell("Filed \u202Efdp.exe 💊 <script>alert(1)</script>"), "RTL, emoji and <script> in a status"),
    payload(cells(Object.fromEntries(range(301).map((id) => [id, {}]))), "301 countries"),
    payload(cells({ [country]: Object.fromEntries(range(201).map((id) => [id, "Filed"])) }), "201 products in one country"),
    payload(
      cells(Object.fromEntries(range(300).map((id) => [id, Object.fromEntries(range(200).map((productId) => [productId, "Filed"]))]))),
      "300 countries of 200 products (60,000 cells)",
    ),
    payload('{"cells":{"__proto__":{"polluted":"yes"}}}', "__proto__ as a country"),
    payload(`{"cells":{"${country}":{"__proto__":"Filed"}}}`, "__proto__ as a product"),
    payload(`{"cells":{"constructor":{"prototype":{"polluted":"yes"}}}}`, "constructor.prototype as a country"),
    payload('{"__proto__":{"polluted":"yes"},"cells":{}}', "__proto__ key", "either"),
  ];
}

function structureCases(variant: Variant, ctx: Ctx, base: Form): HostileCase[] {
  const refused = variant.refused ? variant.refused(base, ctx) : without(base, Object.keys(fieldsOf(variant, ctx))[0]);
  const cases: HostileCase[] = [
    { label: "x[100000000]=1 on the valid form", expect: "either", form: withEntries(base, ["x[100000000]", "1"]) },
    { label: "x[100000000]=1 on a refused form", expect: "refuse", form: withEntries(refused, ["x[100000000]", "1"]) },
    { label: "x[100000]=1 on a refused form", expect: "refuse", form: withEntries(refused, ["x[100000]", "1"]) },
    { label: "a[b][b]… 1,000 levels on the valid form", expect: "either", form: withEntries(base, [deepName(1000), "1"]) },
    { label: "a[b][b]… 1,000 levels on a refused form", expect: "refuse", form: withEntries(refused, [deepName(1000), "1"]) },
    {
      label: "names constructor, __proto__[polluted], a], [ on the valid form",
      expect: "either",
      form: withEntries(base, ["constructor", "1"], ["__proto__[polluted]", "yes"], ["a]", "1"], ["[", "1"]),
    },
    {
      label: "names constructor, __proto__[polluted] on a refused form",
      expect: "refuse",
      form: withEntries(refused, ["constructor", "1"], ["__proto__[polluted]", "yes"]),
    },
  ];
  for (const sparse of variant.sparse ?? []) {
    const [name, value] = sparse.split("=");
    cases.push(
      { label: `${sparse} on the valid form`, expect: "either", form: withEntries(base, [name, value]) },
      { label: `${sparse} on a refused form`, expect: "refuse", form: withEntries(refused, [name, value]) },
    );
  }
  if (variant.repeatField) {
    cases.push({ label: `${variant.repeatField} posted 20,000 times`, expect: "refuse", form: repeated(base, variant.repeatField) });
  }
  if (variant.conform) {
    cases.push(
      { label: "__intent__={ (invalid JSON)", expect: "refuse", form: withEntries(base, ["__intent__", "{"]) },
      { label: '__intent__={"type":"x"} (no payload)', expect: "refuse", form: withEntries(base, ["__intent__", '{"type":"x"}']) },
      // conform's client state: these forms never post it, so it may be ignored like any unknown field, or refused.
      { label: "__state__={ (invalid JSON)", expect: "either", form: withEntries(base, ["__state__", "{"]) },
      {
        label: "__intent__ insert at index 100000000",
        expect: "either",
        form: withEntries(base, ["__intent__", JSON.stringify({ type: "insert", payload: { name: "products", index: 100_000_000 } })]),
      },
      {
        label: "__intent__ update x[100000]",
        expect: "either",
        form: withEntries(base, ["__intent__", JSON.stringify({ type: "update", payload: { name: "x[100000]", value: "1" } })]),
      },
    );
  }
  if (variant.json) cases.push(...variant.json(ctx, base));
  return cases;
}

function requestCases(variant: Variant, ctx: Ctx, base: Form): HostileCase[] {
  const cases = bodyCases(base, { multipartRoute: variant.multipart });
  if (variant.twentyMegabytes) cases.push(twentyMegabyteCase());
  if (variant.role !== "ANONYMOUS") cases.push({ label: "the valid form without a session", expect: "refuse", form: base, anonymous: true });
  const params = variant.params?.(ctx) ?? {};
  for (const name of variant.hostileParams ?? []) {
    for (const [label, value] of HOSTILE_PARAMS) {
      cases.push({ label: `param ${name}=${label}`, expect: "refuse", form: base, params: { ...params, [name]: value } });
    }
  }
  return cases;
}

function fieldCases(variant: Variant, ctx: Ctx, base: Form): HostileCase[] {
  // `intent` picks the variant: the route reads it the same way for all of them, so it is attacked once per route.
  const fields = Object.entries(fieldsOf(variant, ctx)).filter(([field]) => field !== "intent" || firstOfModule.has(variant));
  const cases = fields.flatMap(([field, kind]) => fieldMutations(base, field, kind));
  return [...cases, ...(variant.extraCases?.(ctx, base) ?? [])];
}

/** Bodies, params and the missing session are the route's, not the variant's: they are posted once per route. */
const firstOfModule = new Set(VARIANTS.filter((variant, index) => VARIANTS.findIndex((other) => other.module === variant.module) === index));

const FAMILIES = {
  "field mutations": fieldCases,
  "sparse, deep and repeated names, JSON payloads, non-form bodies, params": (variant: Variant, ctx: Ctx, base: Form) => [
    ...structureCases(variant, ctx, base),
    ...(firstOfModule.has(variant) ? requestCases(variant, ctx, base) : []),
  ],
} as const;
type Family = keyof typeof FAMILIES;

// ---------------------------------------------------------------- running and judging

interface Failure {
  route: string;
  variant: string;
  family: string;
  case: string;
  problem: string;
}
const allFailures: Failure[] = [];
const caseCounts = new Map<string, number>();

const isPolluted = () => Object.prototype.hasOwnProperty.call(Object.prototype, "polluted");

function judge(variant: Variant, hostile: HostileCase, outcome: Outcome, changed: string[]): string | null {
  const wrote = changed.length ? `; wrote ${changed.join(", ")}` : "";
  if (outcome.thrown) return `threw (a 500): ${outcome.thrown}${wrote}`;
  if (outcome.status >= 500) return `answered ${outcome.summary}${wrote}`;
  if (outcome.bodySize > MAX_REPLY_BYTES)
    return `reply of ${outcome.bodySize > 10 * MAX_REPLY_BYTES ? "more than 640 KB" : `${outcome.bodySize} bytes`} (status ${outcome.status})${wrote}`;
  const isRedirect = outcome.status >= 300 && outcome.status < 400;
  const refused =
    (outcome.status >= 400 && outcome.status < 500) ||
    (isRedirect && ((hostile.anonymous && outcome.location === "/login") || Boolean(variant.refusalRedirect?.(outcome))));
  if (refused) return changed.length ? `refused (${outcome.summary}) but wrote ${changed.join(", ")}` : null;
  if (outcome.status < 200 || outcome.status >= 400) return `answered ${outcome.summary}${wrote}`;
  if (hostile.expect === "refuse") return `accepted: ${outcome.summary}${wrote}`;
  return null;
}

async function runCase(variant: Variant, ctx: Ctx, hostile: HostileCase, module: { action: Parameters<typeof runAction>[0] }): Promise<Outcome> {
  if (variant.rateLimited) await db.delete(rateLimits);
  const account = variant.role === "ANONYMOUS" ? undefined : variant.role;
  const cookie = !account || hostile.anonymous ? undefined : variant.freshSession ? await sessionCookieFor(ACCOUNTS[account]) : ctx.cookies[account];
  const params = hostile.params ?? variant.params?.(ctx) ?? {};
  const path = variant.path(ctx, params);
  const request = hostile.request ? hostile.request(path, cookie) : formRequest(path, hostile.form ?? [], { multipartBody: variant.multipart, cookie });
  const context: AppLoadContext = testContext({ requestId: "hostile-input" });
  return runAction(module.action, request, params, context);
}

beforeAll(startNotingWrites);

afterAll(async () => {
  await stopNotingWrites();
  await dropSnapshot();
  const report = process.env.HOSTILE_INPUT_REPORT;
  if (report) fs.writeFileSync(report, JSON.stringify({ cases: Object.fromEntries(caseCounts), failures: allFailures }, null, 2));
});

describe("hostile input: the table covers every action", () => {
  it("every route module with an action has base inputs here, and every entry names a real action", () => {
    const withAction = Object.keys(routeModules)
      .filter((key) => typeof routeModules[key].action === "function")
      .sort();
    const covered = new Set(VARIANTS.map((variant) => variant.module));
    expect(
      withAction.filter((key) => !covered.has(key)),
      "actions without base inputs in hostile-input.test.ts",
    ).toEqual([]);
    expect(
      [...covered].filter((key) => !withAction.includes(key)),
      "entries that are no action",
    ).toEqual([]);
  });
});

describe.each(VARIANTS.map((variant) => [`${variant.module.replace("/app/routes/", "")} [${variant.name}]`, variant] as const))("%s", (_title, variant) => {
  const route = variant.module.replace("/app/routes/", "");
  it.each(Object.keys(FAMILIES) as Family[])(
    "%s",
    async (family) => {
      let ctx = await buildContext();
      await variant.setup?.(ctx);
      await takeSnapshot();
      let baseline = await fingerprint();
      await takeWrittenTables();
      const module = moduleOf(variant.module);
      const failures: string[] = [];
      const record = (label: string, problem: string) => {
        failures.push(`${label}: ${problem}`);
        allFailures.push({ route, variant: variant.name, family, case: label, problem });
      };

      const settle = async () => {
        const written = await takeWrittenTables();
        if (!written.length) return [];
        const changed = changedTables(baseline, await fingerprint(written));
        if (changed.length) {
          await restoreChangedTables(changed);
          if (restoreResetsDatabase()) {
            ctx = await buildContext();
            await variant.setup?.(ctx);
            await takeSnapshot();
            baseline = await fingerprint();
          } else {
            for (const [name, hash] of await fingerprint(changed)) baseline.set(name, hash);
          }
          await takeWrittenTables();
        }
        return changed;
      };

      // The valid base form is accepted (else its refused mutations would prove nothing).
      if (family === "field mutations") {
        const outcome = await runCase(variant, ctx, { label: "base", expect: "either", form: variant.base(ctx) }, module);
        const changed = await settle();
        const isRefusal = (outcome.status >= 400 && outcome.status < 500) || Boolean(variant.refusalRedirect?.(outcome));
        if (outcome.thrown || outcome.status >= 500) record("the valid base form", `answered ${outcome.summary}`);
        else if (variant.alwaysRefuses ? !isRefusal || changed.length > 0 : isRefusal) {
          record(
            "the valid base form",
            `${variant.alwaysRefuses ? "not refused" : "refused"}: ${outcome.summary}${changed.length ? `; wrote ${changed.join(", ")}` : ""}`,
          );
        }
      }

      const cases = FAMILIES[family](variant, ctx, variant.base(ctx));
      caseCounts.set(`${route} [${variant.name}] ${family}`, cases.length);
      for (const hostile of cases) {
        const started = Date.now();
        const protectedBefore = hostile.protectedRow ? await rowHash(hostile.protectedRow) : "";
        const outcome = await runCase(variant, ctx, hostile, module);
        const ran = Date.now();
        if (hostile.protectedRow && (await rowHash(hostile.protectedRow)) !== protectedBefore) {
          record(hostile.label, `changed or deleted ${hostile.protectedRow.table} row ${hostile.protectedRow.id} of another partner (${outcome.summary})`);
        }
        const changed = await settle();
        if (process.env.HOSTILE_INPUT_TRACE) {
          const line = `${ran - started}ms +${Date.now() - ran}ms ${route} [${variant.name}] ${hostile.label} → ${outcome.summary.slice(0, 120)}`;
          fs.appendFileSync(process.env.HOSTILE_INPUT_TRACE, `${line}\n`);
        }
        const problem = judge(variant, hostile, outcome, changed);
        if (problem) record(hostile.label, problem);
        if (isPolluted()) {
          record(hostile.label, "Object.prototype.polluted was set");
          delete (Object.prototype as Record<string, unknown>).polluted;
        }
      }
      expect(failures, `${route} [${variant.name}] ${family}: ${failures.length} of ${cases.length} cases failed`).toEqual([]);
    },
    300_000,
  );
});

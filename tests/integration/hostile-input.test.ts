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
import { afterAll, describe, expect, it } from "vitest";
import type { AppLoadContext } from "@remix-run/node";
import { db } from "~/db/client.server";
import { employees, partners, products, quarters, rateLimits, reports, salesRows } from "~/db/schema";
import { getPartnerFormValues } from "~/models/partner.server";
import { createPasswordToken } from "~/models/password-token.server";
import { getOpenQuarter } from "~/models/quarter.server";
import { loadSalesReport } from "~/models/sales-report.server";
import { findUserByEmail } from "~/models/user.server";
import { columnsFor } from "~/utils/sales-rows";
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
  MAX_REPLY_BYTES,
  MEGABYTE_STRING,
  repeated,
  restoreResetsDatabase,
  restoreTables,
  rowHash,
  runAction,
  setField,
  takeSnapshot,
  twentyMegabyteCase,
  withEntries,
  without,
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
    .where(open.quarter === 1 ? and(eq(quarters.year, open.year - 1), eq(quarters.quarter, 4)) : and(eq(quarters.year, open.year), eq(quarters.quarter, open.quarter - 1)));
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
  /** The fields to mutate, and what each accepts. */
  fields: Record<string, FieldKind>;
  /** The base made invalid (default: without its first required field): the reply of a refused form must stay small too. */
  refused?: (base: Form, ctx: Ctx) => Form;
  multipart?: boolean;
  /** Parsed by conform (parseWithZod): its reserved fields are attacked too. */
  conform?: boolean;
  /** Real array fields of the form, as `name[index]...=value` with a huge index. */
  sparse?: string[];
  /** The field posted 20,000 times. */
  repeatField?: string;
  /** The grid's JSON body in `payload`. */
  json?: boolean;
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

const HOSTILE_PARAMS: [label: string, value: string][] = [
  ["99999999999", "99999999999"],
  ["2147483648", "2147483648"],
  ["-1", "-1"],
  ["1e309", "1e309"],
  ["NaN", "NaN"],
  ["abc", "abc"],
  ["%00", "\u0000"],
];

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

const salesPayload = (ctx: Ctx) =>
  JSON.stringify({ API: [{ ...ctx.acmeRows[0], purchaser: "Hostile Buyer Ltd" }], FDF: [], deletedIds: [ctx.acmeRows[1].id] });

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
    fields: { intent: "enum", cutOffDate: "date" },
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
    json: true,
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
      { label: "api[0][id]: a row of another partner", expect: "refuse", form: setField(base, "api[0][id]", String(ctx.other.salesRowId)), protectedRow: { table: "sales_rows", id: ctx.other.salesRowId } },
      { label: "deleteIds: a row of another partner", expect: "refuse", form: setField(base, "deleteIds", String(ctx.other.salesRowId)), protectedRow: { table: "sales_rows", id: ctx.other.salesRowId } },
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
      formOf({ intent: "submit", quarterId: String(ctx.openQuarter.id), version: String(ctx.acmeVersion), comment: "Submitted by the hostile-input suite.", payload: salesPayload(ctx) }),
    fields: { ...salesJsonFields, comment: "text" },
    refused: (base) => without(base, "comment"),
    json: true,
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
    extraCases: (_ctx, base) => {
      const file = (bytes: Uint8Array, filename = "sales-report.xlsx"): FilePart => ({ filename, type: "application/octet-stream", bytes });
      const cases: HostileCase[] = [
        { label: "file: 1 MB of garbage", expect: "refuse", form: setField(base, "file", file(new TextEncoder().encode(MEGABYTE_STRING))) },
        { label: "file: zero bytes", expect: "refuse", form: setField(base, "file", file(new Uint8Array())) },
        { label: "file: a text file named .xlsx", expect: "refuse", form: setField(base, "file", file(new TextEncoder().encode("Year,Month\n2026,May\n"))) },
        { label: "file: 11 MB (over the 10 MB limit)", expect: "refuse", form: setField(base, "file", file(new Uint8Array(11 * 1024 * 1024))) },
        { label: "file: sent as a text field", expect: "refuse", form: setField(base, "file", "not a file") },
        { label: "file: two files", expect: "either", form: [...base, entry("file", file(new Uint8Array([1, 2, 3])))] },
      ];
      return cases;
    },
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
    json: true,
    repeatField: "version",
  },
  ...(["approve", "reject"] as const).map(
    (intent): Variant => ({
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
    }),
  ),
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
      projectStatus: "enum?",
    },
    refused: (base) => setField(base, "therapyArea", ""),
    extraCases: (ctx, base) => [
      { label: "mapToProductId: a product of the other category (API)", expect: "refuse", form: setField(base, "mapToProductId", String(ctx.apiProductId)) },
    ],
    repeatField: "verificationId",
  },
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
    refusalRedirect: toNotFound,
  },
];

// ---------------------------------------------------------------- the generated cases

/** The grid's JSON body, attacked. */
function jsonCases(base: Form, ctx: Ctx): HostileCase[] {
  const row: Record<string, string | number> = { ...ctx.acmeRows[0], purchaser: "Hostile Buyer Ltd" };
  const newRow = Object.fromEntries(Object.entries(row).filter(([key]) => key !== "id"));
  const payload = (value: string, label: string, expect: "refuse" | "either" = "refuse"): HostileCase => ({ label: `payload: ${label}`, expect, form: setField(base, "payload", value) });
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
    payload(body({ API: [{ year: [], month: {}, country: true, purchaser: null, productName: 1e300, quantity: [1], totalValue: { $gt: 0 } }], FDF: [], deletedIds: [] }), "a row of wrong types"),
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
    payload(body({ API: [{ ...row, id: row.id }, { ...row, id: row.id }], FDF: [], deletedIds: [] }), "the same row id twice", "either"),
    payload(body({ API: [{ ...newRow, year: "2147483648" }], FDF: [], deletedIds: [] }), "year 2147483648"),
    payload(body({ API: [{ ...newRow, quantity: "1e309" }], FDF: [], deletedIds: [] }), "quantity 1e309"),
    payload(body({ API: [{ ...newRow, quantity: "9".repeat(400) }], FDF: [], deletedIds: [] }), "quantity of 400 digits"),
    payload(body({ API: [{ ...newRow, purchaser: MEGABYTE_STRING }], FDF: [], deletedIds: [] }), "a 1 MB purchaser"),
    payload(body({ API: [{ ...newRow, purchaser: "a\u0000b" }], FDF: [], deletedIds: [] }), "a NUL byte in a cell"),
    payload(`{"API":[${JSON.stringify({ ...newRow, purchaser: "X" }).replace('"X"', '"\\ud800"')}],"FDF":[],"deletedIds":[]}`, "a lone surrogate (\\ud800) in a cell", "either"),
    payload(body({ API: [{ ...newRow, purchaser: "Buyer \u202Efdp.exe 💊 Z\u0336\u0336 <script>alert(1)</script>" }], FDF: [], deletedIds: [] }), "RTL, emoji, combining, <script> in a cell", "either"),
    payload('{"__proto__":{"polluted":"yes"},"API":[],"FDF":[],"deletedIds":[]}', "__proto__ key", "either"),
  ];
}

function structureCases(variant: Variant, ctx: Ctx, base: Form): HostileCase[] {
  const refused = variant.refused ? variant.refused(base, ctx) : without(base, Object.keys(variant.fields)[0]);
  const cases: HostileCase[] = [
    { label: "x[100000000]=1 on the valid form", expect: "either", form: withEntries(base, ["x[100000000]", "1"]) },
    { label: "x[100000000]=1 on a refused form", expect: "refuse", form: withEntries(refused, ["x[100000000]", "1"]) },
    { label: "x[100000]=1 on a refused form", expect: "refuse", form: withEntries(refused, ["x[100000]", "1"]) },
    { label: "a[b][b]… 1,000 levels on the valid form", expect: "either", form: withEntries(base, [deepName(1000), "1"]) },
    { label: "a[b][b]… 1,000 levels on a refused form", expect: "refuse", form: withEntries(refused, [deepName(1000), "1"]) },
    { label: "names constructor, __proto__[polluted], a], [ on the valid form", expect: "either", form: withEntries(base, ["constructor", "1"], ["__proto__[polluted]", "yes"], ["a]", "1"], ["[", "1"]) },
    { label: "names constructor, __proto__[polluted] on a refused form", expect: "refuse", form: withEntries(refused, ["constructor", "1"], ["__proto__[polluted]", "yes"]) },
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
  if (variant.json) cases.push(...jsonCases(base, ctx));
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
  const fields = Object.entries(variant.fields).filter(([field]) => field !== "intent" || firstOfModule.has(variant));
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
  if (outcome.bodySize > MAX_REPLY_BYTES) return `reply of ${outcome.bodySize > 10 * MAX_REPLY_BYTES ? "more than 640 KB" : `${outcome.bodySize} bytes`} (status ${outcome.status})${wrote}`;
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


afterAll(async () => {
  await dropSnapshot();
  const report = process.env.HOSTILE_INPUT_REPORT;
  if (report) fs.writeFileSync(report, JSON.stringify({ cases: Object.fromEntries(caseCounts), failures: allFailures }, null, 2));
});

describe("hostile input: the table covers every action", () => {
  it("every route module with an action has base inputs here, and every entry names a real action", () => {
    const withAction = Object.keys(routeModules).filter((key) => typeof routeModules[key].action === "function").sort();
    const covered = new Set(VARIANTS.map((variant) => variant.module));
    expect(withAction.filter((key) => !covered.has(key)), "actions without base inputs in hostile-input.test.ts").toEqual([]);
    expect([...covered].filter((key) => !withAction.includes(key)), "entries that are no action").toEqual([]);
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
      const module = moduleOf(variant.module);
      const failures: string[] = [];
      const record = (label: string, problem: string) => {
        failures.push(`${label}: ${problem}`);
        allFailures.push({ route, variant: variant.name, family, case: label, problem });
      };

      const settle = async () => {
        const after = await fingerprint();
        const changed = changedTables(baseline, after);
        if (changed.length) {
          await restoreTables(changed);
          if (restoreResetsDatabase()) {
            ctx = await buildContext();
            await variant.setup?.(ctx);
            await takeSnapshot();
          }
          baseline = await fingerprint();
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
          record("the valid base form", `${variant.alwaysRefuses ? "not refused" : "refused"}: ${outcome.summary}${changed.length ? `; wrote ${changed.join(", ")}` : ""}`);
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

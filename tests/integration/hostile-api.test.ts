/**
 * Hostile input to the JSON API: generated from the calls' own declarations (API_CALLS), so a
 * call added later is attacked without a line here. Every path parameter, query parameter and
 * body field of every call (the first element of each list, the first entry of each map) gets
 * each hostile value of tests/support/hostile-input.ts (NUL and other control characters, half
 * surrogate pairs, huge strings, bad UTF-8, every other JSON type, numbers out of range, nesting,
 * injections), from the account of a user allowed to make the call, on a base request that the
 * call accepts (so that each value reaches the handler), and:
 * - never answers 5xx, and answers only what the OpenAPI document lists for the call;
 * - a value with characters no text may hold is refused with 400 naming the field
 *   ("This text contains characters that are not allowed.");
 * - a value the field's schema refuses is refused (4xx; a 400 names the field);
 * - any other value is accepted or refused; an accepted text that the call stores is stored as
 *   sent, but for white space around it (passwords aside: only their hash is kept; and the fields
 *   a call ignores, such as a read answer's read-only parts posted back);
 * - a refusal writes nothing (row count and md5 of every application table), and a refusal's
 *   answer stays small.
 *
 * The base request of a call is its documented example (and the seeded records' ids for its path
 * parameters) unless BASES gives one.
 *
 * Run: npx vitest run --project integration tests/integration/hostile-api.test.ts
 * HOSTILE_INPUT_REPORT=/path/file.json also writes every failed case there;
 * HOSTILE_INPUT_TRACE=/path/file.txt appends every case with its time and answer.
 */
import fs from "node:fs";
import argon2 from "argon2";
import { and, eq, sql } from "drizzle-orm";
import type * as z from "zod";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ApiCall } from "~/api/call.server";
import { API_CALLS } from "~/api/calls/index.server";
import { db } from "~/db/client.server";
import { apiTokens, filingValues, partners, pdtValues, productVerifications, products, rateLimits, reports } from "~/db/schema";
import { issueApiToken } from "~/models/api-token.server";
import { createPasswordToken } from "~/models/password-token.server";
import { getOpenQuarter, openQuarterSpan } from "~/models/quarter.server";
import { findUserByEmail, setUserPassword } from "~/models/user.server";
import { formatDate } from "~/utils/dates";
import { CHARACTERS_NOT_ALLOWED, CONTROL_CHARACTERS } from "~/utils/text-rules";
import { callApi, expectDocumented, type ApiAnswer } from "../support/api";
import { resetDatabase } from "../support/database";
import { submissionOf } from "../support/submissions";
import {
  APPLICATION_TABLES,
  baseText,
  changedTables,
  dropSnapshot,
  fingerprint,
  HOSTILE_PARAMS,
  JSON_MUTATIONS,
  MAX_REPLY_BYTES,
  MEGABYTE_STRING,
  MISSING,
  mutatedBody,
  mutationsFor,
  QUERY_MUTATIONS,
  queryString,
  restoreChangedTables,
  restoreResetsDatabase,
  schemaFields,
  startNotingWrites,
  stopNotingWrites,
  takeSnapshot,
  takeWrittenTables,
  valueAt,
  type FieldPath,
  type Fingerprint,
} from "../support/hostile-input";

// ---------------------------------------------------------------- the seeded world

const ACCOUNTS = {
  ADMIN: "admin@example.org",
  /** Acme Generics: Sales Report saved, Filing Plans rejected, Development Timeline submitted in the open quarter. */
  PARTNER: "partner1@example.org",
  /** Cedar Life Sciences: no Development Timeline in the open quarter yet. */
  PARTNER3: "partner3@example.org",
} as const;
type Account = keyof typeof ACCOUNTS;

type Row = Record<string, unknown>;

interface World {
  tokens: Record<Account, string>;
  acme: number;
  /** A submission snapshot (of no rows) of each of Acme's reports: what a proof of submission (PDF) is read by. */
  submissions: Record<"pdt" | "filing" | "sales", number>;
  borealis: number;
  cedar: number;
  openQuarter: { id: number; name: string };
  /** Dolutegravir 50 mg. */
  product: { id: number; name: string; therapyArea: string };
  /** Acme's product name waiting for verification. */
  pendingVerificationId: number;
  resetToken: string;
  /** Acme's partner as GET answers it (what PUT takes back). */
  partner: Row;
  /** Dolutegravir 50 mg as GET answers it (what PUT takes back). */
  productRead: Row;
  /** Cedar's Development Timeline: its version and first row as a save sends it. */
  pdt: { version: number; row: Row };
  /** A stored row of Acme's Development Timeline of the open quarter (comments are on stored rows). */
  acmePdtRowId: number;
  /** A stored cell of Acme's Filing Plans of the open quarter. */
  acmeFilingCellId: number;
  /** Acme's Filing Plans: its version and one cell, in spec §7's map of country id to product id to status. */
  filing: { version: number; cells: Record<string, Record<string, string>> };
  /** Acme's Sales Report: its version and first saved row of each tab, as read. */
  sales: { version: number; api: Row; fdf: Row };
}

async function partnerId(email: string) {
  const [row] = await db.select({ id: partners.id }).from(partners).where(eq(partners.email, email));
  return row.id;
}

async function tokenFor(email: string) {
  const user = await findUserByEmail(email);
  const { token } = await issueApiToken(user!.id);
  return token;
}

/** The body of a GET answer: the world is read through the API. */
async function read(token: string, path: string) {
  const answer = await callApi("GET", path, { token });
  expect(answer.status, `GET ${path}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(200);
  return answer.body;
}

async function buildWorld(): Promise<World> {
  const user = (await findUserByEmail(ACCOUNTS.PARTNER))!;
  // Hashed again at the low cost of this file (see beforeAll), for the calls that check it.
  await setUserPassword(user.id, "partner-pass-1");
  const tokens = { ADMIN: await tokenFor(ACCOUNTS.ADMIN), PARTNER: await tokenFor(ACCOUNTS.PARTNER), PARTNER3: await tokenFor(ACCOUNTS.PARTNER3) };
  // A token notes its use once a minute: kept in the future, so that no refused case writes it.
  await db.execute(sql`update ${apiTokens} set last_used_at = now() + interval '1 day'`);
  const acme = await partnerId(ACCOUNTS.PARTNER);
  const open = await getOpenQuarter();
  const [product] = await db.select().from(products).where(eq(products.name, "Dolutegravir 50 mg"));
  const [verification] = await db
    .select({ id: productVerifications.id })
    .from(productVerifications)
    .where(and(eq(productVerifications.partnerId, acme), eq(productVerifications.status, "pending")));

  const pdt = await read(tokens.PARTNER3, "/template/pdt/");
  const [pdtRow] = pdt.rows;
  const quarterName = pdt.pdt_meta.quarter_name;
  const filing = await read(tokens.PARTNER, "/template/filing/");
  const [filingProduct] = filing.product_details;
  const salesApi = await read(tokens.PARTNER, "/template/sales/api");
  const salesFdf = await read(tokens.PARTNER, "/template/sales/fdf");
  const [acmePdtRow] = await db
    .select({ id: pdtValues.id })
    .from(pdtValues)
    .innerJoin(reports, eq(reports.id, pdtValues.reportId))
    .where(and(eq(reports.partnerId, acme), eq(reports.quarterId, open.id), eq(reports.type, "pdt")))
    .limit(1);
  const [acmeFilingCell] = await db
    .select({ id: filingValues.id })
    .from(filingValues)
    .innerJoin(reports, eq(reports.id, filingValues.reportId))
    .where(and(eq(reports.partnerId, acme), eq(reports.quarterId, open.id), eq(reports.type, "filing")))
    .limit(1);
  return {
    tokens,
    acme,
    submissions: {
      pdt: await submissionOf(acme, "pdt"),
      filing: await submissionOf(acme, "filing"),
      sales: await submissionOf(acme, "sales"),
    },
    borealis: await partnerId("partner2@example.org"),
    cedar: await partnerId(ACCOUNTS.PARTNER3),
    openQuarter: { id: open.id, name: open.name },
    product: { id: product.id, name: product.name, therapyArea: product.therapyArea },
    pendingVerificationId: verification.id,
    resetToken: await createPasswordToken(user.id, "reset"),
    partner: await read(tokens.ADMIN, `/admin/partner/${acme}/`),
    productRead: await read(tokens.ADMIN, `/admin/product/${product.id}/`),
    pdt: {
      version: pdt.pdt_meta.version,
      row: {
        product_id: pdtRow.product_id,
        stage_id: pdtRow.stage_id,
        product_status: pdtRow.product_status,
        notes: "Pilot batch planned.",
        [`start_date_${quarterName}`]: "3/1/2027",
        [`end_date_${quarterName}`]: "6/30/2027",
      },
    },
    acmePdtRowId: acmePdtRow.id,
    acmeFilingCellId: acmeFilingCell.id,
    filing: {
      version: filing.filing_meta.version,
      cells: { [filing.rows[0].country_id]: { [filingProduct.product_id]: filing.status_dropdown[filingProduct.product_type][0] } },
    },
    sales: { version: salesApi.sales_meta.version, api: salesApi.rows[0], fdf: salesFdf.rows[0] },
  };
}

// ---------------------------------------------------------------- base requests

interface Base {
  /** Who calls: by default a partner when partners may make the call, else the administrator; nobody for a public call. */
  account?: Account;
  /** Path parameters by name: by default the seeded records' (partnerId: Acme). */
  params?: Record<string, string | number>;
  query?: Record<string, string>;
  /** By default the call's documented example. */
  body?: unknown;
  /** Body fields that no schema names (keys a catchall takes), attacked beside the schema's. */
  catchallFields?: FieldPath[];
  /** Body fields the call ignores where no description of their schema says so (an accepted text there is not kept). */
  ignoredFields?: string[];
  /** Brings the database to the state the base request needs (undone when the call's cases are done). */
  setup?: (world: World) => Promise<void>;
}

/** Acme submits its report of the open quarter: what an administrator's decision needs. */
const submitted = (type: "filing" | "sales") => async (world: World) => {
  const version = (await read(world.tokens.PARTNER, type === "sales" ? "/template/sales/api" : `/template/${type}/`))[`${type}_meta`].version;
  const answer = await callApi("POST", `/template/${type}/submit/`, { token: world.tokens.PARTNER, body: { message: "Submitted for review.", version } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
};

/** A decision on a Sales Report also waits for its product names to be verified: Acme's pending name is rejected first. */
async function salesSubmitted(world: World) {
  const verification = { product_verification_id: world.pendingVerificationId, is_approved: false };
  const verified = await callApi("POST", `/template/product_verification/${world.acme}`, { token: world.tokens.ADMIN, body: verification });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  await submitted("sales")(world);
}

const decision = (world: World) => ({ account: "ADMIN" as const, body: { partner_id: world.acme, message: "Thank you.", is_approved: true } });
const consolidated = (world: World) => ({ body: { page_number: 1, quarter: world.openQuarter.name } });

/** A timeline save, its row's plan of the open quarter (`start_date_<quarter>`, `end_date_<quarter>`) attacked too; a row's product name is read only without product_id. */
const pdtSave = (world: World): Base => ({
  body: { version: world.pdt.version, rows: [world.pdt.row] },
  catchallFields: Object.keys(world.pdt.row)
    .filter((key) => /^(start|end)_date_/.test(key))
    .map((key) => ["rows", 0, key]),
  ignoredFields: ["rows.0.product"],
});

/** Spec §7's map, its country id and its cell (country id, product id) attacked too; the read answer's fields are ignored. */
const filingSave = (world: World): Base => ({
  body: { version: world.filing.version, ...world.filing.cells },
  catchallFields: Object.entries(world.filing.cells).flatMap(([country, cells]) => [[country], ...Object.keys(cells).map((product) => [country, product])]),
  ignoredFields: ["carried_over_from"],
});

/** Base requests by `METHOD path`, where the example and the default parameters are not one the call accepts. */
const BASES: Record<string, (world: World) => Base> = {
  "POST /password_reset/validate_token/": (world) => ({ body: { token: world.resetToken } }),
  "POST /password_reset/confirm/": (world) => ({ body: { token: world.resetToken, password: "new-pass-42" } }),
  "GET /admin/partner/{id}/": (world) => ({ params: { id: world.acme } }),
  "PUT /admin/partner/{id}/": (world) => ({ params: { id: world.acme }, body: world.partner }),
  "DELETE /admin/partner/{id}/": (world) => ({ params: { id: world.acme } }),
  "POST /admin/partner/": (world) => {
    const { contact_number, address, region, active_products } = world.partner;
    return {
      body: { company_name: "Delta Pharma Ltd", email: "contact@delta-pharma.example", contact_number, address, region, active_products, employee: [] },
    };
  },
  "GET /admin/product/{id}/": (world) => ({ params: { id: world.product.id } }),
  "PUT /admin/product/{id}/": (world) => ({ params: { id: world.product.id }, body: { ...world.productRead, product_name: `${world.product.name} tablets` } }),
  "DELETE /admin/product/{id}/": (world) => ({ params: { id: world.product.id } }),
  "POST /admin/product_detail/": (world) => ({ body: { product_name: world.product.name, partner_id: world.acme } }),
  "POST /template/product_verification/{partnerId}": (world) => ({
    body: {
      product_verification_id: world.pendingVerificationId,
      is_approved: true,
      product_name: "Efavirenz/Lamivudine/TDF 600/300/300 mg",
      therapy_area: "HIV",
      product_status: "FILED",
    },
  }),
  "POST /admin/cut_off_date/": () => ({ body: { cut_off_date: formatDate(openQuarterSpan().startDate) } }),
  "POST /template/reminder/": (world) => ({ body: { partner_id: world.acme, template_type: "sales" } }),
  "POST /template/bulkReminder/": (world) => ({ body: { partner_ids: [world.acme, world.borealis, world.cedar], template_type: "pdt" } }),

  "GET /template/pdt/": () => ({ account: "PARTNER3" }),
  "POST /template/pdt/": (world) => ({ account: "PARTNER3", ...pdtSave(world) }),
  "POST /template/sales/threads/": (world) => ({
    body: { action: "open", table: "FDF", row_id: world.sales.fdf.sales_report_id, column: "quantity", body: "Check the quantity." },
  }),
  "POST /template/sales/threads/{partnerId}/": (world) => ({
    account: "ADMIN",
    body: { action: "open", table: "FDF", row_id: world.sales.fdf.sales_report_id, column: "quantity", body: "Check the quantity." },
  }),
  "POST /template/pdt/threads/": (world) => ({
    body: { action: "open", table: "PDT", row_id: world.acmePdtRowId, column: "endDate", body: "Check the end date." },
  }),
  "POST /template/pdt/threads/{partnerId}/": (world) => ({
    account: "ADMIN",
    body: { action: "open", table: "PDT", row_id: world.acmePdtRowId, column: "endDate", body: "Check the end date." },
  }),
  "POST /template/filing/threads/": (world) => ({ body: { action: "open", table: "Filing", row_id: world.acmeFilingCellId, body: "Check the filing." } }),
  "POST /template/filing/threads/{partnerId}/": (world) => ({
    account: "ADMIN",
    body: { action: "open", table: "Filing", row_id: world.acmeFilingCellId, body: "Check the filing." },
  }),
  ...Object.fromEntries(
    (["pdt", "filing", "sales"] as const).flatMap((type) =>
      [`GET /template/${type}/changes/`, `GET /template/${type}/changes/{partnerId}/`].map((key) => [key, () => ({ query: { since: "submission" } })]),
    ),
  ),
  "GET /template/pdt/submissions/{snapshotId}/pdf": (world) => ({ params: { snapshotId: world.submissions.pdt } }),
  "GET /template/filing/submissions/{snapshotId}/pdf": (world) => ({ params: { snapshotId: world.submissions.filing } }),
  "GET /template/sales/submissions/{snapshotId}/pdf": (world) => ({ params: { snapshotId: world.submissions.sales } }),
  "POST /template/pdt/{partnerId}/": (world) => ({ params: { partnerId: world.cedar }, ...pdtSave(world) }),
  "POST /template/pdt/submit/": (world) => ({ account: "PARTNER3", body: { message: "Timeline updated for the quarter.", version: world.pdt.version } }),
  "POST /template/pdt/message/": decision,
  "POST /template/pdt/inbox/{who}": (world) => ({ body: { partner_id: world.acme } }),

  "POST /template/filing/": filingSave,
  "POST /template/filing/{partnerId}/": filingSave,
  "POST /template/filing/submit/": (world) => ({ body: { message: "Filing plans updated.", version: world.filing.version } }),
  "POST /template/filing/message/": (world) => ({ ...decision(world), setup: submitted("filing") }),
  "POST /template/filing/inbox/{who}": (world) => ({ body: { partner_id: world.acme } }),

  // The partner's save attacks the API tab's fields, the administrator's the FDF tab's.
  "GET /template/sales/{x}": () => ({ params: { x: "api" } }),
  "GET /template/sales/{x}/{y}": (world) => ({ params: { x: "fdf", y: world.acme } }),
  "POST /template/sales/{x}": (world) => ({
    params: { x: "api" },
    body: { partner_id: world.acme, version: world.sales.version, sales_report_id: [], rows: [world.sales.api] },
  }),
  "POST /template/sales/{x}/{y}": (world) => ({
    params: { x: "fdf", y: world.acme },
    body: { partner_id: world.acme, version: world.sales.version, sales_report_id: [], rows: [world.sales.fdf] },
  }),
  "POST /template/sales/submit/": (world) => ({ body: { message: "Q4 sales as agreed.", version: world.sales.version } }),
  "POST /template/sales/message/": (world) => ({ ...decision(world), setup: salesSubmitted }),
  "POST /template/sales/inbox/{who}": (world) => ({ body: { partner_id: world.acme } }),

  "POST /report/pdt/": consolidated,
  "POST /report/pdt/download/": consolidated,
  "POST /report/filing/": (world) => ({ body: { ...consolidated(world).body, product_status_dict: { [world.product.id]: "Filed" } } }),
  "POST /report/filing/download/": (world) => ({ body: { ...consolidated(world).body, product_status_dict: { [world.product.id]: "Filed" } } }),
  // The FDF table: the API table refuses the FDF filters before they reach the query.
  "POST /report/sales/{x}": (world) => ({ params: { x: "fdf" }, body: { page_number: 1, quarter_id: world.openQuarter.id, purchaser: "a", strength: "mg" } }),
  "POST /report/sales/download/{x}": (world) => ({ params: { x: "fdf" }, body: { quarter_id: world.openQuarter.id, purchaser: "a", strength: "mg" } }),
  "GET /admin/dashboard/sales/": () => ({ query: { map_with: "product", for: "company" } }),
};

const callKey = (call: ApiCall) => `${call.method} ${call.path}`;

function accountOf(call: ApiCall, base: Base): Account | null {
  if (call.access === "public") return null;
  return base.account ?? (call.access.includes("PARTNER") ? "PARTNER" : "ADMIN");
}

/** The base request of a call: its BASES entry over its example and the default path parameters. */
function baseOf(call: ApiCall, world: World) {
  const base = BASES[callKey(call)]?.(world) ?? {};
  const account = accountOf(call, base);
  const defaults: Record<string, string | number> = { partnerId: world.acme, who: account === "ADMIN" ? "admin" : "partner" };
  const names = [...call.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  const params = Object.fromEntries(names.map((name) => [name, String(base.params?.[name] ?? defaults[name] ?? "")]));
  const body = call.body ? (base.body ?? call.example?.body ?? {}) : undefined;
  return {
    account,
    params,
    query: base.query ?? {},
    body,
    catchallFields: base.catchallFields ?? [],
    ignoredFields: base.ignoredFields ?? [],
    setup: base.setup,
  };
}

// ---------------------------------------------------------------- cases

/**
 * What a case must get: "forbidden": 400 naming the field with CHARACTERS_NOT_ALLOWED;
 * "refuse": a 4xx (a 400 naming the field); "either": accepted or refused.
 */
type Expectation = "forbidden" | "refuse" | "either";

interface ApiCase {
  label: string;
  /** The field as the error answer names it ("" when the case is about the whole request). */
  field: string;
  expect: Expectation;
  /** Path segments (URL-encoded) by parameter name; the base's when left out. */
  segments?: Record<string, string>;
  /** The encoded query string; the base's when left out. */
  query?: string;
  /** The body's bytes (built when sent: a call's cases hold megabytes); the base's when left out. */
  body?: () => string | Uint8Array;
  contentType?: string;
  anonymous?: boolean;
  /** Other fields a refusal may name: those the call's schema names (a password and its confirmation). */
  named?: string[];
  /** A text the call may accept: when it does and writes, the text must be stored as sent. */
  text?: string;
}

type CallBase = ReturnType<typeof baseOf>;

/** A path segment as the dispatcher reads it (one that is not valid percent-encoding is read as it is). */
function segmentValue(segment: string) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Only a password's hash is kept: a password is never stored as sent. */
const isSecret = (path: FieldPath) => path.some((segment) => /password/i.test(String(segment)));

const IGNORED = /ignored|read-only/i;

/** The schema that a wrapper (optional, nullable, default, pipe...) holds; undefined for any other. */
function unwrapped(schema: z.ZodType): z.ZodType | undefined {
  const def = schema._zod.def as { type: string; innerType?: z.ZodType; in?: z.ZodType };
  return def.innerType ?? (def.type === "pipe" ? def.in : undefined);
}

/**
 * Whether the call's documentation says that the field at `path`, or a field holding it, is
 * ignored (a read answer's read-only part, posted back as read): its text is not kept.
 */
function documentedAsIgnored(schema: z.ZodType, path: FieldPath): boolean {
  let field: z.ZodType | undefined = schema;
  for (const segment of path) {
    let structure: z.ZodType = field!;
    for (let inner = unwrapped(structure); inner; inner = unwrapped(structure)) structure = inner;
    const def = structure._zod.def as { type: string; shape?: Record<string, z.ZodType>; catchall?: z.ZodType; element?: z.ZodType; valueType?: z.ZodType };
    field =
      def.type === "object" ? (def.shape?.[segment] ?? def.catchall) : def.type === "array" ? def.element : def.type === "record" ? def.valueType : undefined;
    // The description may sit on the field or on any of its wrappers.
    for (let wrapper = field; wrapper; wrapper = unwrapped(wrapper)) if (IGNORED.test(wrapper.description ?? "")) return true;
    if (!field) return false;
  }
  return false;
}

/**
 * What a case must get, from what the call's own schema makes of the request's part (`where`:
 * path, query or body) holding the mutated field at `path`: refused, with the fields its errors
 * name; or accepted, with the text the field then holds (when it is not the base's, `baseOutput`
 * being what the schema made of the base).
 */
function expectation(
  forbidden: boolean,
  schema: z.ZodType,
  part: unknown,
  baseOutput: unknown,
  path: FieldPath,
  where: string,
  ignored = false,
): Pick<ApiCase, "expect" | "named" | "text"> {
  if (forbidden) return { expect: "forbidden" };
  const result = schema.safeParse(part);
  const prefix = where === "body" ? [] : [where];
  if (!result.success) return { expect: "refuse", named: result.error.issues.map((issue) => [...prefix, ...issue.path].join(".")) };
  const text = valueAt(result.data, path);
  const isNew = typeof text === "string" && text !== valueAt(baseOutput, path) && !isSecret(path) && !ignored && !documentedAsIgnored(schema, path);
  return { expect: "either", text: isNew ? text : undefined };
}

const PATH_SEGMENTS: [label: string, segment: string][] = [
  ...HOSTILE_PARAMS.map(([label, value]): [string, string] => [label, encodeURIComponent(value)]),
  ["%01", "%01"],
  ["%ED%A0%80 (encoded lone surrogate)", "%ED%A0%80"],
  ["%ZZ (not percent-encoding)", "%ZZ"],
  ["%E0%A4%A (a cut escape)", "%E0%A4%A"],
  ["%2F (an encoded slash)", "..%2F..%2Fadmin"],
  ["10,000 characters", "1".repeat(10_000)],
];

function paramCases(call: ApiCall, base: CallBase): ApiCase[] {
  if (!call.params) return [];
  const baseOutput = call.params.parse(base.params);
  return schemaFields(call.params, base.params).flatMap((path) => {
    const name = String(path[0]);
    return PATH_SEGMENTS.map(([label, segment]): ApiCase => {
      const value = segmentValue(segment);
      const expected = expectation(CONTROL_CHARACTERS.test(value), call.params!, { ...base.params, [name]: value }, baseOutput, path, "path");
      return { label: `path ${name}=${label}`, field: `path.${name}`, ...expected, segments: { [name]: segment } };
    });
  });
}

function queryCases(call: ApiCall, base: CallBase): ApiCase[] {
  if (!call.query) return [];
  const entries = Object.entries(base.query).map(([name, value]) => ({ name, value }));
  const baseOutput = call.query.parse(base.query);
  const cases: ApiCase[] = [];
  for (const path of schemaFields(call.query, base.query)) {
    const name = String(path[0]);
    const field = `query.${name}`;
    const baseValue = base.query[name] ?? "";
    const others = entries.filter((item) => item.name !== name);
    for (const mutation of mutationsFor(QUERY_MUTATIONS, base.query[name])) {
      const value = mutation.value?.(baseValue);
      const mutated =
        value === MISSING ? others : [...others, mutation.raw ? { name, value: "", raw: mutation.raw(baseValue) } : { name, value: String(value) }];
      const query = queryString(mutated);
      const expected = expectation(Boolean(mutation.forbidden), call.query, Object.fromEntries(new URLSearchParams(query)), baseOutput, path, "query");
      cases.push({ label: `${field}: ${mutation.name}`, field, ...expected, query });
    }
    cases.push(
      { label: `${field}: as ${name}[]`, field, expect: "refuse", query: queryString([...others, { name: `${name}[]`, value: baseValue }]) },
      { label: `${field}: as ${name}[a][b]`, field, expect: "refuse", query: queryString([...others, { name: `${name}[a][b]`, value: baseValue }]) },
      {
        label: `${field}: NUL, then the value again`,
        field,
        expect: "forbidden",
        query: queryString([...others, { name, value: "a\u0000b" }, { name, value: baseValue }]),
      },
      {
        label: `${field}: the value, then NUL`,
        field,
        expect: "forbidden",
        query: queryString([...others, { name, value: baseValue }, { name, value: "a\u0000b" }]),
      },
    );
  }
  cases.push(
    { label: "query: an unknown parameter", field: "query.x", expect: "refuse", query: queryString([...entries, { name: "x", value: "1" }]) },
    {
      label: "query: an unknown parameter named with NUL",
      field: "query.x\u0000",
      expect: "refuse",
      query: queryString([...entries, { name: "x\u0000", value: "1" }]),
    },
  );
  return cases;
}

function bodyCases(call: ApiCall, base: CallBase): ApiCase[] {
  if (!call.body) return [];
  const cases: ApiCase[] = [];
  const baseOutput = call.body.parse(base.body);
  for (const path of [...schemaFields(call.body, base.body), ...base.catchallFields]) {
    const field = path.join(".");
    const baseValue = baseText(valueAt(base.body, path));
    for (const mutation of mutationsFor(JSON_MUTATIONS, valueAt(base.body, path))) {
      const mutated = mutatedBody(base.body, path, mutation, baseValue);
      const expected = expectation(Boolean(mutation.forbidden), call.body, mutated.value, baseOutput, path, "body", base.ignoredFields.includes(field));
      cases.push({ label: `${field}: ${mutation.name}`, field, ...expected, body: mutated.bytes });
    }
  }
  const json = JSON.stringify(base.body);
  const withField = (raw: string) => () => (json === "{}" ? `{${raw}}` : `{${raw},${json.slice(1)}`);
  const text = (value: string) => () => value;
  cases.push(
    { label: "body: an unknown field", field: "x", expect: "refuse", body: withField('"x":1') },
    { label: "body: a field named with NUL", field: "x\u0000", expect: "refuse", body: withField('"x\\u0000":1') },
    { label: "body: a __proto__ field", field: "__proto__", expect: "refuse", body: withField('"__proto__":{"polluted":"yes"}') },
    { label: "body: null", field: "", expect: "refuse", body: text("null") },
    { label: "body: a list", field: "", expect: "refuse", body: text(`[${json}]`) },
    { label: "body: a string", field: "", expect: "refuse", body: text(JSON.stringify(json)) },
    { label: "body: invalid JSON", field: "", expect: "refuse", body: text(json.slice(0, -1)) },
    { label: "body: empty", field: "", expect: "refuse", body: text("") },
    { label: "body: 100,000 levels of nesting", field: "", expect: "refuse", body: () => `${"[".repeat(100_000)}${"]".repeat(100_000)}` },
    { label: "body: a NUL 100,000 levels deep", field: "", expect: "refuse", body: withField(`"x":${"[".repeat(100_000)}"\\u0000"${"]".repeat(100_000)}`) },
    {
      label: "body: 10,000 unknown fields",
      field: "",
      expect: "refuse",
      body: withField(Array.from({ length: 10_000 }, (_, index) => `"x${index}":1`).join(",")),
    },
    { label: "body: a field named with 100,000 characters", field: "", expect: "refuse", body: withField(`"${"x".repeat(100_000)}":1`) },
    { label: "body: labelled text/plain", field: "", expect: "refuse", body: text(json), contentType: "text/plain" },
  );
  if ((call.maxBodyBytes ?? 64 * 1024) <= MEGABYTE_STRING.length) {
    cases.push({
      label: "body: a megabyte in an unknown field",
      field: "",
      expect: "refuse",
      body: withField(JSON.stringify({ x: MEGABYTE_STRING }).slice(1, -1)),
    });
  }
  return cases;
}

function casesOf(call: ApiCall, base: CallBase): ApiCase[] {
  const cases = [...paramCases(call, base), ...queryCases(call, base), ...bodyCases(call, base)];
  if (call.access !== "public") cases.push({ label: "the base request without a token", field: "", expect: "refuse", anonymous: true });
  return cases;
}

// ---------------------------------------------------------------- running and judging

async function send(call: ApiCall, world: World, base: CallBase, hostile: ApiCase): Promise<ApiAnswer> {
  const segments = { ...Object.fromEntries(Object.entries(base.params).map(([name, value]) => [name, encodeURIComponent(value)])), ...hostile.segments };
  const query = hostile.query ?? queryString(Object.entries(base.query).map(([name, value]) => ({ name, value })));
  const path = call.path.replace(/\{(\w+)\}/g, (_, name: string) => segments[name]) + (query ? `?${query}` : "");
  const token = base.account && !hostile.anonymous ? world.tokens[base.account] : undefined;
  const body = call.body ? (hostile.body?.() ?? JSON.stringify(base.body)) : undefined;
  return callApi(call.method, path, {
    token,
    rawBody: body as BodyInit | undefined,
    headers: body === undefined ? {} : { "Content-Type": hostile.contentType ?? "application/json" },
  });
}

const oneLine = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max)}…` : text).replace(/\s+/g, " ");
const summary = (answer: ApiAnswer) =>
  `${answer.status} ${answer.body instanceof Uint8Array ? `(${answer.body.length} bytes)` : oneLine(JSON.stringify(answer.body))}`;
const isPolluted = () => Object.prototype.hasOwnProperty.call(Object.prototype, "polluted");

/** Whether an error answer names one of the fields (or a part or a whole of one). */
function names(answer: ApiAnswer, fields: string[]) {
  const keys = Object.keys(answer.body?.errors ?? {});
  return fields.some(
    (field) => !field || keys.some((key) => key === field || key.startsWith(`${field}.`) || key.startsWith(`${field}[`) || field.startsWith(`${key}.`)),
  );
}

function undocumented(call: ApiCall, answer: ApiAnswer): string | null {
  try {
    expectDocumented(call.method, call.path, answer);
    return null;
  } catch (error) {
    return oneLine((error as Error).message, 300);
  }
}

/** Whether `text` is held by a row of one of the tables. */
async function stored(text: string, tables: string[]) {
  for (const table of tables) {
    const found = await db.execute(
      sql`select 1 from ${sql.identifier(table)} x where exists (select 1 from jsonb_each_text(to_jsonb(x)) cell where strpos(cell.value, ${text}) > 0) limit 1`,
    );
    if (((found as { rows?: unknown[] }).rows ?? (found as unknown as unknown[])).length) return true;
  }
  return false;
}

/** `tables`: the tables the case changed. */
function judge(call: ApiCall, hostile: ApiCase, answer: ApiAnswer, tables: string[], storedAsSent: boolean | null): string | null {
  const wrote = tables.length ? `; wrote ${tables.join(", ")}` : "";
  if (answer.status >= 500) return `answered ${summary(answer)}${wrote}`;
  const documentation = undocumented(call, answer);
  if (documentation) return `not as documented (${documentation}): ${summary(answer)}`;
  const refused = answer.status >= 400 && answer.status < 500;
  if (refused) {
    if (tables.length) return `refused (${summary(answer)}) but wrote ${tables.join(", ")}`;
    const size = JSON.stringify(answer.body).length;
    if (size > MAX_REPLY_BYTES) return `a refusal of ${size} bytes (status ${answer.status})`;
  } else if (answer.status < 200 || answer.status >= 300) return `answered ${summary(answer)}${wrote}`;
  if (hostile.expect === "forbidden") {
    const messages: string[] = answer.body?.errors?.[hostile.field] ?? [];
    if (answer.status !== 400 || !messages.includes(CHARACTERS_NOT_ALLOWED))
      return `not refused as "${CHARACTERS_NOT_ALLOWED}" on ${JSON.stringify(hostile.field)}: ${summary(answer)}${wrote}`;
  }
  if (hostile.expect === "refuse") {
    if (!refused) return `accepted: ${summary(answer)}${wrote}`;
    if (answer.status === 400 && !names(answer, [hostile.field, ...(hostile.named ?? [])]))
      return `refused without naming ${JSON.stringify(hostile.field)}: ${summary(answer)}`;
  }
  if (storedAsSent === false) return `accepted and wrote ${tables.join(", ")}, but the text is not stored as sent: ${summary(answer)}`;
  return null;
}

// ---------------------------------------------------------------- the database between cases

// One snapshot for the file: the seed with the world's tokens. Each test starts from it, each
// accepted case is undone from it (the tables it wrote to), and a call's setup is written over it
// and undone when the call is done.
let world: World;
let baseline: Fingerprint;

async function startFromSeed() {
  await resetDatabase();
  world = await buildWorld();
  await takeSnapshot();
  baseline = await fingerprint();
  await takeWrittenTables();
}

/** Puts tables back as they were at the snapshot. */
async function restore(tables: string[]) {
  if (!tables.length) return;
  await restoreChangedTables(tables);
  // Without a superuser the whole seed is put back: the world's tokens are made again.
  if (restoreResetsDatabase()) await startFromSeed();
  await takeWrittenTables();
}

/** Runs a call's cases; its failures, each as "METHOD path: case: problem". */
async function attack(call: ApiCall): Promise<string[]> {
  const base = baseOf(call, world);
  const failures: string[] = [];
  const fail = (label: string, problem: string) => failures.push(`${callKey(call)}: ${label}: ${problem}`);
  let callBaseline = baseline;
  let setupTables: string[] = [];
  /** Runs the call's setup, if any, over the snapshot: the baseline of its cases. */
  const setUp = async () => {
    callBaseline = baseline;
    if (!base.setup) return;
    await base.setup(world);
    setupTables = await takeWrittenTables();
    callBaseline = new Map([...baseline, ...(await fingerprint(setupTables))]);
  };
  /** Undoes a case's writes (and the setup with them, made again). */
  const undo = async (tables: string[]) => {
    await restore([...new Set([...tables, ...setupTables])]);
    await setUp();
  };
  /** Sends a case; one that meets the sign-in throttle is sent again without it, to reach the code under test. */
  const run = async (hostile: ApiCase) => {
    const answer = await send(call, world, base, hostile);
    if (answer.status !== 429) return answer;
    await db.delete(rateLimits);
    return send(call, world, base, hostile);
  };

  await setUp();
  // The base request is accepted: else the refusals of its mutations would prove nothing.
  const accepted = await run({ label: "base", field: "", expect: "either" });
  if (accepted.status !== 200) fail("the base request", `${summary(accepted)} (give one in BASES)`);
  const written = await takeWrittenTables();
  if (written.length) await undo(changedTables(callBaseline, await fingerprint(written)));

  const cases = casesOf(call, base);
  caseCounts.set(callKey(call), cases.length);
  for (const hostile of cases) {
    const started = Date.now();
    const answer = await run(hostile);
    const written = await takeWrittenTables();
    // What a refusal wrote must have changed nothing; what an accepted case changed is undone.
    const changed = written.length ? changedTables(callBaseline, await fingerprint(written)) : [];
    // Surrounding white space may be trimmed: what is between must be kept.
    const storedAsSent = answer.status < 300 && hostile.text !== undefined && changed.length ? await stored(hostile.text.trim(), changed) : null;
    if (changed.length) await undo(changed);
    if (process.env.HOSTILE_INPUT_TRACE) {
      fs.appendFileSync(process.env.HOSTILE_INPUT_TRACE, `${Date.now() - started}ms ${callKey(call)} ${hostile.label} → ${oneLine(summary(answer), 120)}\n`);
    }
    const problem = judge(call, hostile, answer, changed, storedAsSent);
    if (problem) fail(hostile.label, problem);
    if (isPolluted()) {
      fail(hostile.label, "Object.prototype.polluted was set");
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
  }
  await restore(setupTables);
  return failures;
}

const caseCounts = new Map<string, number>();
const allFailures: string[] = [];

const argon2Hash = argon2.hash;

beforeAll(async () => {
  // Passwords are hashed at argon2's lowest cost here: hundreds of cases sign in or change a
  // password, and what they check is the input around the hash (each check costs 50 to 300 ms).
  vi.spyOn(argon2, "hash").mockImplementation(((password: string, options?: object) =>
    argon2Hash(password, { ...options, memoryCost: 1024, timeCost: 1 })) as typeof argon2.hash);
  await startNotingWrites();
  await startFromSeed();
});

afterAll(async () => {
  vi.restoreAllMocks();
  await stopNotingWrites();
  await dropSnapshot();
  const report = process.env.HOSTILE_INPUT_REPORT;
  if (report) fs.writeFileSync(report, JSON.stringify({ cases: Object.fromEntries(caseCounts), failures: allFailures }, null, 2));
});

describe("hostile API input: the bases", () => {
  it("every BASES entry is a call of API_CALLS", () => {
    const keys = new Set(API_CALLS.map(callKey));
    expect(Object.keys(BASES).filter((key) => !keys.has(key))).toEqual([]);
  });
});

// A test per tag of the documentation: each starts from the snapshot (the database is reset before each test).
describe.each([...new Set(API_CALLS.map((call) => call.tag))])("%s", (tag) => {
  it("every call: hostile path, query and body values", async () => {
    await restore(APPLICATION_TABLES);
    const failures: string[] = [];
    for (const call of API_CALLS.filter((candidate) => candidate.tag === tag)) failures.push(...(await attack(call)));
    allFailures.push(...failures);
    expect(failures, `${tag}: ${failures.length} cases failed`).toEqual([]);
  }, 600_000);
});

describe("hostile API input: the count", () => {
  it("every call with a path parameter, a query or a body met hostile values", () => {
    const total = [...caseCounts.values()].reduce((sum, count) => sum + count, 0);
    console.log(`hostile API input: ${total} cases over ${caseCounts.size} calls`);
    const withInput = API_CALLS.filter((call) => call.params || call.query || call.body).map(callKey);
    expect(withInput.filter((key) => !caseCounts.get(key))).toEqual([]);
    expect(total).toBeGreaterThan(withInput.length * 20);
  });
});

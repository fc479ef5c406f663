/**
 * The access matrix: every route of the app (its loader, and its action when it has one) and
 * every call of the JSON API, asked by five actors, with the answer each must get:
 *
 * - anonymous: no session (pages: to /login; API: 401),
 * - partner: Acme Generics Ltd on its own data,
 * - otherPartner: Acme reaching for Borealis Pharma's data: Borealis's ids in the path, the query,
 *   hidden fields, posted row ids and JSON bodies,
 * - staff: reads what the administrators read, changes nothing,
 * - admin.
 *
 * A read (whoever asks) and a refused change may write no row at all (row triggers note the tables
 * written; sessions and sign-in counters aside). A route file or an API call without an entry here
 * fails the test, and so does an entry that names a route or a call that no longer exists: a new
 * route cannot slip in unchecked.
 *
 * Every test starts from the demo seed: a route or call that may change the database has a test of
 * its own, those that only read share one per area. Each case is reported on its own.
 */
import { and, asc, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_CALLS } from "~/api/calls/index.server";
import { SESSION_TIMEOUT } from "~/api/handle.server";
import { db } from "~/db/client.server";
import { employees, filingValues, partners, productVerifications, products, quarters, reports, salesRows, users } from "~/db/schema";
import { issueApiToken } from "~/models/api-token.server";
import { getPartnerLicence } from "~/licences/licences.server";
import { loadFilingPlan } from "~/reports/filing/model.server";
import { getPartnerFormValues } from "~/models/partner.server";
import { submissionOf } from "../support/submissions";
import { createPasswordToken } from "~/models/password-token.server";
import { loadPdtReport } from "~/reports/pdt/model.server";
import { getOpenQuarter, isHistoric, listQuartersUpTo, openQuarterRef } from "~/models/quarter.server";
import { partnerGuidance } from "~/models/report-overview.server";
import { ROWS_NOT_IN_REPORT } from "~/reports/frame/screen.server";
import { loadSalesReport } from "~/reports/sales/model.server";
import { getCutOffDate } from "~/models/settings.server";
import { columnsFor } from "~/reports/sales/columns";
import { ACCESS_DENIED, NOT_AUTHORIZED } from "~/utils/messages";
import { WORKFLOW_REFUSALS } from "~/reports/frame/workflow";
import { THREAD_MESSAGES } from "~/reports/frame/threads";
import {
  appRoutes,
  paramsFor,
  runHandler,
  startNotingWrites,
  stopNotingWrites,
  takeWrittenTables,
  type AppRoute,
  type PageAnswer,
  type RouteHandler,
} from "../support/access-matrix";
import { callApi, expectDocumented, type ApiAnswer } from "../support/api";
import { sessionCookieFor, testContext } from "../support/remix";

// ---------------------------------------------------------------- actors and the seeded world

const ACTORS = ["anonymous", "partner", "otherPartner", "staff", "admin"] as const;
type Actor = (typeof ACTORS)[number];

const ACCOUNTS = {
  admin: { email: "admin@example.org", password: "admin-pass-1" },
  staff: { email: "staff@example.org", password: "staff-pass-1" },
  acme: { email: "partner1@example.org", password: "partner-pass-1" },
  borealis: { email: "partner2@example.org", password: "partner-pass-2" },
  cedar: { email: "partner3@example.org", password: "partner-pass-3" },
} as const;

/** The account each actor signs in with (the other partner is Acme too: it reaches, it is not Borealis). */
const ACCOUNT_OF: Record<Exclude<Actor, "anonymous">, keyof typeof ACCOUNTS> = { partner: "acme", otherPartner: "acme", staff: "staff", admin: "admin" };

type Cells = Record<string, string | number>;

interface PartnerData {
  id: number;
  name: string;
  /** The open quarter's Sales Report: its version and a saved API row (grid cells, with its id; `answerRow`: as the JSON API reads it). */
  sales: { version: number; apiRow: Cells; answerRow: Record<string, unknown> };
  /** The open quarter's Development Timeline: its version and its first row. */
  pdt: { version: number; row: { productId: number; stageId: number; notes: string; startDate: string; endDate: string }; rowId: number };
  /** The open quarter's Filing Plans: its version, a country of the grid, the partner's first product and a stored cell's id (comments are on it). */
  filing: { version: number; countryId: number; productId: number; cellId: number };
}

interface Ctx {
  acme: PartnerData;
  borealis: PartnerData;
  cedarId: number;
  userIds: Record<keyof typeof ACCOUNTS, number>;
  open: { id: number; name: string };
  /** The quarter before the open one: closed. */
  historic: { id: number; name: string };
  /** A product of the catalogue (Dolutegravir 50 mg). */
  product: { id: number; name: string; therapyArea: string };
  /** The product verification that Acme's draft waits for. */
  acmeVerificationId: number;
  /** Borealis's contact people as seeded: an edit of Acme must not reach them. */
  borealisPeople: (typeof employees.$inferSelect)[];
  /** Borealis's saved API row as seeded: no post of Acme's may change it. */
  borealisSalesRow: typeof salesRows.$inferSelect;
  /** The seeded cut-off date as the settings form takes it (DD-MM-YYYY). */
  cutOffDate: string;
}

/** A stored cell of the partner's latest Filing Plans (the open quarter's when saved; Borealis's is an earlier quarter's). */
async function latestFilingCellId(partnerId: number) {
  const [cell] = await db
    .select({ id: filingValues.id })
    .from(filingValues)
    .innerJoin(reports, eq(reports.id, filingValues.reportId))
    .innerJoin(quarters, eq(quarters.id, reports.quarterId))
    .where(and(eq(reports.partnerId, partnerId), eq(reports.type, "filing")))
    .orderBy(desc(quarters.endDate), asc(filingValues.id))
    .limit(1);
  return cell.id;
}

/** A partner's open-quarter reports, read as the administrator sees them. */
async function partnerData(email: string, open: string, adminId: number, adminToken: string): Promise<PartnerData> {
  const [partner] = await db.select().from(partners).where(eq(partners.email, email));
  const viewer = { id: adminId, role: "ADMIN" as const, partnerId: null };
  const [sales, salesAnswer, pdt, filing] = await Promise.all([
    loadSalesReport({ viewer, partnerId: partner.id, quarterName: open }),
    readAs(adminToken, `/template/sales/api/${partner.id}`),
    loadPdtReport({ viewer, partnerId: partner.id, quarterName: open }),
    loadFilingPlan({ viewer, partnerId: partner.id, quarterName: open }),
  ]);
  const pdtRow = pdt.rows[0];
  return {
    id: partner.id,
    name: partner.companyName,
    sales: { version: sales.report.version, apiRow: sales.rows.API[0] as unknown as Cells, answerRow: salesAnswer.rows[0] },
    pdt: {
      version: pdt.report.version,
      row: { productId: pdtRow.productId, stageId: pdtRow.stageId, notes: pdtRow.notes, startDate: pdtRow.startDate ?? "", endDate: pdtRow.endDate ?? "" },
      rowId: pdtRow.id ?? Number.NaN,
    },
    filing: {
      version: filing.report.version,
      countryId: filing.rows[0].countryId,
      productId: filing.products[0].id,
      cellId: await latestFilingCellId(partner.id),
    },
  };
}

/** What a GET of the JSON API answers (what the matching save takes back). */
async function readAs(token: string, path: string) {
  const answer = await callApi("GET", path, { token });
  expect(answer.status, `GET ${path}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(200);
  return answer.body;
}

/** The same, read by the administrator. */
const readAsAdmin = async (ctx: Ctx, path: string) => readAs((await issueApiToken(ctx.userIds.admin)).token, path);

const peopleOf = (partnerId: number) => db.select().from(employees).where(eq(employees.partnerId, partnerId)).orderBy(employees.id);

let loaded: Ctx | undefined;
/** The seeded world's ids (the same after every reset: the seed is copied back with its sequences). */
async function context(): Promise<Ctx> {
  if (loaded) return loaded;
  const open = await getOpenQuarter();
  const quarters = await listQuartersUpTo(openQuarterRef());
  const historic = quarters.filter((quarter) => isHistoric(quarter)).at(-1)!;
  const userRows = await db.select({ id: users.id, email: users.email }).from(users);
  const userIds = Object.fromEntries(
    Object.entries(ACCOUNTS).map(([key, account]) => [key, userRows.find((row) => row.email === account.email)!.id]),
  ) as Ctx["userIds"];
  const { token } = await issueApiToken(userIds.admin);
  const [acme, borealis] = await Promise.all([
    partnerData(ACCOUNTS.acme.email, open.name, userIds.admin, token),
    partnerData(ACCOUNTS.borealis.email, open.name, userIds.admin, token),
  ]);
  const [cedar] = await db.select().from(partners).where(eq(partners.email, ACCOUNTS.cedar.email));
  const [product] = await db.select().from(products).where(eq(products.name, "Dolutegravir 50 mg"));
  const [verification] = await db
    .select()
    .from(productVerifications)
    .where(and(eq(productVerifications.partnerId, acme.id), eq(productVerifications.status, "pending")));
  const cutOff = (await getCutOffDate())!;
  loaded = {
    acme,
    borealis,
    cedarId: cedar.id,
    userIds,
    open: { id: open.id, name: open.name },
    historic: { id: historic.id, name: historic.name },
    product: { id: product.id, name: product.name, therapyArea: product.therapyArea },
    acmeVerificationId: verification.id,
    borealisPeople: await peopleOf(borealis.id),
    borealisSalesRow: (
      await db
        .select()
        .from(salesRows)
        .where(eq(salesRows.id, Number(borealis.sales.apiRow.id)))
    )[0],
    cutOffDate: cutOff.split("-").reverse().join("-"),
  };
  return loaded;
}

// ---------------------------------------------------------------- the matrix's vocabulary

/** A request: its path and query, and a body (a urlencoded form, or JSON). */
interface Probe {
  path: string;
  form?: Record<string, string> | [string, string][];
  json?: unknown;
  /** API only: the query string. */
  query?: Record<string, string>;
}

/** Whose data a probe names: Acme's, or (for the other partner) Borealis's. */
interface Target {
  actor: Actor;
  partner: PartnerData;
}
type ProbeFn = (ctx: Ctx, target: Target) => Probe | Promise<Probe>;

interface Expectation {
  status: number;
  /** A redirect's Location. */
  location?: string;
  /** The refusal's wording: a page's `message`, the API's `detail`. */
  message?: string;
  /** No row may be written (always checked for a refused mutation). */
  unchanged?: boolean;
  /** A refusal that is no 4xx (the visitor sent to /login). */
  refusal?: boolean;
  /** The request ends the caller's own session (it deletes its row); the next request signs in again. */
  endsSession?: boolean;
  /** What else the answer must show (that it is the caller's own data, say). */
  check?: (answer: PageAnswer | ApiAnswer, ctx: Ctx) => void | Promise<void>;
}

/** One request of an actor: the method's probe unless it brings its own. */
interface Case extends Expectation {
  label?: string;
  probe?: ProbeFn;
}

type Cases = Case | Case[];

/** A loader, an action or an API call: its usual request, and what each actor gets. */
type MethodEntry = { probe: ProbeFn } & Record<Actor, Cases>;

interface RouteEntry {
  loader?: MethodEntry;
  action?: MethodEntry;
}

const LOGIN: Case = { status: 302, location: "/login", refusal: true };
const FORBIDDEN: Case = { status: 403, message: NOT_AUTHORIZED };
/** A signed-in visitor on a page for signed-out visitors: signed out, and told 'Access Denied!'. */
const DENIED: Case = { status: 403, message: ACCESS_DENIED, endsSession: true, check: sessionEnded };
const OK: Case = { status: 200 };
/** The same answer for every actor (a public page, a path that opens nothing). */
const sameForAll = (probe: ProbeFn, answer: Case): MethodEntry => ({
  probe,
  anonymous: answer,
  partner: answer,
  otherPartner: answer,
  staff: answer,
  admin: answer,
});
const ok = (status = 200, more: Omit<Case, "status"> = {}): Case => ({ status, ...more });
const redirectTo = (location: string): Case => ({ status: 302, location });
const NOT_IN_REPORT = (label: string, probe: ProbeFn, check?: Expectation["check"]): Case => ({
  label,
  probe,
  status: 400,
  message: ROWS_NOT_IN_REPORT,
  unchanged: true,
  check,
});

/** The answer clears the session cookie (the session's row is gone with it). */
function sessionEnded(answer: PageAnswer | ApiAnswer) {
  expect.soft("headers" in answer ? answer.headers.get("Set-Cookie") : null, "the session cookie is cleared").toMatch(/^__session=;/);
}

/** Borealis's sales row is as seeded (no row is written at all, and this one in particular). */
async function borealisRowUnchanged(_answer: PageAnswer | ApiAnswer, ctx: Ctx) {
  const [row] = await db.select().from(salesRows).where(eq(salesRows.id, ctx.borealisSalesRow.id));
  expect(row, "Borealis's sales row").toEqual(ctx.borealisSalesRow);
}

/** Borealis's contact people are as seeded. */
async function borealisPeopleUnchanged(_answer: PageAnswer | ApiAnswer, ctx: Ctx) {
  expect(await peopleOf(ctx.borealis.id), "Borealis's people").toEqual(ctx.borealisPeople);
}

const UNAUTHORIZED: Case = { status: 401, message: SESSION_TIMEOUT };
const API_FORBIDDEN: Case = { status: 403, message: NOT_AUTHORIZED };
const INVALID: Case = { status: 400, unchanged: true };

const HOME = { partner: "/partner/dashboard", admin: "/admin/dashboard" };

/** The path with another partner's id in the query, under every name a route could read. */
const withOtherIds = (path: string, other: PartnerData) =>
  `${path}${path.includes("?") ? "&" : "?"}${new URLSearchParams({ partnerId: String(other.id), partner_id: String(other.id), id: String(other.id) })}`;

/** A page for ADMIN and STAFF; a partner is refused whichever partner the path names. */
const adminPage = (path: (ctx: Ctx, target: Target) => string, more: Omit<Case, "status"> = {}): MethodEntry => ({
  probe: (ctx, target) => ({ path: path(ctx, target) }),
  anonymous: LOGIN,
  partner: FORBIDDEN,
  otherPartner: FORBIDDEN,
  staff: ok(200, more),
  admin: ok(200, more),
});

/** A change only ADMIN may make: everyone else is refused and nothing changes. */
const adminChange = (probe: ProbeFn, admin: Cases): MethodEntry => ({
  probe,
  anonymous: LOGIN,
  partner: FORBIDDEN,
  otherPartner: FORBIDDEN,
  staff: FORBIDDEN,
  admin,
});

/** A partner's own page: the other partner's ids in the query change nothing about whose data it shows. */
const partnerPage = (path: string, check: Expectation["check"]): MethodEntry => ({
  probe: (_ctx, target) => ({ path: target.actor === "otherPartner" ? withOtherIds(path, target.partner) : path }),
  anonymous: LOGIN,
  partner: ok(200, { check }),
  otherPartner: ok(200, { check }),
  staff: FORBIDDEN,
  admin: FORBIDDEN,
});

/** The page's data is Acme's report. */
const acmeReport = (answer: PageAnswer | ApiAnswer, ctx: Ctx) => expect((answer as PageAnswer).data.view.partner.id).toBe(ctx.acme.id);
/** A download is named after Acme. */
const acmeFile = (answer: PageAnswer | ApiAnswer) => expect((answer as PageAnswer).headers.get("Content-Disposition")).toContain("Acme");

/** The envelope of a report page's post. */
const envelope = (ctx: Ctx, version: number, fields: Record<string, string>) => ({ quarterId: String(ctx.open.id), version: String(version), ...fields });

/** A saved API row of the Sales Report, as the grid posts it: its id and its cells, purchaser changed. */
function salesRow(row: Cells, purchaser = "Access Matrix Pharma Ltd"): Cells {
  const cells: Cells = { id: row.id };
  for (const column of columnsFor("API")) cells[column.key] = row[column.key] ?? "";
  cells.purchaser = purchaser;
  return cells;
}

/** The same row as the form without JavaScript posts it (`api[0][purchaser]`, hidden `api[0][id]`). */
const salesFormRow = (row: Cells): [string, string][] => Object.entries(salesRow(row)).map(([key, value]) => [`api[0][${key}]`, String(value)]);

const pdtPayloadRow = (row: PartnerData["pdt"]["row"], extra: Record<string, string> = {}) => ({ ...row, notes: "Checked by the access matrix", ...extra });

/** The partner form's fields for partner `id`, flattened as the browser posts them. */
async function partnerFormOf(id: number): Promise<Record<string, string>> {
  const { value } = (await getPartnerFormValues(id))!;
  const form: Record<string, string> = {
    companyName: value.companyName,
    email: value.email,
    contactPrefix: value.contactPrefix,
    contactNumber: value.contactNumber,
    address: value.address,
    region: value.region,
  };
  value.products.forEach((row, index) => {
    form[`products[${index}].productId`] = row.productId;
    form[`products[${index}].status`] = row.status;
  });
  value.people.forEach((row, index) => {
    for (const [key, cell] of Object.entries(row)) form[`people[${index}].${key}`] = cell;
  });
  return form;
}

/** A partner's Licence Terms form as the browser posts it, the first product's default rate set to `rate`. */
async function licenceFormOf(id: number, rate?: string): Promise<Record<string, string>> {
  const licence = (await getPartnerLicence(id))!;
  const form: Record<string, string> = { partnerId: String(id) };
  licence.products.forEach((product, index) => {
    const at = `products[${index}]`;
    form[`${at}.productId`] = String(product.id);
    if (!product.terms) return;
    form[`${at}.royaltyRate`] = index === 0 && rate ? rate : product.terms.royaltyRate;
    if (product.terms.apiLicensed) form[`${at}.apiLicensed`] = "on";
    product.terms.countries.forEach((row, rowIndex) => {
      form[`${at}.countries[${rowIndex}].countryId`] = String(row.countryId);
      if (row.royaltyRate !== null) form[`${at}.countries[${rowIndex}].royaltyRate`] = row.royaltyRate;
      if (!row.isLicensed) form[`${at}.countries[${rowIndex}].notLicensed`] = "on";
    });
  });
  return form;
}

// ---------------------------------------------------------------- the pages

const PAGE_MATRIX: Record<string, RouteEntry> = {
  root: {
    // The root loader runs under every page: display settings, language and toast, for everyone.
    loader: sameForAll(() => ({ path: "/login" }), OK),
  },
  "routes/$": {
    loader: sameForAll(() => ({ path: "/no-such-page" }), redirectTo("/error-404")),
    action: sameForAll(() => ({ path: "/no-such-page", form: { intent: "save" } }), { ...redirectTo("/error-404"), unchanged: true }),
  },
  "routes/_index": {
    loader: sameForAll(() => ({ path: "/" }), LOGIN),
  },
  "routes/_shell": {
    loader: { probe: () => ({ path: "/change-password" }), anonymous: LOGIN, partner: OK, otherPartner: OK, staff: OK, admin: OK },
  },
  "routes/_shell.admin": { loader: adminPage(() => "/admin/dashboard") },
  "routes/_shell.admin.add-partner": {
    loader: adminPage(() => "/admin/add-partner"),
    action: adminChange(
      (ctx) => ({
        path: "/admin/add-partner",
        form: {
          companyName: "Delta Therapeutics",
          email: "delta@example.org",
          contactPrefix: "+91",
          contactNumber: "9876500001",
          address: "12 Harbour Road, Chennai",
          region: "Asia",
          "products[0].productId": String(ctx.product.id),
          "products[0].status": "PLANNED",
          "people[0].firstName": "Meera",
          "people[0].lastName": "Iyer",
          "people[0].contactPrefix": "+91",
          "people[0].contactNumber": "9811122233",
        },
      }),
      redirectTo("/admin/partner-list"),
    ),
  },
  "routes/_shell.admin.add-product": {
    loader: adminPage(() => "/admin/add-product"),
    action: adminChange(
      () => ({ path: "/admin/add-product", form: { name: "Access Matrix 10 mg", category: "FDF", therapyArea: "HIV" } }),
      redirectTo("/admin/product-list"),
    ),
  },
  "routes/_shell.admin.dashboard": { loader: adminPage(() => "/admin/dashboard") },
  "routes/_shell.admin.development-timeline.$id": {
    loader: adminPage((_ctx, t) => `/admin/development-timeline/${t.partner.id}`),
    action: adminChange(
      (ctx, t) => ({
        path: `/admin/development-timeline/${t.partner.id}`,
        form: envelope(ctx, t.partner.pdt.version, { intent: "save", payload: JSON.stringify({ rows: [pdtPayloadRow(t.partner.pdt.row)] }) }),
      }),
      [
        redirectTo("/admin/development-timeline/{acme}"),
        {
          label: "submits the partner's timeline",
          probe: (ctx) => ({
            path: `/admin/development-timeline/${ctx.acme.id}`,
            form: envelope(ctx, ctx.acme.pdt.version, { intent: "submit-empty", comment: "Submitted for them." }),
          }),
          status: 403,
          message: WORKFLOW_REFUSALS.partnerOnly,
          unchanged: true,
        },
        NOT_IN_REPORT("a Borealis product's row on Acme's timeline", (ctx) => ({
          path: `/admin/development-timeline/${ctx.acme.id}`,
          form: envelope(ctx, ctx.acme.pdt.version, { intent: "save", payload: JSON.stringify({ rows: [pdtPayloadRow(ctx.borealis.pdt.row)] }) }),
        })),
      ],
    ),
  },
  "routes/_shell.admin.edit-partner.$id": {
    loader: adminPage((_ctx, t) => `/admin/edit-partner/${t.partner.id}`),
    action: adminChange(
      async (_ctx, t) => ({ path: `/admin/edit-partner/${t.partner.id}`, form: await partnerFormOf(t.partner.id) }),
      [
        redirectTo("/admin/partner-list"),
        {
          label: "a Borealis person's employeeId in Acme's hidden field",
          probe: async (ctx) => ({
            path: `/admin/edit-partner/${ctx.acme.id}`,
            form: { ...(await partnerFormOf(ctx.acme.id)), "people[0].employeeId": String(ctx.borealisPeople[0].id) },
          }),
          ...redirectTo("/admin/partner-list"),
          check: borealisPeopleUnchanged,
        },
      ],
    ),
  },
  "routes/_shell.admin.edit-product.$product_id": {
    loader: adminPage((ctx) => `/admin/edit-product/${ctx.product.id}`),
    action: adminChange(
      (ctx) => ({ path: `/admin/edit-product/${ctx.product.id}`, form: { name: `${ctx.product.name} tablets`, therapyArea: ctx.product.therapyArea } }),
      redirectTo("/admin/product-list"),
    ),
  },
  "routes/_shell.admin.filing-plans.$id": {
    loader: adminPage((_ctx, t) => `/admin/filing-plans/${t.partner.id}`),
    action: adminChange(
      (ctx, t) => ({
        path: `/admin/filing-plans/${t.partner.id}`,
        form: envelope(ctx, t.partner.filing.version, {
          intent: "save",
          payload: JSON.stringify({ cells: { [t.partner.filing.countryId]: { [t.partner.filing.productId]: "Filed" } } }),
        }),
      }),
      [
        redirectTo("/admin/filing-plans/{acme}"),
        NOT_IN_REPORT("a Borealis product's cell on Acme's plan", (ctx) => ({
          path: `/admin/filing-plans/${ctx.acme.id}`,
          form: envelope(ctx, ctx.acme.filing.version, {
            intent: "save",
            payload: JSON.stringify({ cells: { [ctx.acme.filing.countryId]: { [ctx.borealis.filing.productId]: "Filed" } } }),
          }),
        })),
      ],
    ),
  },
  "routes/_shell.admin.licence-terms.$id": {
    loader: adminPage((_ctx, t) => `/admin/licence-terms/${t.partner.id}`),
    action: adminChange(
      async (_ctx, t) => ({ path: `/admin/licence-terms/${t.partner.id}`, form: await licenceFormOf(t.partner.id, "4.5") }),
      [
        redirectTo("/admin/licence-terms/{acme}"),
        {
          label: "a Borealis product on Acme's terms",
          probe: async (ctx) => ({
            path: `/admin/licence-terms/${ctx.acme.id}`,
            form: { ...(await licenceFormOf(ctx.acme.id)), "products[4].productId": String(ctx.borealis.filing.productId), "products[4].royaltyRate": "1" },
          }),
          status: 400,
          unchanged: true,
        },
      ],
    ),
  },
  "routes/_shell.admin.partner-list": {
    loader: adminPage(() => "/admin/partner-list"),
    // The admin deactivates Cedar; the others name Acme, or (the other partner) Borealis.
    action: adminChange(
      (ctx, t) => ({ path: "/admin/partner-list", form: { intent: "deactivate", partnerId: String(t.actor === "admin" ? ctx.cedarId : t.partner.id) } }),
      redirectTo("/admin/partner-list"),
    ),
  },
  "routes/_shell.admin.partner-list_.deactivate.$id": {
    // The deactivation prompt: ADMIN only (the list's deactivate control is disabled for STAFF).
    loader: { ...adminPage((_ctx, t) => `/admin/partner-list/deactivate/${t.partner.id}`), staff: FORBIDDEN },
  },
  "routes/_shell.admin.partner-performance": { loader: adminPage(() => "/admin/partner-performance") },
  "routes/_shell.admin.product-list": {
    loader: adminPage(() => "/admin/product-list"),
    action: adminChange(
      (ctx) => ({ path: "/admin/product-list", form: { intent: "deactivate", productId: String(ctx.product.id) } }),
      redirectTo("/admin/product-list"),
    ),
  },
  // The confirmation of "Remind everyone who owes a report": ADMIN only, like the control; it sends nothing.
  "routes/_shell.admin.partner-list_.remind-everyone": { loader: { ...adminPage(() => "/admin/partner-list/remind-everyone"), staff: FORBIDDEN } },
  "routes/_shell.admin.product-list_.deactivate.$product_id": { loader: adminPage((ctx) => `/admin/product-list/deactivate/${ctx.product.id}`) },
  "routes/_shell.admin.profile": { loader: adminPage(() => "/admin/profile") },
  "routes/_shell.admin.report.development-timeline": { loader: adminPage(() => "/admin/report/development-timeline") },
  "routes/_shell.admin.report.filing-plans": { loader: adminPage(() => "/admin/report/filing-plans") },
  "routes/_shell.admin.report.sales-report": { loader: adminPage(() => "/admin/report/sales-report") },
  "routes/_shell.admin.sales-report.$id": {
    loader: adminPage((_ctx, t) => `/admin/sales-report/${t.partner.id}`),
    action: adminChange(
      (ctx, t) => ({
        path: `/admin/sales-report/${t.partner.id}`,
        form: envelope(ctx, t.partner.sales.version, { intent: "save", payload: JSON.stringify({ API: [salesRow(t.partner.sales.apiRow)] }) }),
      }),
      [
        redirectTo("/admin/sales-report/{acme}"),
        NOT_IN_REPORT(
          "a Borealis row id on Acme's report",
          (ctx) => ({
            path: `/admin/sales-report/${ctx.acme.id}`,
            form: envelope(ctx, ctx.acme.sales.version, { intent: "save", payload: JSON.stringify({ API: [salesRow(ctx.borealis.sales.apiRow)] }) }),
          }),
          borealisRowUnchanged,
        ),
        {
          label: "Acme's product verification decided on Borealis's page",
          probe: (ctx) => ({
            path: `/admin/sales-report/${ctx.borealis.id}`,
            form: { intent: "verify-product", verificationId: String(ctx.acmeVerificationId), decision: "reject" },
          }),
          status: 404,
          unchanged: true,
        },
      ],
    ),
  },
  "routes/_shell.admin.settings": {
    loader: adminPage(() => "/admin/settings"),
    action: adminChange((ctx) => ({ path: "/admin/settings", form: { intent: "cut-off", cutOffDate: ctx.cutOffDate } }), redirectTo("/admin/settings")),
  },
  "routes/_shell.change-password": {
    loader: { probe: () => ({ path: "/change-password" }), anonymous: LOGIN, partner: OK, otherPartner: OK, staff: OK, admin: OK },
    // Every role changes its own password (then signs in again); naming another account changes nothing.
    action: {
      probe: (_ctx, t) => {
        const account = ACCOUNTS[t.actor === "anonymous" ? "cedar" : ACCOUNT_OF[t.actor]];
        return { path: "/change-password", form: { currentPassword: account.password, password: "new-pass-42", confirmPassword: "new-pass-42" } };
      },
      anonymous: LOGIN,
      partner: redirectTo("/login"),
      otherPartner: {
        label: "Borealis's e-mail and password",
        probe: () => ({
          path: "/change-password",
          form: { email: ACCOUNTS.borealis.email, currentPassword: ACCOUNTS.borealis.password, password: "new-pass-42", confirmPassword: "new-pass-42" },
        }),
        status: 400,
        unchanged: true,
      },
      staff: redirectTo("/login"),
      admin: redirectTo("/login"),
    },
  },
  "routes/_shell.partner": { loader: partnerPage("/partner/dashboard", undefined) },
  "routes/_shell.partner.dashboard": {
    loader: partnerPage("/partner/dashboard", async (answer, ctx) => expect((answer as PageAnswer).data).toEqual(await partnerGuidance(ctx.acme.id))),
  },
  "routes/_shell.partner.development-timeline": {
    loader: partnerPage("/partner/development-timeline", acmeReport),
    action: {
      probe: (ctx) => ({
        path: "/partner/development-timeline",
        form: envelope(ctx, ctx.acme.pdt.version, { intent: "save", payload: JSON.stringify({ rows: [pdtPayloadRow(ctx.acme.pdt.row)] }) }),
      }),
      anonymous: LOGIN,
      partner: [
        redirectTo("/partner/development-timeline"),
        {
          label: "approves its own submitted timeline",
          probe: (ctx) => ({
            path: "/partner/development-timeline",
            form: envelope(ctx, ctx.acme.pdt.version, { intent: "approve", comment: "Looks fine to us." }),
          }),
          status: 403,
          message: WORKFLOW_REFUSALS.adminOnly,
          unchanged: true,
        },
      ],
      otherPartner: [
        NOT_IN_REPORT("a Borealis product's row in the grid's JSON", (ctx) => ({
          path: "/partner/development-timeline",
          form: envelope(ctx, ctx.acme.pdt.version, { intent: "save", payload: JSON.stringify({ rows: [pdtPayloadRow(ctx.borealis.pdt.row)] }) }),
        })),
        NOT_IN_REPORT("a Borealis product's project status in the grid's JSON", (ctx) => ({
          path: "/partner/development-timeline",
          form: envelope(ctx, ctx.acme.pdt.version, {
            intent: "save",
            payload: JSON.stringify({ rows: [pdtPayloadRow(ctx.borealis.pdt.row, { status: "DROPPED" })] }),
          }),
        })),
        NOT_IN_REPORT("a Borealis product's row in the plain form's hidden fields", (ctx) => ({
          path: "/partner/development-timeline",
          form: {
            ...envelope(ctx, ctx.acme.pdt.version, { intent: "save" }),
            ...Object.fromEntries(Object.entries(pdtPayloadRow(ctx.borealis.pdt.row)).map(([key, value]) => [`pdt[0][${key}]`, String(value)])),
          },
        })),
        NOT_IN_REPORT("a Borealis product's row in a JSON post", (ctx) => ({
          path: "/partner/development-timeline",
          json: { ...envelope(ctx, ctx.acme.pdt.version, { intent: "save" }), payload: { rows: [pdtPayloadRow(ctx.borealis.pdt.row)] } },
        })),
      ],
      staff: FORBIDDEN,
      admin: FORBIDDEN,
    },
  },
  "routes/_shell.partner.filing-plans": {
    loader: partnerPage("/partner/filing-plans", acmeReport),
    action: {
      probe: (ctx) => ({
        path: "/partner/filing-plans",
        form: envelope(ctx, ctx.acme.filing.version, {
          intent: "save",
          payload: JSON.stringify({ cells: { [ctx.acme.filing.countryId]: { [ctx.acme.filing.productId]: "Filed" } } }),
        }),
      }),
      anonymous: LOGIN,
      partner: redirectTo("/partner/filing-plans"),
      otherPartner: [
        NOT_IN_REPORT("a Borealis product's cell in the grid's JSON", (ctx) => ({
          path: "/partner/filing-plans",
          form: envelope(ctx, ctx.acme.filing.version, {
            intent: "save",
            payload: JSON.stringify({ cells: { [ctx.acme.filing.countryId]: { [ctx.borealis.filing.productId]: "Filed" } } }),
          }),
        })),
        NOT_IN_REPORT("a Borealis product's cell in the plain form", (ctx) => ({
          path: "/partner/filing-plans",
          form: {
            ...envelope(ctx, ctx.acme.filing.version, { intent: "save" }),
            [`filing[${ctx.acme.filing.countryId}][${ctx.borealis.filing.productId}]`]: "Filed",
          },
        })),
      ],
      staff: FORBIDDEN,
      admin: FORBIDDEN,
    },
  },
  "routes/_shell.partner.licence-terms": {
    loader: partnerPage("/partner/licence-terms", (answer, ctx) => expect((answer as PageAnswer).data.partner.id).toBe(ctx.acme.id)),
  },
  "routes/_shell.partner.profile": {
    loader: partnerPage("/partner/profile", (answer, ctx) => expect((answer as PageAnswer).data.profile.companyName).toBe(ctx.acme.name)),
  },
  "routes/_shell.partner.sales-report": {
    loader: partnerPage("/partner/sales-report", acmeReport),
    action: {
      probe: (ctx) => ({
        path: "/partner/sales-report",
        form: envelope(ctx, ctx.acme.sales.version, { intent: "save", payload: JSON.stringify({ API: [salesRow(ctx.acme.sales.apiRow)] }) }),
      }),
      anonymous: LOGIN,
      partner: [
        redirectTo("/partner/sales-report"),
        {
          label: "saves a new row into a closed quarter",
          probe: (ctx) => {
            const { id: _id, ...cells } = salesRow(ctx.acme.sales.apiRow);
            return {
              path: "/partner/sales-report",
              form: { ...envelope(ctx, 0, { intent: "save", payload: JSON.stringify({ API: [cells] }) }), quarterId: String(ctx.historic.id) },
            };
          },
          status: 409,
          unchanged: true,
        },
        {
          label: "decides a product verification",
          probe: (ctx) => ({
            path: "/partner/sales-report",
            form: { intent: "verify-product", verificationId: String(ctx.acmeVerificationId), decision: "reject" },
          }),
          ...FORBIDDEN,
          unchanged: true,
        },
      ],
      otherPartner: [
        NOT_IN_REPORT(
          "a Borealis row id in the grid's JSON",
          (ctx) => ({
            path: "/partner/sales-report",
            form: envelope(ctx, ctx.acme.sales.version, { intent: "save", payload: JSON.stringify({ API: [salesRow(ctx.borealis.sales.apiRow)] }) }),
          }),
          borealisRowUnchanged,
        ),
        NOT_IN_REPORT(
          "a Borealis row id to delete in the grid's JSON",
          (ctx) => ({
            path: "/partner/sales-report",
            form: envelope(ctx, ctx.acme.sales.version, { intent: "save", payload: JSON.stringify({ deletedIds: [ctx.borealis.sales.apiRow.id] }) }),
          }),
          borealisRowUnchanged,
        ),
        NOT_IN_REPORT(
          "a Borealis row id in the plain form's hidden field",
          (ctx) => ({
            path: "/partner/sales-report",
            form: [...Object.entries(envelope(ctx, ctx.acme.sales.version, { intent: "save" })), ...salesFormRow(ctx.borealis.sales.apiRow)],
          }),
          borealisRowUnchanged,
        ),
        NOT_IN_REPORT(
          "a Borealis row id ticked for deletion in the plain form",
          (ctx) => ({
            path: "/partner/sales-report",
            form: [...Object.entries(envelope(ctx, ctx.acme.sales.version, { intent: "save" })), ["deleteIds", String(ctx.borealis.sales.apiRow.id)]],
          }),
          borealisRowUnchanged,
        ),
        NOT_IN_REPORT(
          "a Borealis row id in a JSON post",
          (ctx) => ({
            path: "/partner/sales-report",
            json: { ...envelope(ctx, ctx.acme.sales.version, { intent: "save" }), payload: { API: [salesRow(ctx.borealis.sales.apiRow)] } },
          }),
          borealisRowUnchanged,
        ),
      ],
      staff: FORBIDDEN,
      admin: FORBIDDEN,
    },
  },
  "routes/admin.dashboard.$table.csv": { loader: adminPage(() => "/admin/dashboard/product-company-sales/csv") },
  "routes/admin.dashboard.$table.xlsx": { loader: adminPage(() => "/admin/dashboard/product-company-sales/xlsx") },
  "routes/admin.dashboard.world-map[.]svg": { loader: adminPage(() => "/admin/dashboard/world-map.svg") },
  "routes/admin.development-timeline.$id.template[.]xlsx": {
    loader: adminPage((_ctx, t) => `/admin/development-timeline/${t.partner.id}/template.xlsx`, { check: acmeFile }),
  },
  "routes/admin.development-timeline.$id.xlsx": { loader: adminPage((_ctx, t) => `/admin/development-timeline/${t.partner.id}/xlsx`, { check: acmeFile }) },
  "routes/admin.filing-plans.$id.template[.]xlsx": { loader: adminPage((_ctx, t) => `/admin/filing-plans/${t.partner.id}/template.xlsx`, { check: acmeFile }) },
  "routes/admin.filing-plans.$id.xlsx": { loader: adminPage((_ctx, t) => `/admin/filing-plans/${t.partner.id}/xlsx`, { check: acmeFile }) },
  "routes/admin.partner-performance.csv": { loader: adminPage(() => "/admin/partner-performance/csv") },
  "routes/admin.partner-performance.xlsx": { loader: adminPage(() => "/admin/partner-performance/xlsx") },
  "routes/admin.reminders": {
    // A resource route for posts: ADMIN and STAFF get 405 on GET.
    loader: { ...adminPage(() => "/admin/reminders"), staff: ok(405), admin: ok(405) },
    action: adminChange(
      (ctx, t) => ({
        path: "/admin/reminders",
        form: { partnerId: String(t.actor === "admin" ? ctx.cedarId : t.partner.id), reportType: "sales", redirectTo: "/admin/partner-list" },
      }),
      redirectTo("/admin/partner-list"),
    ),
  },
  "routes/admin.report.development-timeline.csv": { loader: adminPage(() => "/admin/report/development-timeline/csv") },
  "routes/admin.report.development-timeline.xlsx": { loader: adminPage(() => "/admin/report/development-timeline/xlsx") },
  "routes/admin.report.filing-plans.csv": { loader: adminPage(() => "/admin/report/filing-plans/csv") },
  "routes/admin.report.filing-plans.xlsx": { loader: adminPage(() => "/admin/report/filing-plans/xlsx") },
  "routes/admin.report.sales-report.csv": { loader: adminPage(() => "/admin/report/sales-report/csv") },
  "routes/admin.report.sales-report.xlsx": { loader: adminPage(() => "/admin/report/sales-report/xlsx") },
  "routes/admin.sales-report.$id.template[.]xlsx": { loader: adminPage((_ctx, t) => `/admin/sales-report/${t.partner.id}/template.xlsx`, { check: acmeFile }) },
  "routes/admin.sales-report.$id.xlsx": { loader: adminPage((_ctx, t) => `/admin/sales-report/${t.partner.id}/xlsx`, { check: acmeFile }) },
  "routes/admin.sales-report.$id.royalty-statement[.]csv": {
    loader: adminPage((_ctx, t) => `/admin/sales-report/${t.partner.id}/royalty-statement.csv`, { check: acmeFile }),
  },
  "routes/admin.sales-report.$id.royalty-statement[.]xlsx": {
    loader: adminPage((_ctx, t) => `/admin/sales-report/${t.partner.id}/royalty-statement.xlsx`, { check: acmeFile }),
  },
  "routes/api.$": {
    // The JSON API opens with a bearer token only: a session cookie opens nothing there.
    loader: sameForAll(() => ({ path: "/api/country_list/" }), UNAUTHORIZED),
    action: sameForAll((ctx) => ({ path: "/api/admin/cut_off_date/", json: { cut_off_date: ctx.cutOffDate } }), UNAUTHORIZED),
  },
  "routes/api.docs": { loader: sameForAll(() => ({ path: "/api/docs" }), OK) },
  "routes/api.openapi[.]json": { loader: sameForAll(() => ({ path: "/api/openapi.json" }), OK) },
  "routes/error-404": { loader: sameForAll(() => ({ path: "/error-404" }), ok(404)) },
  "routes/language": {
    // A resource route for posts; the choice writes only the caller's own account (or only a cookie, signed out).
    loader: sameForAll(() => ({ path: "/language" }), ok(405)),
    action: sameForAll(() => ({ path: "/language", form: { language: "fr", redirectTo: "/partner/dashboard" } }), redirectTo("/partner/dashboard")),
  },
  "routes/lock-screen": {
    // Not locked: each is sent home.
    loader: {
      probe: () => ({ path: "/lock-screen" }),
      anonymous: LOGIN,
      partner: redirectTo(HOME.partner),
      otherPartner: redirectTo(HOME.partner),
      staff: redirectTo(HOME.admin),
      admin: redirectTo(HOME.admin),
    },
    // Locking locks the caller's own session.
    action: {
      probe: () => ({ path: "/lock-screen", form: { intent: "lock" } }),
      anonymous: LOGIN,
      partner: redirectTo("/lock-screen"),
      otherPartner: redirectTo("/lock-screen"),
      staff: redirectTo("/lock-screen"),
      admin: redirectTo("/lock-screen"),
    },
  },
  "routes/login": {
    loader: {
      probe: () => ({ path: "/login" }),
      anonymous: OK,
      partner: redirectTo(HOME.partner),
      otherPartner: redirectTo(HOME.partner),
      staff: redirectTo(HOME.admin),
      admin: redirectTo(HOME.admin),
    },
    // Each signs in with its own account (the visitor as Cedar); Acme's password does not open Borealis's account.
    action: {
      probe: (_ctx, t) => ({ path: "/login", form: { ...ACCOUNTS[t.actor === "anonymous" ? "cedar" : ACCOUNT_OF[t.actor]] } }),
      anonymous: redirectTo(HOME.partner),
      partner: redirectTo(HOME.partner),
      otherPartner: {
        label: "Borealis's e-mail with Acme's password",
        probe: () => ({ path: "/login", form: { email: ACCOUNTS.borealis.email, password: ACCOUNTS.acme.password } }),
        status: 401,
        unchanged: true,
      },
      staff: redirectTo(HOME.admin),
      admin: redirectTo(HOME.admin),
    },
  },
  "routes/logout": {
    loader: { probe: () => ({ path: "/logout" }), anonymous: LOGIN, partner: OK, otherPartner: OK, staff: OK, admin: OK },
    // Signing out ends the caller's own session.
    action: {
      probe: () => ({ path: "/logout", form: {} }),
      anonymous: LOGIN,
      partner: redirectTo("/login"),
      otherPartner: redirectTo("/login"),
      staff: redirectTo("/login"),
      admin: redirectTo("/login"),
    },
  },
  "routes/partner.development-timeline.template[.]xlsx": { loader: partnerPage("/partner/development-timeline/template.xlsx", acmeFile) },
  "routes/partner.development-timeline.xlsx": { loader: partnerPage("/partner/development-timeline/xlsx", acmeFile) },
  "routes/partner.filing-plans.template[.]xlsx": { loader: partnerPage("/partner/filing-plans/template.xlsx", acmeFile) },
  "routes/partner.filing-plans.xlsx": { loader: partnerPage("/partner/filing-plans/xlsx", acmeFile) },
  "routes/partner.sales-report.template[.]xlsx": { loader: partnerPage("/partner/sales-report/template.xlsx", acmeFile) },
  "routes/partner.sales-report.xlsx": { loader: partnerPage("/partner/sales-report/xlsx", acmeFile) },
  "routes/reset-password": {
    // For signed-out visitors: anyone signed in gets 'Access Denied!'.
    loader: { probe: () => ({ path: "/reset-password" }), anonymous: OK, partner: DENIED, otherPartner: DENIED, staff: DENIED, admin: DENIED },
    action: {
      probe: () => ({ path: "/reset-password", form: { email: ACCOUNTS.cedar.email } }),
      anonymous: redirectTo("/login"),
      partner: DENIED,
      otherPartner: DENIED,
      staff: DENIED,
      admin: DENIED,
    },
  },
  "routes/submissions.$snapshotId.pdf": {
    // A submission's proof: the partner's own; another partner's is not found; administrators and staff any partner's.
    loader: {
      probe: async (_ctx, t) => ({ path: `/submissions/${await submissionOf(t.partner.id, "sales")}/pdf` }),
      anonymous: LOGIN,
      partner: ok(200, { check: acmeFile }),
      otherPartner: redirectTo("/error-404"),
      staff: ok(200, { check: acmeFile }),
      admin: ok(200, { check: acmeFile }),
    },
  },
  "routes/set-password.$token": {
    loader: {
      probe: async (ctx) => ({ path: `/set-password/${await createPasswordToken(ctx.userIds.cedar, "reset")}` }),
      anonymous: OK,
      partner: DENIED,
      otherPartner: DENIED,
      staff: DENIED,
      admin: DENIED,
    },
    action: {
      probe: async (ctx) => ({
        path: `/set-password/${await createPasswordToken(ctx.userIds.cedar, "reset")}`,
        form: { password: "new-pass-42", confirmPassword: "new-pass-42" },
      }),
      anonymous: redirectTo("/login"),
      partner: DENIED,
      otherPartner: DENIED,
      staff: DENIED,
      admin: DENIED,
    },
  },
};

// ---------------------------------------------------------------- the JSON API

/** A call for ADMIN and STAFF: a partner is refused whichever partner the call names. */
const apiAdminRead = (probe: ProbeFn, more: Omit<Case, "status"> = {}): MethodEntry => ({
  probe,
  anonymous: UNAUTHORIZED,
  partner: API_FORBIDDEN,
  otherPartner: API_FORBIDDEN,
  staff: ok(200, more),
  admin: ok(200, more),
});

/** A read made with POST: it writes nothing. */
const apiAdminQuery = (probe: ProbeFn) => apiAdminRead(probe, { unchanged: true });

/** A change only ADMIN may make. */
const apiAdminChange = (probe: ProbeFn, admin: Cases): MethodEntry => ({
  probe,
  anonymous: UNAUTHORIZED,
  partner: API_FORBIDDEN,
  otherPartner: API_FORBIDDEN,
  staff: API_FORBIDDEN,
  admin,
});

/** Every role, each on its own account. */
const apiEveryRole = (probe: ProbeFn, signedIn: Case = OK): MethodEntry => ({
  probe,
  anonymous: UNAUTHORIZED,
  partner: signedIn,
  otherPartner: signedIn,
  staff: signedIn,
  admin: signedIn,
});

/** Sign-in and password links: no token needed, the same answer whoever asks. */
const apiPublic = (probe: ProbeFn, answer: Case = OK) => sameForAll(probe, answer);

/** The report read is Acme's. */
const acmeAnswer = (kind: ReportKind) => (answer: PageAnswer | ApiAnswer, ctx: Ctx) =>
  expect((answer as ApiAnswer).body[`${kind}_meta`].partner_id).toBe(ctx.acme.id);

const API_NOT_IN_REPORT = (label: string, probe: ProbeFn, check?: Expectation["check"]): Case => ({
  label,
  probe,
  status: 400,
  message: ROWS_NOT_IN_REPORT,
  unchanged: true,
  check,
});

/** A timeline row as the API saves it: the open quarter's plan under its `start_date_<quarter>` and `end_date_<quarter>` keys. */
const pdtApiRow = (ctx: Ctx, row: PartnerData["pdt"]["row"], extra: Record<string, string> = {}) => ({
  product_id: row.productId,
  stage_id: row.stageId,
  notes: "Checked by the access matrix",
  [`start_date_${ctx.open.name}`]: row.startDate,
  [`end_date_${ctx.open.name}`]: row.endDate,
  ...extra,
});

/** A saved Sales row as read, purchaser changed, under the id of `idOf`'s row. */
const salesApiRow = (own: PartnerData, idOf = own) => ({
  ...own.sales.answerRow,
  sales_report_id: idOf.sales.answerRow.sales_report_id,
  purchaser: "Access Matrix Pharma Ltd",
});

type ReportKind = "pdt" | "filing" | "sales";

/** What each report's save carries: its version and one changed row or cell of `own`; `rowsOf` names the row, product or row id of another. */
const REPORT_SAVES: Record<
  ReportKind,
  { version: (p: PartnerData) => number; body: (ctx: Ctx, own: PartnerData, rowsOf?: PartnerData) => Record<string, unknown> }
> = {
  pdt: { version: (p) => p.pdt.version, body: (ctx, own, rowsOf = own) => ({ version: own.pdt.version, rows: [pdtApiRow(ctx, rowsOf.pdt.row)] }) },
  filing: {
    version: (p) => p.filing.version,
    body: (_ctx, own, rowsOf = own) => ({ version: own.filing.version, [own.filing.countryId]: { [rowsOf.filing.productId]: "Filed" } }),
  },
  sales: {
    version: (p) => p.sales.version,
    body: (_ctx, own, rowsOf = own) => ({ version: own.sales.version, sales_report_id: [], rows: [salesApiRow(own, rowsOf)] }),
  },
};

/** A Filing Plans cell of a Borealis product: refused naming the cell (country id, product id). */
const borealisCellRefused = (label: string, probe: ProbeFn): Case => ({
  label,
  probe,
  ...INVALID,
  check: (answer, ctx) => expect(Object.keys((answer as ApiAnswer).body.errors)).toEqual([`${ctx.acme.filing.countryId}.${ctx.borealis.filing.productId}`]),
});

/** A partner's own report (`path`) and a partner's report for the administrators (`partnerPath`): the call's key and a request's path. */
interface ReportPaths {
  path: { key: string; of: string };
  partnerPath: { key: string; of: (partnerId: number) => string };
}

const REPORT_PATHS: Record<ReportKind, ReportPaths> = {
  pdt: { path: { key: "/template/pdt/", of: "/template/pdt/" }, partnerPath: { key: "/template/pdt/{partnerId}/", of: (id) => `/template/pdt/${id}/` } },
  filing: {
    path: { key: "/template/filing/", of: "/template/filing/" },
    partnerPath: { key: "/template/filing/{partnerId}/", of: (id) => `/template/filing/${id}/` },
  },
  // A tab at a time: the API tab.
  sales: {
    path: { key: "/template/sales/{x}", of: "/template/sales/api" },
    partnerPath: { key: "/template/sales/{x}/{y}", of: (id) => `/template/sales/api/${id}` },
  },
};

/** The seven calls of a report template, under /template/{kind}/. */
function templateCalls(kind: ReportKind, outcomes: { submit: Case; decide: Case }): Record<string, MethodEntry> {
  const save = REPORT_SAVES[kind];
  const base = `/template/${kind}`;
  const { path, partnerPath } = REPORT_PATHS[kind];
  const borealisRows = (label: string, probe: ProbeFn) =>
    kind === "filing" ? borealisCellRefused(label, probe) : API_NOT_IN_REPORT(label, probe, kind === "sales" ? borealisRowUnchanged : undefined);
  const otherRows: Case[] = [
    borealisRows(`a Borealis ${kind === "filing" ? "product's cell" : kind === "pdt" ? "product's row" : "row id"} in the body`, (ctx) => ({
      path: path.of,
      json: save.body(ctx, ctx.acme, ctx.borealis),
    })),
  ];
  if (kind === "sales") {
    otherRows.push(
      API_NOT_IN_REPORT(
        "a Borealis row id to delete",
        (ctx) => ({ path: path.of, json: { version: ctx.acme.sales.version, sales_report_id: [ctx.borealis.sales.apiRow.id] } }),
        borealisRowUnchanged,
      ),
      {
        label: "partner_id of Borealis in the body",
        probe: (ctx) => ({ path: path.of, json: { ...save.body(ctx, ctx.acme), partner_id: ctx.borealis.id } }),
        ...API_FORBIDDEN,
        unchanged: true,
      },
    );
  }
  if (kind === "pdt") {
    otherRows.push(
      API_NOT_IN_REPORT("a Borealis product's project status", (ctx) => ({
        path: path.of,
        json: { version: ctx.acme.pdt.version, rows: [pdtApiRow(ctx, ctx.borealis.pdt.row, { product_status: "DROPPED" })] },
      })),
    );
  }
  return {
    [`GET ${path.key}`]: {
      probe: () => ({ path: path.of }),
      anonymous: UNAUTHORIZED,
      partner: ok(200, { check: acmeAnswer(kind) }),
      otherPartner: {
        label: "partner_id of Borealis in the query",
        probe: (ctx) => ({ path: path.of, query: { partner_id: String(ctx.borealis.id) } }),
        ...INVALID,
      },
      staff: API_FORBIDDEN,
      admin: API_FORBIDDEN,
    },
    [`GET ${partnerPath.key}`]: apiAdminRead((_ctx, t) => ({ path: partnerPath.of(t.partner.id) }), { check: acmeAnswer(kind) }),
    [`POST ${path.key}`]: {
      probe: (ctx) => ({ path: path.of, json: save.body(ctx, ctx.acme) }),
      anonymous: UNAUTHORIZED,
      partner: OK,
      otherPartner: otherRows,
      staff: API_FORBIDDEN,
      admin: API_FORBIDDEN,
    },
    [`POST ${partnerPath.key}`]: apiAdminChange(
      (ctx, t) => ({ path: partnerPath.of(t.partner.id), json: save.body(ctx, t.partner) }),
      [
        OK,
        borealisRows("Acme's report with a Borealis row or product", (ctx) => ({
          path: partnerPath.of(ctx.acme.id),
          json: save.body(ctx, ctx.acme, ctx.borealis),
        })),
        ...(kind === "sales"
          ? [
              {
                label: "partner_id of Borealis under Acme's path",
                probe: (ctx: Ctx) => ({ path: partnerPath.of(ctx.acme.id), json: { ...save.body(ctx, ctx.acme), partner_id: ctx.borealis.id } }),
                ...INVALID,
              },
            ]
          : []),
      ],
    ),
    [`POST ${base}/submit/`]: {
      probe: (ctx) => ({ path: `${base}/submit/`, json: { message: "Our report is complete.", version: save.version(ctx.acme) } }),
      anonymous: UNAUTHORIZED,
      partner: outcomes.submit,
      otherPartner: {
        label: "partner_id of Borealis in the body",
        probe: (ctx) => ({
          path: `${base}/submit/`,
          json: { message: "Our report is complete.", version: save.version(ctx.borealis), partner_id: ctx.borealis.id },
        }),
        ...INVALID,
      },
      staff: API_FORBIDDEN,
      admin: API_FORBIDDEN,
    },
    [`POST ${base}/message/`]: apiAdminChange(
      (_ctx, t) => ({ path: `${base}/message/`, json: { partner_id: t.partner.id, message: "Thank you.", is_approved: true } }),
      outcomes.decide,
    ),
    [`GET ${base}/submissions/{snapshotId}/pdf`]: {
      probe: async (_ctx, t) => ({ path: `${base}/submissions/${await submissionOf(t.partner.id, kind)}/pdf` }),
      anonymous: UNAUTHORIZED,
      partner: ok(200, { check: acmeFile }),
      otherPartner: ok(404),
      staff: ok(200, { check: acmeFile }),
      admin: ok(200, { check: acmeFile }),
    },
    [`POST ${base}/inbox/{who}`]: {
      probe: (ctx, t) =>
        t.actor === "partner" || t.actor === "anonymous"
          ? { path: `${base}/inbox/partner`, json: {} }
          : { path: `${base}/inbox/admin`, json: { partner_id: ctx.acme.id } },
      anonymous: UNAUTHORIZED,
      partner: [OK, { label: "the administrators' side of its messages", probe: () => ({ path: `${base}/inbox/admin`, json: {} }), ...INVALID }],
      otherPartner: {
        label: "Borealis's messages",
        probe: (ctx) => ({ path: `${base}/inbox/partner`, json: { partner_id: ctx.borealis.id } }),
        ...API_FORBIDDEN,
        unchanged: true,
      },
      // STAFF read without marking: the count stays what the administrators have not read.
      staff: ok(200, { unchanged: true }),
      admin: OK,
    },
  };
}

const CONFLICT = (message: string): Case => ({ status: 409, message, unchanged: true });

/**
 * Comments on rows and cells of a report type: the partner's own report; a partner's for the
 * administrators (STAFF reads). `open` opens a thread on the target partner's row; Borealis naming
 * Acme's row on its own report finds no such row.
 */
function threadCalls(type: "sales" | "pdt" | "filing", open: (t: Target) => { table: string; row_id: number; body: string }): Record<string, MethodEntry> {
  const own = `/template/${type}/threads/`;
  return {
    [`GET ${own}`]: {
      probe: () => ({ path: own }),
      anonymous: UNAUTHORIZED,
      partner: OK,
      otherPartner: {
        label: "partner_id of Borealis in the query",
        probe: (ctx) => ({ path: own, query: { partner_id: String(ctx.borealis.id) } }),
        ...INVALID,
      },
      staff: API_FORBIDDEN,
      admin: API_FORBIDDEN,
    },
    [`GET ${own}{partnerId}/`]: apiAdminRead((_ctx, t) => ({ path: `${own}${t.partner.id}/` })),
    [`POST ${own}`]: {
      probe: (_ctx, t) => ({ path: own, json: { action: "open", ...open(t) } }),
      anonymous: UNAUTHORIZED,
      partner: OK,
      otherPartner: CONFLICT(THREAD_MESSAGES.rowGone),
      staff: API_FORBIDDEN,
      admin: API_FORBIDDEN,
    },
    [`POST ${own}{partnerId}/`]: apiAdminChange((_ctx, t) => ({ path: `${own}${t.partner.id}/`, json: { action: "open", ...open(t) } }), OK),
  };
}

/** "Show changes since" of a report type: the partner's own report; a partner's for the administrators. */
function changesCalls(type: "sales" | "pdt" | "filing"): Record<string, MethodEntry> {
  const own = `/template/${type}/changes/`;
  const query = { since: "submission" };
  return {
    [`GET ${own}`]: {
      probe: () => ({ path: own, query }),
      anonymous: UNAUTHORIZED,
      partner: OK,
      otherPartner: {
        label: "partner_id of Borealis in the query",
        probe: (ctx) => ({ path: own, query: { ...query, partner_id: String(ctx.borealis.id) } }),
        ...INVALID,
      },
      staff: API_FORBIDDEN,
      admin: API_FORBIDDEN,
    },
    [`GET ${own}{partnerId}/`]: apiAdminRead((_ctx, t) => ({ path: `${own}${t.partner.id}/`, query })),
  };
}

const API_MATRIX: Record<string, MethodEntry> = {
  // Sign-in, sign-out and passwords.
  "POST /login/": {
    probe: (_ctx, t) => ({ path: "/login/", json: { ...ACCOUNTS[t.actor === "anonymous" ? "cedar" : ACCOUNT_OF[t.actor]] } }),
    anonymous: OK,
    partner: OK,
    otherPartner: {
      label: "Borealis's e-mail with Acme's password",
      probe: () => ({ path: "/login/", json: { email: ACCOUNTS.borealis.email, password: ACCOUNTS.acme.password } }),
      status: 401,
      unchanged: true,
    },
    staff: OK,
    admin: OK,
  },
  "POST /logout/": apiEveryRole(() => ({ path: "/logout/" })),
  "POST /account/update_password/": {
    // The bearer token names the account: a password for it is all the body holds.
    probe: () => ({ path: "/account/update_password/", json: { password: "new-pass-42" } }),
    anonymous: UNAUTHORIZED,
    partner: OK,
    otherPartner: {
      label: "Borealis's e-mail beside the new password",
      probe: () => ({ path: "/account/update_password/", json: { email: ACCOUNTS.borealis.email, password: "new-pass-42" } }),
      ...INVALID,
    },
    staff: OK,
    admin: OK,
  },
  "POST /password_reset/": apiPublic((_ctx, t) => ({
    path: "/password_reset/",
    json: { email: ACCOUNTS[t.actor === "anonymous" ? "cedar" : ACCOUNT_OF[t.actor]].email },
  })),
  "POST /password_reset/validate_token/": apiPublic(
    async (ctx) => ({ path: "/password_reset/validate_token/", json: { token: await createPasswordToken(ctx.userIds.cedar, "reset") } }),
    ok(200, { unchanged: true }),
  ),
  "POST /password_reset/confirm/": apiPublic(async (ctx) => ({
    path: "/password_reset/confirm/",
    json: { token: await createPasswordToken(ctx.userIds.cedar, "reset"), password: "new-pass-42" },
  })),

  // Partners, products, settings, reminders.
  "GET /admin/partner/": apiAdminRead(() => ({ path: "/admin/partner/" })),
  "POST /admin/partner/": apiAdminChange(
    (ctx) => ({
      path: "/admin/partner/",
      json: {
        company_name: "Delta Pharma Ltd",
        email: "contact@delta-pharma.example",
        contact_number: "+919876543210",
        address: "12 Industrial Estate, Hyderabad",
        region: "Asia",
        active_products: [{ product_id: ctx.product.id, status: "UNDER_DEVELOPMENT" }],
        employee: [{ employee_id: 0, first_name: "Asha", last_name: "Rao", contact_number: "+919123456780" }],
      },
    }),
    OK,
  ),
  "GET /admin/partner/{id}/": apiAdminRead((_ctx, t) => ({ path: `/admin/partner/${t.partner.id}/` })),
  // PUT takes the partner back as GET answers it.
  "PUT /admin/partner/{id}/": apiAdminChange(
    async (ctx, t) => ({ path: `/admin/partner/${t.partner.id}/`, json: await readAsAdmin(ctx, `/admin/partner/${t.partner.id}/`) }),
    [
      OK,
      {
        label: "Acme's partner naming a Borealis person's employee_id",
        probe: async (ctx) => {
          const partner = await readAsAdmin(ctx, `/admin/partner/${ctx.acme.id}/`);
          return {
            path: `/admin/partner/${ctx.acme.id}/`,
            json: { ...partner, employee: [{ ...partner.employee[0], employee_id: ctx.borealisPeople[0].id }] },
          };
        },
        status: 200,
        check: borealisPeopleUnchanged,
      },
    ],
  ),
  // The admin deactivates Cedar; the others name Acme, or Borealis.
  "DELETE /admin/partner/{id}/": apiAdminChange((ctx, t) => ({ path: `/admin/partner/${t.actor === "admin" ? ctx.cedarId : t.partner.id}/` }), OK),
  "GET /admin/product/": apiAdminRead(() => ({ path: "/admin/product/" })),
  "POST /admin/product/": apiAdminChange(
    () => ({ path: "/admin/product/", json: { product_name: "Access Matrix 10 mg", category: "FDF", therapy_area: "HIV" } }),
    OK,
  ),
  "GET /admin/product/{id}/": apiAdminRead((ctx) => ({ path: `/admin/product/${ctx.product.id}/` })),
  // PUT takes the product back as GET answers it.
  "PUT /admin/product/{id}/": apiAdminChange(
    async (ctx) => ({
      path: `/admin/product/${ctx.product.id}/`,
      json: { ...(await readAsAdmin(ctx, `/admin/product/${ctx.product.id}/`)), product_name: `${ctx.product.name} tablets` },
    }),
    OK,
  ),
  "DELETE /admin/product/{id}/": apiAdminChange((ctx) => ({ path: `/admin/product/${ctx.product.id}/` }), OK),
  "POST /admin/product_detail/": apiAdminQuery((ctx, t) => ({
    path: "/admin/product_detail/",
    json: { product_name: ctx.product.name, partner_id: t.partner.id },
  })),
  "GET /template/product_verification/{partnerId}": apiAdminRead((_ctx, t) => ({ path: `/template/product_verification/${t.partner.id}` })),
  "POST /template/product_verification/{partnerId}": apiAdminChange(
    (ctx, t) => ({ path: `/template/product_verification/${t.partner.id}`, json: { product_verification_id: ctx.acmeVerificationId, is_approved: false } }),
    [
      OK,
      {
        label: "Acme's product verification under Borealis's path",
        probe: (ctx) => ({
          path: `/template/product_verification/${ctx.borealis.id}`,
          json: { product_verification_id: ctx.acmeVerificationId, is_approved: false },
        }),
        status: 404,
        unchanged: true,
      },
    ],
  ),
  "GET /admin/cut_off_date/": apiAdminRead(() => ({ path: "/admin/cut_off_date/" })),
  "POST /admin/cut_off_date/": apiAdminChange((ctx) => ({ path: "/admin/cut_off_date/", json: { cut_off_date: ctx.cutOffDate } }), OK),
  "POST /template/reminder/": apiAdminChange(
    (ctx, t) => ({ path: "/template/reminder/", json: { partner_id: t.actor === "admin" ? ctx.cedarId : t.partner.id, template_type: "sales" } }),
    OK,
  ),
  "POST /template/bulkReminder/": apiAdminChange(
    (ctx, t) => ({ path: "/template/bulkReminder/", json: { partner_ids: [t.actor === "admin" ? ctx.cedarId : t.partner.id], template_type: "sales" } }),
    OK,
  ),
  "GET /country_list/": apiEveryRole(() => ({ path: "/country_list/" })),
  // A partner reads its own terms only.
  "GET /licence_terms/{partnerId}": {
    probe: (_ctx, t) => ({ path: `/licence_terms/${t.partner.id}` }),
    anonymous: UNAUTHORIZED,
    partner: ok(200, { check: (answer, ctx) => expect((answer as ApiAnswer).body.partner_id).toBe(ctx.acme.id) }),
    otherPartner: API_FORBIDDEN,
    staff: OK,
    admin: OK,
  },
  // PUT takes the terms back as GET answers them.
  "PUT /licence_terms/{partnerId}": apiAdminChange(
    async (ctx, t) => {
      const terms = await readAsAdmin(ctx, `/licence_terms/${t.partner.id}`);
      return {
        path: `/licence_terms/${t.partner.id}`,
        json: { ...terms, products: [{ ...terms.products[0], royalty_rate: "4.5" }, ...terms.products.slice(1)] },
      };
    },
    [
      OK,
      {
        label: "a Borealis product in Acme's terms",
        probe: async (ctx) => {
          const terms = await readAsAdmin(ctx, `/licence_terms/${ctx.acme.id}`);
          const borealisProduct = { product_id: ctx.borealis.filing.productId, royalty_rate: "1", api_licensed: false, countries: [] };
          return { path: `/licence_terms/${ctx.acme.id}`, json: { ...terms, products: [...terms.products, borealisProduct] } };
        },
        ...INVALID,
      },
    ],
  ),
  "GET /partner/dashboard/": {
    probe: (ctx, t) => ({ path: "/partner/dashboard/", query: t.actor === "otherPartner" ? { partner_id: String(ctx.borealis.id) } : undefined }),
    anonymous: UNAUTHORIZED,
    partner: ok(200, { check: acmeDashboard }),
    otherPartner: ok(200, { check: acmeDashboard }),
    staff: API_FORBIDDEN,
    admin: API_FORBIDDEN,
  },

  // The three reports. Acme's open quarter: the timeline Submitted (a submission without changes
  // is refused, an administrator approves it), Filing Plans Rejected and Sales Saved (submitted
  // again; nothing there to decide).
  ...templateCalls("pdt", { submit: CONFLICT(WORKFLOW_REFUSALS.alreadySubmitted), decide: OK }),
  ...templateCalls("filing", { submit: OK, decide: CONFLICT(WORKFLOW_REFUSALS.notSubmitted) }),
  ...templateCalls("sales", { submit: OK, decide: CONFLICT(WORKFLOW_REFUSALS.notSubmitted) }),
  // The Sales Report's checks: the partner's own (without peer figures), a partner's for the administrators.
  "GET /template/sales/checks/": {
    probe: () => ({ path: "/template/sales/checks/" }),
    anonymous: UNAUTHORIZED,
    partner: OK,
    otherPartner: {
      label: "partner_id of Borealis in the query",
      probe: (ctx) => ({ path: "/template/sales/checks/", query: { partner_id: String(ctx.borealis.id) } }),
      ...INVALID,
    },
    staff: API_FORBIDDEN,
    admin: API_FORBIDDEN,
  },
  "GET /template/sales/checks/{partnerId}/": apiAdminRead((_ctx, t) => ({ path: `/template/sales/checks/${t.partner.id}/` })),
  // The partner's reasons for its Sales Report's changes to explain: its own report only, never the administrators'.
  "PUT /template/sales/explanations/": {
    probe: () => ({ path: "/template/sales/explanations/", json: { reasons: [] } }),
    anonymous: UNAUTHORIZED,
    partner: OK,
    otherPartner: {
      label: "partner_id of Borealis in the body",
      probe: (ctx) => ({ path: "/template/sales/explanations/", json: { reasons: [], partner_id: ctx.borealis.id } }),
      ...INVALID,
    },
    staff: API_FORBIDDEN,
    admin: API_FORBIDDEN,
  },
  ...threadCalls("sales", (t) => ({ table: "API", row_id: Number(t.partner.sales.apiRow.id), body: "Check this row." })),
  ...threadCalls("pdt", (t) => ({ table: "PDT", row_id: t.partner.pdt.rowId, body: "Check this stage." })),
  ...threadCalls("filing", (t) => ({ table: "Filing", row_id: t.partner.filing.cellId, body: "Check this filing." })),
  ...changesCalls("pdt"),
  ...changesCalls("filing"),
  ...changesCalls("sales"),
  // The royalty statement: the partner's own, a partner's for the administrators.
  "GET /template/sales/royalty_statement/": {
    probe: () => ({ path: "/template/sales/royalty_statement/" }),
    anonymous: UNAUTHORIZED,
    partner: ok(200, { check: (answer, ctx) => expect((answer as ApiAnswer).body.partner.id).toBe(ctx.acme.id) }),
    otherPartner: {
      label: "partner_id of Borealis in the query",
      probe: (ctx) => ({ path: "/template/sales/royalty_statement/", query: { partner_id: String(ctx.borealis.id) } }),
      ...INVALID,
    },
    staff: API_FORBIDDEN,
    admin: API_FORBIDDEN,
  },
  "GET /template/sales/royalty_statement/{partnerId}/": apiAdminRead((_ctx, t) => ({ path: `/template/sales/royalty_statement/${t.partner.id}/` })),

  // Consolidated reports: reads made with POST.
  "POST /report/pdt/": apiAdminQuery(() => ({ path: "/report/pdt/", json: { page_number: 1 } })),
  "POST /report/pdt/download/": apiAdminQuery(() => ({ path: "/report/pdt/download/", json: {} })),
  "POST /report/filing/": apiAdminQuery(() => ({ path: "/report/filing/", json: { page_number: 1 } })),
  "POST /report/filing/download/": apiAdminQuery(() => ({ path: "/report/filing/download/", json: {} })),
  "POST /report/sales/{x}": apiAdminQuery(() => ({ path: "/report/sales/fdf", json: { page_number: 1 } })),
  "POST /report/sales/download/{x}": apiAdminQuery(() => ({ path: "/report/sales/download/api", json: {} })),

  // The administrators' dashboard.
  "GET /admin/dashboard/sales/": apiAdminRead(() => ({ path: "/admin/dashboard/sales/", query: { map_with: "product", for: "company" } })),
  "GET /admin/dashboard/project/": apiAdminRead(() => ({ path: "/admin/dashboard/project/" })),
  "GET /admin/dashboard/product/company/": apiAdminRead(() => ({ path: "/admin/dashboard/product/company/" })),
  "GET /admin/dashboard/company/": apiAdminRead(() => ({ path: "/admin/dashboard/company/" })),
  "GET /admin/dashboard/product/country/": apiAdminRead(() => ({ path: "/admin/dashboard/product/country/", query: { status: "Filed" } })),
  "GET /admin/dashboard/product/country/quarter/": apiAdminRead(() => ({ path: "/admin/dashboard/product/country/quarter/" })),
  "GET /admin/dashboard/country/": apiAdminRead(() => ({ path: "/admin/dashboard/country/", query: { type: "Filed" } })),
  "GET /admin/dashboard/": apiAdminRead(() => ({ path: "/admin/dashboard/", query: { type: "not-submitted" } })),
};

/** The partner dashboard's answer is Acme's: its reports' states. */
async function acmeDashboard(answer: PageAnswer | ApiAnswer, ctx: Ctx) {
  const { tiles } = await partnerGuidance(ctx.acme.id);
  expect((answer as ApiAnswer).body.template_data.map((tile: { report_status: string }) => tile.report_status)).toEqual(tiles.map((tile) => tile.state));
}

// ---------------------------------------------------------------- running the matrix

const casesOf = (cases: Cases): Case[] => (Array.isArray(cases) ? cases : [cases]);

let requestsChecked = 0;
const pairsChecked = new Set<string>();
const routesChecked = new Set<string>();
const callsChecked = new Set<string>();

/**
 * An entry's cases in the order they run: refusals first (each must leave the database as it
 * was), then the requests that may change it, so that an allowed change cannot hide a refusal.
 */
function orderedCases(entry: MethodEntry): { actor: Actor; case: Case }[] {
  const all = ACTORS.flatMap((actor) => casesOf(entry[actor]).map((item) => ({ actor, case: item })));
  return [...all.filter((item) => writesNothing(item.case, true)), ...all.filter((item) => !writesNothing(item.case, true))];
}

/** A read writes nothing, whoever asks; nor does a refused change; unless it ends the caller's session. */
const writesNothing = (item: Case, mutation: boolean) => !item.endsSession && (!mutation || Boolean(item.unchanged || item.refusal) || item.status >= 400);

/** No request of the entry may change the database: it can share a fresh one with other such entries. */
const readOnly = (entry: MethodEntry, mutation: boolean) => orderedCases(entry).every((item) => writesNothing(item.case, mutation));

/** `{acme}` in an expected Location stands for Acme's id. */
const expand = (text: string, ctx: Ctx) => text.replaceAll("{acme}", String(ctx.acme.id));

/**
 * The actors' sign-ins during one test, one per account: a session cookie or a bearer token,
 * made again after any request that may have ended or locked it (an allowed change).
 */
class SignIns {
  private readonly made = new Map<string, Promise<string>>();
  constructor(private readonly signIn: (account: keyof typeof ACCOUNTS) => Promise<string>) {}

  get(actor: Actor): Promise<string | undefined> {
    if (actor === "anonymous") return Promise.resolve(undefined);
    const account = ACCOUNT_OF[actor];
    if (!this.made.has(account)) this.made.set(account, this.signIn(account));
    return this.made.get(account)!;
  }

  forget() {
    this.made.clear();
  }
}

const sessions = () => new SignIns((account) => sessionCookieFor(ACCOUNTS[account].email));
const tokens = () => new SignIns(async (account) => (await issueApiToken((await context()).userIds[account])).token);

function pageRequest(probe: Probe, cookie: string | undefined, method: "GET" | "POST") {
  const headers = new Headers();
  if (cookie) headers.set("Cookie", cookie);
  let body: string | undefined;
  if (method === "POST") {
    if (probe.json !== undefined) {
      headers.set("Content-Type", "application/json");
      body = JSON.stringify(probe.json);
    } else {
      headers.set("Content-Type", "application/x-www-form-urlencoded");
      body = new URLSearchParams(probe.form ?? {}).toString();
    }
  }
  return new Request(`http://localhost${probe.path}`, { method, headers, body });
}

/**
 * Runs an entry's cases: each answer as expected, and no row written where nothing may change.
 * A case that fails is reported and the others still run, so one run shows every wrong answer.
 */
async function runEntry(
  entry: MethodEntry,
  mutation: boolean,
  name: string,
  signIns: SignIns,
  send: (probe: Probe, credential: string | undefined) => Promise<PageAnswer | (ApiAnswer & { summary: string })>,
) {
  const ctx = await context();
  for (const { actor, case: expected } of orderedCases(entry)) {
    const target: Target = { actor, partner: actor === "otherPartner" ? ctx.borealis : ctx.acme };
    let what = `${name} as ${actor}${expected.label ? `, ${expected.label}` : ""}`;
    try {
      const probe = await (expected.probe ?? entry.probe)(ctx, target);
      what = `${what} (${probe.path})`;
      const watch = writesNothing(expected, mutation);
      const credential = await signIns.get(actor);
      if (watch) await takeWrittenTables();
      const answer = await send(probe, credential);
      const message = "data" in answer ? (answer.data?.message ?? answer.data?.detail) : answer.body?.detail;
      expect.soft(answer.status, `${what}: ${answer.summary}`).toBe(expected.status);
      if (expected.location !== undefined) expect.soft(answer.headers.get("Location"), `${what}: Location`).toBe(expand(expected.location, ctx));
      if (expected.message !== undefined) expect.soft(message, `${what}: message`).toBe(expected.message);
      if (watch) expect.soft(await takeWrittenTables(), `${what}: tables written`).toEqual([]);
      // An allowed change may have ended or locked the sessions and tokens of its account.
      else if (mutation || expected.endsSession) signIns.forget();
      await expected.check?.(answer, ctx);
    } catch (error) {
      // A loader, action or call that throws is a 500; a failed check is reported the same way.
      expect.soft(error instanceof Error ? (error.stack ?? error.message) : String(error), `${what}: threw`).toBe("");
    }
    requestsChecked += 1;
    pairsChecked.add(`${name} ${actor}`);
  }
}

/** A route's loader, then its action. */
async function runRoute(route: AppRoute, entry: RouteEntry) {
  const signIns = sessions();
  for (const method of ["loader", "action"] as const) {
    const methodEntry = entry[method];
    if (!methodEntry) continue;
    const handler = route.module[method] as RouteHandler;
    const verb = method === "loader" ? "GET" : "POST";
    await runEntry(methodEntry, method === "action", `${verb} ${route.id}`, signIns, async (probe, cookie) => {
      const params = paramsFor(route, probe.path);
      expect(params, `${verb} ${probe.path} is a path of ${route.id} (${route.pattern})`).not.toBeNull();
      return runHandler(handler, pageRequest(probe, cookie, verb), params!, testContext());
    });
  }
  routesChecked.add(route.id);
}

const ROUTES = appRoutes();

describe("access matrix: pages", () => {
  it("every route module has an entry, with its loader and action, and every entry names a route module", () => {
    const missing: string[] = [];
    const extra: string[] = [];
    for (const route of ROUTES) {
      const entry = PAGE_MATRIX[route.id];
      if (!entry) {
        missing.push(`${route.id} (app/${route.file}): no entry`);
        continue;
      }
      for (const method of ["loader", "action"] as const) {
        if (route.module[method] && !entry[method]) missing.push(`${route.id}: its ${method} has no entry`);
        if (!route.module[method] && entry[method]) extra.push(`${route.id}: the entry has a ${method}, the module none`);
      }
    }
    for (const id of Object.keys(PAGE_MATRIX)) if (!ROUTES.some((route) => route.id === id)) extra.push(`${id}: no such route`);
    expect(missing, "routes without an entry in the matrix").toEqual([]);
    expect(extra, "entries without a route").toEqual([]);
  });

  // A route that may change the database has a test (and a fresh database) of its own; the
  // routes that only read share one per area.
  const reads = new Map<string, { route: AppRoute; entry: RouteEntry }[]>();
  for (const route of ROUTES) {
    const entry = PAGE_MATRIX[route.id];
    if (!entry) continue;
    if ((!entry.loader || readOnly(entry.loader, false)) && (!entry.action || readOnly(entry.action, true))) {
      const area = ["/admin", "/partner"].find((prefix) => route.pattern.startsWith(prefix)) ?? "the other paths";
      reads.set(area, [...(reads.get(area) ?? []), { route, entry }]);
      continue;
    }
    const methods = [entry.loader && "GET", entry.action && "POST"].filter(Boolean).join(", ");
    it(`${methods} ${route.pattern} (${route.id})`, () => runRoute(route, entry));
  }
  for (const [area, routes] of reads) {
    it(`the ${routes.length} routes under ${area} that only read`, async () => {
      for (const { route, entry } of routes) await runRoute(route, entry);
    });
  }
});

/** `/admin/partner/{id}/` as a pattern, as the dispatcher reads it. */
const callPattern = (path: string) =>
  new RegExp(
    `^${path
      .replace(/\/$/, "")
      .split("/")
      .map((segment) => (/^\{\w+\}$/.test(segment) ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/")}/?$`,
  );

async function runCall(key: string, entry: MethodEntry) {
  const [method, path] = key.split(" ");
  const pattern = callPattern(path);
  await runEntry(entry, method !== "GET", key, tokens(), async (probe, token) => {
    expect(probe.path, `${key}: the probe's path is the call's`).toMatch(pattern);
    const answer = await callApi(method, probe.path, { token, body: probe.json, query: probe.query });
    expectDocumented(method, path, answer);
    const body = answer.body instanceof Uint8Array ? `(${answer.headers.get("Content-Type")}, ${answer.body.length} bytes)` : JSON.stringify(answer.body);
    return { ...answer, summary: `${answer.status} ${body.length > 300 ? `${body.slice(0, 300)}…` : body}` };
  });
  callsChecked.add(key);
}

const CALL_KEYS = API_CALLS.map((call) => `${call.method} ${call.path}`);

describe("access matrix: JSON API", () => {
  it("every call has an entry, and every entry names a call", () => {
    expect(
      CALL_KEYS.filter((key) => !API_MATRIX[key]),
      "calls without an entry in the matrix",
    ).toEqual([]);
    expect(
      Object.keys(API_MATRIX).filter((key) => !CALL_KEYS.includes(key)),
      "entries without a call",
    ).toEqual([]);
  });

  const reads = new Map<string, string[]>();
  for (const key of CALL_KEYS) {
    const entry = API_MATRIX[key];
    if (!entry) continue;
    const [method, path] = key.split(" ");
    if (readOnly(entry, method !== "GET")) {
      // The proofs of submission (PDFs drawn by Chromium, slower than the other reads) share a test of their own.
      const area = path.includes("/submissions/")
        ? "/template/{kind}/submissions/"
        : (["/admin/", "/report/", "/template/"].find((prefix) => path.startsWith(prefix)) ?? "the other paths");
      reads.set(area, [...(reads.get(area) ?? []), key]);
    } else it(key, () => runCall(key, entry));
  }
  for (const [area, keys] of reads) {
    it(`the ${keys.length} calls under ${area} that only read`, async () => {
      for (const key of keys) await runCall(key, API_MATRIX[key]);
    });
  }
});

beforeAll(startNotingWrites);

afterAll(async () => {
  await stopNotingWrites();
  console.log(
    `access matrix: ${routesChecked.size} routes and ${callsChecked.size} API calls, ${pairsChecked.size} (route or call, method, actor) cases, ${requestsChecked} requests checked`,
  );
});

/**
 * Hostile page queries: every GET route of the app (as the role that may open it) gets each query
 * parameter it reads with a NUL, another control character and a lone surrogate (UTF-8 encoded,
 * and as URLSearchParams writes one), and must answer as it does without that parameter: the
 * same status and redirect, never a 500. A NUL or control character can be no filter, so the
 * page's data is then exactly the data without the parameter (nothing of it echoed back into a
 * filter box); a surrogate arrives as U+FFFD, an ordinary character, and only has to be answered
 * without an error.
 *
 * The table names, for each route, its path, who opens it and the parameters it reads. A route
 * without an entry fails, and so does a parameter the loader reads (seen while it answers the
 * plain request) that its entry does not name.
 *
 * Run: npx vitest run --project integration tests/integration/hostile-page-queries.test.ts
 */
import { isDeepStrictEqual } from "node:util";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { partners, products, users } from "~/db/schema";
import { filingQuerySchema } from "~/reports/filing/consolidated.server";
import { pdtQuerySchema } from "~/reports/pdt/consolidated.server";
import { salesConsolidatedQuery } from "~/reports/sales/consolidated.server";
import { performanceQuerySchema } from "~/models/partner-performance.server";
import { createPasswordToken } from "~/models/password-token.server";
import { dashboardQuery } from "~/reports/dashboard/query";
import { CONTROL_CHARACTERS, LONE_SURROGATE } from "~/utils/text-rules";
import { appRoutes, paramsFor, runHandler, type PageAnswer, type RouteHandler } from "../support/access-matrix";
import { sessionCookieFor, testContext } from "../support/remix";

type Role = "anonymous" | "partner" | "admin";
const EMAIL: Record<Exclude<Role, "anonymous">, string> = { partner: "partner1@example.org", admin: "admin@example.org" };

interface Ctx {
  acme: number;
  productId: number;
  /** Makes a password link of Cedar's. */
  token: () => Promise<string>;
}

interface Entry {
  role: Role;
  path: string | ((ctx: Ctx) => string | Promise<string>);
  /** The query parameters the loader reads. */
  params: readonly string[];
}

const keysOf = (schema: { shape: object }) => Object.keys(schema.shape);

const ROOT = ["lng", "theme", "nav-style", "layout-type"];
const PARTNER_LIST = ["q", "sort", "dir", "status", "report", "state", "page"];
const PRODUCT_LIST = ["sort", "dir", "category", "status"];
const SALES_SCREEN = ["quarter", "tab", "page", "changes", "comment"];
const REPORT_SCREEN = ["quarter", "page", "changes", "comment"];
const WORKBOOK = ["quarter"];

const admin = (path: Entry["path"], params: readonly string[] = []): Entry => ({ role: "admin", path, params });
const partner = (path: string, params: readonly string[] = []): Entry => ({ role: "partner", path, params });
const anonymous = (path: Entry["path"], params: readonly string[] = []): Entry => ({ role: "anonymous", path, params });

const TABLE: Record<string, Entry> = {
  root: anonymous("/login", ROOT),
  "routes/$": anonymous("/no-such-page"),
  "routes/_index": anonymous("/"),
  "routes/_shell": partner("/change-password"),
  "routes/_shell.admin": admin("/admin/dashboard"),
  "routes/_shell.admin.add-partner": admin("/admin/add-partner"),
  "routes/_shell.admin.add-product": admin("/admin/add-product", ["name", "category", "therapyArea"]),
  "routes/_shell.admin.dashboard": admin("/admin/dashboard", keysOf(dashboardQuery)),
  "routes/_shell.admin.development-timeline.$id": admin((ctx) => `/admin/development-timeline/${ctx.acme}`, REPORT_SCREEN),
  "routes/_shell.admin.edit-partner.$id": admin((ctx) => `/admin/edit-partner/${ctx.acme}`),
  "routes/_shell.admin.edit-product.$product_id": admin((ctx) => `/admin/edit-product/${ctx.productId}`),
  "routes/_shell.admin.filing-plans.$id": admin((ctx) => `/admin/filing-plans/${ctx.acme}`, REPORT_SCREEN),
  "routes/_shell.admin.licence-terms.$id": admin((ctx) => `/admin/licence-terms/${ctx.acme}`),
  "routes/_shell.admin.partner-list": admin("/admin/partner-list", PARTNER_LIST),
  "routes/_shell.admin.partner-list_.deactivate.$id": admin((ctx) => `/admin/partner-list/deactivate/${ctx.acme}`, PARTNER_LIST),
  "routes/_shell.admin.partner-list_.remind-everyone": admin("/admin/partner-list/remind-everyone", PARTNER_LIST),
  "routes/_shell.admin.partner-performance": admin("/admin/partner-performance", keysOf(performanceQuerySchema)),
  "routes/_shell.admin.product-list": admin("/admin/product-list", PRODUCT_LIST),
  "routes/_shell.admin.product-list_.deactivate.$product_id": admin((ctx) => `/admin/product-list/deactivate/${ctx.productId}`, PRODUCT_LIST),
  "routes/_shell.admin.profile": admin("/admin/profile"),
  "routes/_shell.admin.report.development-timeline": admin("/admin/report/development-timeline", keysOf(pdtQuerySchema)),
  "routes/_shell.admin.report.filing-plans": admin("/admin/report/filing-plans", keysOf(filingQuerySchema)),
  "routes/_shell.admin.report.sales-report": admin("/admin/report/sales-report", keysOf(salesConsolidatedQuery)),
  "routes/_shell.admin.sales-report.$id": admin((ctx) => `/admin/sales-report/${ctx.acme}`, SALES_SCREEN),
  "routes/_shell.admin.settings": admin("/admin/settings"),
  "routes/_shell.change-password": partner("/change-password"),
  "routes/_shell.partner": partner("/partner/dashboard"),
  "routes/_shell.partner.dashboard": partner("/partner/dashboard"),
  "routes/_shell.partner.development-timeline": partner("/partner/development-timeline", REPORT_SCREEN),
  "routes/_shell.partner.filing-plans": partner("/partner/filing-plans", REPORT_SCREEN),
  "routes/_shell.partner.licence-terms": partner("/partner/licence-terms"),
  "routes/_shell.partner.profile": partner("/partner/profile"),
  "routes/_shell.partner.sales-report": partner("/partner/sales-report", SALES_SCREEN),
  "routes/admin.dashboard.$table.csv": admin("/admin/dashboard/product-company-sales/csv", keysOf(dashboardQuery)),
  "routes/admin.dashboard.$table.xlsx": admin("/admin/dashboard/product-company-sales/xlsx", keysOf(dashboardQuery)),
  "routes/admin.dashboard.world-map[.]svg": admin("/admin/dashboard/world-map.svg"),
  "routes/admin.development-timeline.$id.template[.]xlsx": admin((ctx) => `/admin/development-timeline/${ctx.acme}/template.xlsx`, WORKBOOK),
  "routes/admin.development-timeline.$id.xlsx": admin((ctx) => `/admin/development-timeline/${ctx.acme}/xlsx`, WORKBOOK),
  "routes/admin.filing-plans.$id.template[.]xlsx": admin((ctx) => `/admin/filing-plans/${ctx.acme}/template.xlsx`, WORKBOOK),
  "routes/admin.filing-plans.$id.xlsx": admin((ctx) => `/admin/filing-plans/${ctx.acme}/xlsx`, WORKBOOK),
  "routes/admin.partner-performance.csv": admin("/admin/partner-performance/csv", keysOf(performanceQuerySchema)),
  "routes/admin.partner-performance.xlsx": admin("/admin/partner-performance/xlsx", keysOf(performanceQuerySchema)),
  "routes/admin.reminders": admin("/admin/reminders"),
  "routes/admin.report.development-timeline.csv": admin("/admin/report/development-timeline/csv", keysOf(pdtQuerySchema)),
  "routes/admin.report.development-timeline.xlsx": admin("/admin/report/development-timeline/xlsx", keysOf(pdtQuerySchema)),
  "routes/admin.report.filing-plans.csv": admin("/admin/report/filing-plans/csv", keysOf(filingQuerySchema)),
  "routes/admin.report.filing-plans.xlsx": admin("/admin/report/filing-plans/xlsx", keysOf(filingQuerySchema)),
  "routes/admin.report.sales-report.csv": admin("/admin/report/sales-report/csv", keysOf(salesConsolidatedQuery)),
  "routes/admin.report.sales-report.xlsx": admin("/admin/report/sales-report/xlsx", keysOf(salesConsolidatedQuery)),
  "routes/admin.sales-report.$id.template[.]xlsx": admin((ctx) => `/admin/sales-report/${ctx.acme}/template.xlsx`, WORKBOOK),
  "routes/admin.sales-report.$id.xlsx": admin((ctx) => `/admin/sales-report/${ctx.acme}/xlsx`, WORKBOOK),
  "routes/admin.sales-report.$id.royalty-statement[.]csv": admin((ctx) => `/admin/sales-report/${ctx.acme}/royalty-statement.csv`, WORKBOOK),
  "routes/admin.sales-report.$id.royalty-statement[.]xlsx": admin((ctx) => `/admin/sales-report/${ctx.acme}/royalty-statement.xlsx`, WORKBOOK),
  // The JSON API refuses these itself (tests/integration/hostile-api.test.ts); without a token it reads no query.
  "routes/api.$": anonymous("/api/country_list/"),
  "routes/api.docs": anonymous("/api/docs"),
  "routes/api.openapi[.]json": anonymous("/api/openapi.json"),
  "routes/error-404": anonymous("/error-404"),
  "routes/language": anonymous("/language"),
  "routes/lock-screen": partner("/lock-screen"),
  "routes/login": anonymous("/login"),
  "routes/logout": partner("/logout"),
  "routes/partner.development-timeline.template[.]xlsx": partner("/partner/development-timeline/template.xlsx", WORKBOOK),
  "routes/partner.development-timeline.xlsx": partner("/partner/development-timeline/xlsx", WORKBOOK),
  "routes/partner.filing-plans.template[.]xlsx": partner("/partner/filing-plans/template.xlsx", WORKBOOK),
  "routes/partner.filing-plans.xlsx": partner("/partner/filing-plans/xlsx", WORKBOOK),
  "routes/partner.sales-report.template[.]xlsx": partner("/partner/sales-report/template.xlsx", WORKBOOK),
  "routes/partner.sales-report.xlsx": partner("/partner/sales-report/xlsx", WORKBOOK),
  "routes/reset-password": anonymous("/reset-password"),
  "routes/set-password.$token": anonymous(async (ctx) => `/set-password/${await ctx.token()}`),
  // It reads no query: the same answer with any (the seed takes no snapshot, so the not-found page either way).
  "routes/submissions.$snapshotId.pdf": admin(() => "/submissions/1/pdf"),
};

/** A hostile value as it stands in the query string (already encoded), and whether it can be no filter at all. */
const HOSTILE: { label: string; encoded: (name: string) => string; unusable: boolean }[] = [
  { label: "a NUL", encoded: (name) => `${encodeURIComponent(name)}=%00`, unusable: true },
  { label: "a NUL inside a value", encoded: (name) => `${encodeURIComponent(name)}=Q3%002026`, unusable: true },
  { label: "a control character (U+001F)", encoded: (name) => `${encodeURIComponent(name)}=%1F`, unusable: true },
  { label: "a lone surrogate, UTF-8 encoded", encoded: (name) => `${encodeURIComponent(name)}=%ED%A0%80`, unusable: false },
  { label: "a lone surrogate through URLSearchParams", encoded: (name) => new URLSearchParams([[name, "\ud800"]]).toString(), unusable: false },
];

/** Texts in a loader's data that no page may show: a control character or half a surrogate pair. */
function brokenTexts(value: unknown, path = "data", found: string[] = []): string[] {
  if (typeof value === "string") {
    if (CONTROL_CHARACTERS.test(value) || LONE_SURROGATE.test(value)) found.push(`${path}: ${JSON.stringify(value)}`);
  } else if (Array.isArray(value)) value.forEach((item, index) => brokenTexts(item, `${path}[${index}]`, found));
  else if (value && typeof value === "object") for (const [key, item] of Object.entries(value)) brokenTexts(item, `${path}.${key}`, found);
  return found;
}

/** A parameter no loader reads: it marks the query string whose reads are noted. */
const MARK = "hostile-page-queries";

/**
 * The query parameters read of a query string that holds MARK while `run` answers: every name
 * asked, and `*` when it is read whole (iterated). Patched on the prototype for the call only
 * (the loaders build their own URLSearchParams from the request's URL).
 */
async function paramsReadBy<T>(run: () => Promise<T>): Promise<{ result: T; read: Set<string> }> {
  const read = new Set<string>();
  const proto = URLSearchParams.prototype;
  const saved = { get: proto.get, getAll: proto.getAll, has: proto.has, entries: proto.entries, forEach: proto.forEach, iterator: proto[Symbol.iterator] };
  const note = (params: URLSearchParams, name: string) => {
    if (saved.has.call(params, MARK) && name !== MARK) read.add(name);
  };
  proto.get = function (name: string) {
    note(this, name);
    return saved.get.call(this, name);
  };
  proto.getAll = function (name: string) {
    note(this, name);
    return saved.getAll.call(this, name);
  };
  proto.has = function (name: string, value?: string) {
    note(this, name);
    return value === undefined ? saved.has.call(this, name) : saved.has.call(this, name, value);
  };
  proto.entries = function () {
    note(this, "*");
    return saved.entries.call(this);
  };
  proto.forEach = function (...args: Parameters<URLSearchParams["forEach"]>) {
    note(this, "*");
    return saved.forEach.apply(this, args);
  };
  proto[Symbol.iterator] = function () {
    note(this, "*");
    return saved.iterator.call(this);
  };
  try {
    return { result: await run(), read };
  } finally {
    Object.assign(proto, { get: saved.get, getAll: saved.getAll, has: saved.has, entries: saved.entries, forEach: saved.forEach });
    proto[Symbol.iterator] = saved.iterator;
  }
}

async function context(): Promise<Ctx> {
  const [acme] = await db.select({ id: partners.id }).from(partners).where(eq(partners.email, EMAIL.partner));
  const [product] = await db.select({ id: products.id }).from(products).where(eq(products.name, "Dolutegravir 50 mg"));
  const [cedar] = await db.select({ id: users.id }).from(users).where(eq(users.email, "partner3@example.org"));
  return { acme: acme.id, productId: product.id, token: () => createPasswordToken(cedar.id, "reset") };
}

const ROUTES = appRoutes().filter((route) => route.module.loader);

/** Data as the page receives it (JSON: no undefined keys). */
const asJson = (value: unknown) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

/** What a page answered, without what differs from one request to the next. */
const comparable = (answer: PageAnswer) => ({ status: answer.status, location: answer.location });

describe("hostile page queries", () => {
  it("every route with a loader has an entry, and every entry names such a route", () => {
    const ids = ROUTES.map((route) => route.id);
    expect(
      ids.filter((id) => !TABLE[id]),
      "routes without an entry in hostile-page-queries.test.ts",
    ).toEqual([]);
    expect(
      Object.keys(TABLE).filter((id) => !ids.includes(id)),
      "entries that are no route with a loader",
    ).toEqual([]);
  });

  it.each(ROUTES.filter((route) => TABLE[route.id]).map((route) => [route.id, route] as const))("%s", async (_id, route) => {
    const entry = TABLE[route.id];
    const ctx = await context();
    const cookie = entry.role === "anonymous" ? undefined : await sessionCookieFor(EMAIL[entry.role]);
    const base = typeof entry.path === "string" ? entry.path : await entry.path(ctx);
    const params = paramsFor(route, base);
    expect(params, `${base} is a path of ${route.id} (${route.pattern})`).not.toBeNull();
    const ask = async (path: string) => {
      const request = new Request(`http://localhost${path}`, { headers: cookie ? { Cookie: cookie } : {} });
      return runHandler(route.module.loader as RouteHandler, request, params!, testContext());
    };

    const pathOf = (query: string) => `${base}${query ? `?${query}` : ""}`;

    const plain = await ask(pathOf(""));
    expect(plain.status, `${base} without a query: ${plain.summary}`).toBeLessThan(500);
    const { read } = await paramsReadBy(() => ask(pathOf(`${MARK}=1`)));
    expect([...read].filter((name) => !entry.params.includes(name)).sort(), `query parameters ${route.id} reads that its entry does not name`).toEqual([]);

    const failures: string[] = [];
    for (const name of entry.params) {
      // What the route answers to a value that means nothing: a surrogate, read as U+FFFD, is one more.
      const ordinary = await ask(pathOf(`${encodeURIComponent(name)}=no-such-value`));
      for (const hostile of HOSTILE) {
        const query = hostile.encoded(name);
        const what = `?${query}`;
        let answer: PageAnswer;
        try {
          answer = await ask(pathOf(query));
        } catch (error) {
          failures.push(`${what}: threw (a 500): ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`);
          continue;
        }
        if (answer.status >= 500) {
          failures.push(`${what}: ${answer.summary}`);
          continue;
        }
        const [like, as] = hostile.unusable ? [plain, "without it"] : [ordinary, `to ?${name}=no-such-value`];
        if (JSON.stringify(comparable(answer)) !== JSON.stringify(comparable(like))) {
          failures.push(`${what}: ${answer.summary.slice(0, 200)}, not ${like.summary.slice(0, 120)} as ${as}`);
          continue;
        }
        const broken = brokenTexts(answer.data);
        if (broken.length) failures.push(`${what}: the page shows ${broken.slice(0, 3).join(", ")}`);
        else if (hostile.unusable && !isDeepStrictEqual(asJson(answer.data), asJson(plain.data))) {
          failures.push(`${what}: the page differs from the page without it: ${answer.summary.slice(0, 200)}`);
        }
      }
    }
    expect(failures.join("\n"), `${route.id} (${base})`).toBe("");
  });
});

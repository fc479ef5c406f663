/**
 * The Sales Report's stored checks (issue 32, "Where findings live"): the partners' mean prices the
 * peer rule reads, and each report's open findings, kept by jobs sent in the transaction of the
 * change (a Sales save, a licence-terms save, another partner's save moving a median), and shown
 * and sorted in the admin partner list and the dashboard Summary. Figures worked out by hand below.
 *
 * The fixture (open quarter, Dolutegravir 50 mg, prices per pack in USD):
 *   Acme      licence 5%, Kenya 3%; Filing Plans: Registered in Kenya and India (nothing for Brazil);
 *             project status Approved. Its rows come with its save (acmeSaves).
 *   Borealis  its Approved report without rows: 0 findings.
 *   Cedar     no Sales Report: no count.
 *   Delta     a new partner, one Kenya row at 11 (no licence, no other report).
 *   Echo      a new partner, one Kenya row at 13.
 */
import { parse } from "csv-parse/sync";
import { and, eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import {
  countries,
  employees,
  filingValues,
  licenceCountryTerms,
  licenceTerms,
  partnerProducts,
  partners,
  products,
  reportCheckCounts,
  reports,
  salesPriceMeans,
  salesRows,
  users,
} from "~/db/schema";
import { openJobQueue, type ChecksScope } from "~/jobs/queue.server";
import { startWorker } from "~/jobs/worker.server";
import { saveLicenceTerms } from "~/licences/licences.server";
import { updatePartner } from "~/models/partner.server";
import { splitContactNumber, type PartnerInput } from "~/schemas/partner";
import type { ProjectStatus } from "~/utils/project-status";
import { ensureQuarter, openQuarterRef } from "~/models/quarter.server";
import { getAuthUser, type AuthUser } from "~/models/user.server";
import { loadReportChecks } from "~/reports/frame/checks.server";
import { StaleReportError } from "~/reports/frame/workflow.server";
import { refreshSalesCheckCounts } from "~/reports/sales/checks.server";
import { saveSalesReport } from "~/reports/sales/model.server";
import { refreshSalesPriceMeans } from "~/reports/sales/price-means.server";
import { workReportChecks, workSalesPriceMeans } from "~/reports/sales/stored-checks.server";
import { loader as dashboardLoader } from "~/routes/_shell.admin.dashboard";
import { loader as partnerListLoader } from "~/routes/_shell.admin.partner-list";
import { loader as summaryCsv } from "~/routes/admin.dashboard.$table.csv";
import { buildRequest, runRoute, sessionCookieFor, testContext, type RouteResult } from "../support/remix";
import { fdfGridRow } from "../support/sales-grid-rows";

const DTG = "Dolutegravir 50 mg";
const ACME = "Acme Generics Ltd";
const BOREALIS = "Borealis Pharma Pvt";
const CEDAR = "Cedar Life Sciences";
const DELTA = "Delta Pharma";
const ECHO = "Echo Generics";
const year = String(openQuarterRef().year);
const month = ["January", "April", "July", "October"][openQuarterRef().quarter - 1];

let ids: {
  open: number;
  dtg: number;
  kenya: number;
  india: number;
  brazil: number;
  acme: number;
  borealis: number;
  cedar: number;
  delta: number;
  echo: number;
};
let admin: AuthUser;
let partner1: AuthUser;

const idOf = async (table: typeof products | typeof countries, name: string) => (await db.select().from(table).where(eq(table.name, name)))[0].id;
const partnerOf = async (email: string) => (await db.select().from(partners).where(eq(partners.email, email)))[0].id;
const actorFor = async (email: string) => (await getAuthUser((await db.select().from(users).where(eq(users.email, email)))[0].id))!;
const reportOf = async (partnerId: number) =>
  (
    await db
      .select()
      .from(reports)
      .where(and(eq(reports.partnerId, partnerId), eq(reports.quarterId, ids.open), eq(reports.type, "sales")))
  )[0];

/** A row as the grid posts it: Dolutegravir 50 mg, 100 packs at `price` USD, 100 USD of expenses (net value 100 × price − 100). */
const row = (country: string, price: string, royaltyPercent: string, fields: Record<string, string> = {}) =>
  fdfGridRow({ year, month, purchaser: "Central Medical Stores", quantity: "100", country, grossSalePriceCurrency: price, royaltyPercent, ...fields });

/** A save of the partner's open-quarter Sales Report: the given FDF rows added (or, with an id, changed). */
async function saves(actor: Pick<AuthUser, "id" | "role" | "partnerId">, partnerId: number, fdf: Record<string, string>[]) {
  const saved = await saveSalesReport({ actor, partnerId, quarterId: ids.open, api: [], fdf, action: "save" });
  if (!saved.ok) throw new Error(`save refused: ${JSON.stringify(saved.problems)}`);
  return saved;
}

/*
 * Acme's save, FDF rows numbered as the grid numbers them:
 *   1 Kenya  price 10, 3%, net 900,  due 27    licence 3% for Kenya: nothing to say
 *   2 Kenya  price 14, 5%, net 1300, due 65    licence 3%: royalty rate, and Royalty Due (39 expected)
 *   3 India  price 30, 5%, net 2900, due 145   licence 5%; over double the other partners' median
 *   4 Brazil price 12, 5%, net 1100, due 55    no Filing Plans for Brazil
 * Its means: Kenya (10 + 14) / 2 = 12 over 2 rows, India 30, Brazil 12, the product (10 + 14 + 30 + 12) / 4 = 16.5 over 4.
 * The other partners' means: Delta 11, Echo 13 (Borealis and Cedar sell nothing): median 12, half 6, double 24.
 * Findings: licence 2, contradiction 1, unusual 1 (row 3's 30 > 24): 4.
 */
const acmeSaves = () => saves(partner1, ids.acme, [row("Kenya", "10", "3"), row("Kenya", "14", "5"), row("India", "30", "5"), row("Brazil", "12", "5")]);

/** The stored-checks jobs waiting in the queue, as pg-boss keeps them. */
async function queuedChecks(): Promise<{ name: string; data: ChecksScope }[]> {
  const result = (await db.execute(
    sql`select name, data from pgboss.job where name in ('sales-price-means', 'report-checks') and state = 'created' order by name, created_on`,
  )) as unknown as { rows: { name: string; data: ChecksScope }[] } | { name: string; data: ChecksScope }[];
  return Array.isArray(result) ? result : result.rows;
}

/** Works the stored-checks jobs as the worker does, until none waits (a means job may queue the counts of its quarter). */
async function runQueuedChecks() {
  const boss = await openJobQueue({ maintain: false });
  for (;;) {
    const means = await boss.fetch<ChecksScope>("sales-price-means", { batchSize: 20 });
    for (const job of means) await workSalesPriceMeans(job.data);
    if (means.length)
      await boss.complete(
        "sales-price-means",
        means.map((job) => job.id),
      );
    const counts = await boss.fetch<ChecksScope>("report-checks", { batchSize: 20 });
    for (const job of counts) await workReportChecks(job.data);
    if (counts.length)
      await boss.complete(
        "report-checks",
        counts.map((job) => job.id),
      );
    if (!means.length && !counts.length) return;
  }
}

/** The stored count of a partner's open-quarter Sales Report, without its time. */
async function countOf(partnerId: number) {
  const report = await reportOf(partnerId);
  const [count] = await db.select().from(reportCheckCounts).where(eq(reportCheckCounts.reportId, report.id));
  if (!count) return undefined;
  const { total, licence, contradiction, unusual } = count;
  return { total, licence, contradiction, unusual };
}

const ACME_COUNT = { total: 4, licence: 2, contradiction: 1, unusual: 1 };

beforeEach(async () => {
  await db.delete(salesRows);
  await db.delete(licenceTerms);
  await db.delete(filingValues);
  ids = {
    open: (await ensureQuarter(openQuarterRef())).id,
    dtg: await idOf(products, DTG),
    kenya: await idOf(countries, "Kenya"),
    india: await idOf(countries, "India"),
    brazil: await idOf(countries, "Brazil"),
    acme: await partnerOf("partner1@example.org"),
    borealis: await partnerOf("partner2@example.org"),
    cedar: await partnerOf("partner3@example.org"),
    delta: 0,
    echo: 0,
  };
  [admin, partner1] = await Promise.all([actorFor("admin@example.org"), actorFor("partner1@example.org")]);

  const [terms] = await db.insert(licenceTerms).values({ partnerId: ids.acme, productId: ids.dtg, royaltyRate: "5" }).returning();
  await db.insert(licenceCountryTerms).values({ licenceTermId: terms.id, countryId: ids.kenya, royaltyRate: "3" });
  const [acmeFiling] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.partnerId, ids.acme), eq(reports.quarterId, ids.open), eq(reports.type, "filing")));
  await db.insert(filingValues).values([
    { reportId: acmeFiling.id, countryId: ids.kenya, productId: ids.dtg, status: "Registered" },
    { reportId: acmeFiling.id, countryId: ids.india, productId: ids.dtg, status: "Registered" },
  ]);
  await db
    .update(partnerProducts)
    .set({ projectStatus: "APPROVED" })
    .where(and(eq(partnerProducts.partnerId, ids.acme), eq(partnerProducts.productId, ids.dtg)));

  // Delta and Echo: new partners making the product, each saving one Kenya row through the administrator.
  const added = await db
    .insert(partners)
    .values([
      { companyName: DELTA, email: "delta@example.org", contactNumber: "+254 700 000001", region: "Africa" },
      { companyName: ECHO, email: "echo@example.org", contactNumber: "+254 700 000002", region: "Africa" },
    ])
    .returning();
  [ids.delta, ids.echo] = added.map((partner) => partner.id);
  await db.insert(partnerProducts).values(added.map((partner) => ({ partnerId: partner.id, productId: ids.dtg, projectStatus: "APPROVED" as const })));
  await saves(admin, ids.delta, [row("Kenya", "11", "5")]);
  await saves(admin, ids.echo, [row("Kenya", "13", "5")]);
  // The seed's rows are gone: every stored figure of the quarter as its jobs would leave it.
  await refreshSalesPriceMeans({ quarterId: ids.open }, db);
  await refreshSalesCheckCounts({ quarterId: ids.open }, db);
  await db.execute(sql`delete from pgboss.job`);
});

let stopWorker: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stopWorker?.();
  stopWorker = undefined;
});

describe("the partners' mean prices", () => {
  it("a Sales save queues its jobs in its transaction; the means job stores the partner's means, worked out by hand", async () => {
    await acmeSaves();
    const scope = { partnerId: ids.acme, quarterId: ids.open };
    expect(await queuedChecks()).toEqual([
      { name: "report-checks", data: scope },
      { name: "sales-price-means", data: scope },
    ]);
    await runQueuedChecks();
    const means = await db
      .select({ countryId: salesPriceMeans.countryId, mean: sql<string>`trim_scale(${salesPriceMeans.meanPriceUsd})::text`, rows: salesPriceMeans.rowCount })
      .from(salesPriceMeans)
      .where(and(eq(salesPriceMeans.partnerId, ids.acme), eq(salesPriceMeans.quarterId, ids.open), eq(salesPriceMeans.productId, ids.dtg)))
      .orderBy(sql`${salesPriceMeans.countryId} nulls first`);
    expect(means).toEqual(
      [
        { countryId: null, mean: "16.5", rows: 4 },
        { countryId: ids.kenya, mean: "12", rows: 2 },
        { countryId: ids.india, mean: "30", rows: 1 },
        { countryId: ids.brazil, mean: "12", rows: 1 },
      ].sort((a, b) => (a.countryId ?? 0) - (b.countryId ?? 0)),
    );
  });

  it("a refused save queues nothing", async () => {
    const report = await reportOf(ids.acme);
    await expect(
      saveSalesReport({
        actor: partner1,
        partnerId: ids.acme,
        quarterId: ids.open,
        expectedVersion: report.version - 1,
        api: [],
        fdf: [row("Kenya", "10", "3")],
        action: "save",
      }),
    ).rejects.toBeInstanceOf(StaleReportError);
    expect(await queuedChecks()).toEqual([]);
  });
});

describe("the stored counts of open findings", () => {
  it("after a Sales save: the administrator's findings by kind, as the report's Checks panel counts them", async () => {
    await acmeSaves();
    await runQueuedChecks();
    expect(await countOf(ids.acme)).toEqual(ACME_COUNT);
    const report = await reportOf(ids.acme);
    const panel = await loadReportChecks({ type: "sales", reportId: report.id, partnerId: ids.acme, quarterId: ids.open }, { role: "ADMIN" });
    expect({ total: panel!.total, ...panel!.counts }).toEqual(ACME_COUNT);
    // The other partners' counts: nothing found in Delta's and Echo's rows, none in Borealis' empty report.
    expect(await countOf(ids.borealis)).toEqual({ total: 0, licence: 0, contradiction: 0, unusual: 0 });
    expect(await countOf(ids.delta)).toEqual({ total: 0, licence: 0, contradiction: 0, unusual: 0 });
  });

  it("after a licence-terms change: a finding appears, and goes again when the change is undone", async () => {
    await acmeSaves();
    await runQueuedChecks();
    const terms = (countriesOfTerms: { countryId: number; royaltyRate: string | null; isLicensed: boolean }[]) => ({
      products: [{ productId: ids.dtg, royaltyRate: "5", apiLicensed: false, countries: countriesOfTerms }],
    });
    const kenyaAt3 = { countryId: ids.kenya, royaltyRate: "3", isLicensed: true };
    // India outside the territory: row 3 is a territory finding (licence 2 + 1).
    await saveLicenceTerms(ids.acme, terms([kenyaAt3, { countryId: ids.india, royaltyRate: null, isLicensed: false }]), { actorId: admin.id });
    expect(await queuedChecks()).toEqual([{ name: "report-checks", data: { partnerId: ids.acme } }]);
    await runQueuedChecks();
    expect(await countOf(ids.acme)).toEqual({ ...ACME_COUNT, total: 5, licence: 3 });
    await saveLicenceTerms(ids.acme, terms([kenyaAt3]), { actorId: admin.id });
    await runQueuedChecks();
    expect(await countOf(ids.acme)).toEqual(ACME_COUNT);
  });

  it("after a project-status edit: the product is sold while 'Under Development', a finding per row; set back, they go", async () => {
    await acmeSaves();
    await runQueuedChecks();
    const setStatus = async (status: ProjectStatus) => {
      const [partner] = await db.select().from(partners).where(eq(partners.id, ids.acme));
      const listed = await db
        .select({ productId: partnerProducts.productId, status: partnerProducts.projectStatus })
        .from(partnerProducts)
        .where(and(eq(partnerProducts.partnerId, ids.acme), eq(partnerProducts.isActive, true)));
      const people = await db.select().from(employees).where(eq(employees.partnerId, ids.acme));
      const contactOf = (stored: string | null) => {
        const { prefix, number } = splitContactNumber(stored);
        return { contactPrefix: prefix, contactNumber: number };
      };
      const saved = await updatePartner(
        ids.acme,
        {
          companyName: partner.companyName,
          email: partner.email,
          ...contactOf(partner.contactNumber),
          address: partner.address ?? undefined,
          region: partner.region as PartnerInput["region"],
          products: listed.map((product) => ({ productId: product.productId, status: product.productId === ids.dtg ? status : product.status })),
          people: people.map((person) => ({
            employeeId: person.id,
            firstName: person.firstName,
            lastName: person.lastName,
            ...contactOf(person.contactNumber),
          })),
        },
        { actorId: admin.id },
      );
      expect(saved).toMatchObject({ ok: true });
    };
    // Acme's timeline reaches no approval stage: each of its four rows is sold while not on the market (contradiction 1 + 4).
    await setStatus("UNDER_DEVELOPMENT");
    expect(await queuedChecks()).toEqual([{ name: "report-checks", data: { partnerId: ids.acme } }]);
    await runQueuedChecks();
    expect(await countOf(ids.acme)).toEqual({ ...ACME_COUNT, total: 8, contradiction: 5 });
    await setStatus("APPROVED");
    await runQueuedChecks();
    expect(await countOf(ids.acme)).toEqual(ACME_COUNT);
  });

  it("after another partner's save moves the median (the worker's own jobs): Echo at 40, the median 25.5, half 12.75", async () => {
    await acmeSaves();
    await runQueuedChecks();
    stopWorker = await startWorker();
    // Acme's rows 1 (10) and 4 (12) are now under half the median; row 3 (30) is not over double it.
    const [echoRow] = await db
      .select()
      .from(salesRows)
      .where(eq(salesRows.reportId, (await reportOf(ids.echo)).id));
    await saves(admin, ids.echo, [row("Kenya", "40", "5", { id: String(echoRow.id) })]);
    const deadline = Date.now() + 20_000;
    while ((await countOf(ids.acme))?.unusual !== 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await countOf(ids.acme)).toEqual({ ...ACME_COUNT, total: 5, unusual: 2 });
  });
});

describe("the admin partner list's Findings column", () => {
  const list = async (path: string, email = "admin@example.org") => runRoute(partnerListLoader, buildRequest(path, { cookie: await sessionCookieFor(email) }));
  const findings = (result: RouteResult<any>) =>
    result.data.rows.map((partner: { companyName: string; findings: number | null }) => [partner.companyName, partner.findings]);

  it("shows the open Sales Report's count (empty without a report) and sorts by it both ways, partners without a count last; ADMIN and STAFF", async () => {
    await acmeSaves();
    await runQueuedChecks();
    for (const email of ["admin@example.org", "staff@example.org"]) {
      const mostFirst = await list("/admin/partner-list?sort=findings&dir=desc", email);
      expect(mostFirst.status).toBe(200);
      expect(mostFirst.data.query).toMatchObject({ sort: "findings", dir: "desc" });
      // Ties (the zeros) by company name.
      expect(findings(mostFirst)).toEqual([
        [ACME, 4],
        [BOREALIS, 0],
        [DELTA, 0],
        [ECHO, 0],
        [CEDAR, null],
      ]);
      expect(findings(await list("/admin/partner-list?sort=findings&dir=asc", email))).toEqual([
        [BOREALIS, 0],
        [DELTA, 0],
        [ECHO, 0],
        [ACME, 4],
        [CEDAR, null],
      ]);
    }
    // By company, as before; the search and the sort together.
    expect(findings(await list("/admin/partner-list"))).toEqual([
      [ACME, 4],
      [BOREALIS, 0],
      [CEDAR, null],
      [DELTA, 0],
      [ECHO, 0],
    ]);
    expect(findings(await list("/admin/partner-list?q=generics&sort=findings&dir=asc"))).toEqual([
      [ECHO, 0],
      [ACME, 4],
    ]);
  });

  it("is paged by 50 (the riskiest first on page 1 when sorted by findings); a page past the end shows the last", async () => {
    await acmeSaves();
    await runQueuedChecks();
    // 55 more partners without a Sales Report: 60 in all, pages of 50 and 10.
    await db.insert(partners).values(
      Array.from({ length: 55 }, (_, index) => ({
        companyName: `Zeta ${String(index).padStart(2, "0")}`,
        email: `zeta${index}@example.org`,
        contactNumber: "+254 700 000003",
        region: "Africa",
      })),
    );
    const first = await list("/admin/partner-list?sort=findings&dir=desc");
    expect(first.data.page).toEqual({ page: 1, pages: 2, total: 60, pageSize: 50 });
    expect(findings(first).slice(0, 5)).toEqual([
      [ACME, 4],
      [BOREALIS, 0],
      [DELTA, 0],
      [ECHO, 0],
      [CEDAR, null],
    ]);
    expect(first.data.rows).toHaveLength(50);
    const second = await list("/admin/partner-list?sort=findings&dir=desc&page=2");
    expect(second.data.page).toEqual({ page: 2, pages: 2, total: 60, pageSize: 50 });
    expect(findings(second)).toEqual(Array.from({ length: 10 }, (_, index) => [`Zeta ${45 + index}`, null]));
    const past = await list("/admin/partner-list?sort=findings&dir=desc&page=9");
    expect(past.data.page.page).toBe(2);
    expect(past.data.query.page).toBe(2);
    expect(findings(past)).toEqual(findings(second));
  });

  it("refuses a partner", async () => {
    const refused = await list("/admin/partner-list?sort=findings&dir=desc", "partner1@example.org");
    expect(refused.status).toBe(403);
    expect(refused.data).toEqual({ message: "YOU ARE NOT AUTHORIZED TO USE THE PAGE" });
  });
});

describe("the dashboard Summary's Findings column", () => {
  const summary = async (search: string, email = "admin@example.org") => {
    const result = await runRoute(dashboardLoader, buildRequest(`/admin/dashboard?tab=summary${search}`, { cookie: await sessionCookieFor(email) }));
    return result;
  };
  const shown = (result: RouteResult<any>) =>
    result.data.view.summary.rows.map((partner: { partnerId: number; companyName: string }) => [
      partner.companyName,
      result.data.view.summary.findings[partner.partnerId] ?? null,
    ]);

  it("shows each partner's count in a view and sorts by it (ADMIN and STAFF); a partner is refused", async () => {
    await acmeSaves();
    await runQueuedChecks();
    // "Saved but not submitted": Acme's, Delta's and Echo's Sales Reports are drafts.
    for (const email of ["admin@example.org", "staff@example.org"]) {
      expect(shown(await summary("&view=saved&sort=findings&dir=desc", email))).toEqual([
        [ACME, 4],
        [DELTA, 0],
        [ECHO, 0],
      ]);
    }
    expect(shown(await summary("&view=saved&sort=findings&dir=asc"))).toEqual([
      [DELTA, 0],
      [ECHO, 0],
      [ACME, 4],
    ]);
    // "Yet to submit": Cedar has no Sales Report (no count), last either way.
    expect(shown(await summary("&view=not-submitted&sort=findings&dir=desc"))).toEqual([
      [BOREALIS, 0],
      [DELTA, 0],
      [ECHO, 0],
      [CEDAR, null],
    ]);
    expect((await summary("&view=saved&sort=findings", "partner1@example.org")).status).toBe(403);
  });

  it("its downloads carry the Findings column in the page's order: a number, or empty without a count", async () => {
    await acmeSaves();
    await runQueuedChecks();
    const cookie = await sessionCookieFor("admin@example.org");
    const response = (await summaryCsv({
      request: buildRequest("/admin/dashboard/summary/csv?view=not-submitted&sort=findings&dir=desc", { cookie }),
      params: { table: "summary" },
      context: testContext(),
    })) as Response;
    expect(response.status).toBe(200);
    const [header, ...records] = parse(Buffer.from(await response.arrayBuffer()), { bom: true }) as string[][];
    expect(header.at(-1)).toBe("Findings");
    expect(records.map((record) => [record[0], record.at(-1)])).toEqual([
      [BOREALIS, "0"],
      [DELTA, "0"],
      [ECHO, "0"],
      [CEDAR, ""],
    ]);
  });
});

/**
 * The Sales Report's changes to explain (issue "Checks that catch what a reviewer would miss"):
 * lines worked out by hand below against the default thresholds (beyond 50%, floor 10,000 USD), with
 * the cases just inside them; the submission refused until each line has a reason; the reasons'
 * form per role; the reasons kept in the submission's snapshot and its hash.
 */
import crypto from "node:crypto";
import { and, asc, desc, eq, ne } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { auditLog, countries, partners, products, reportExplanations, reports, reportSnapshots, salesRows, settings, users } from "~/db/schema";
import { SWING_THRESHOLDS_KEY } from "~/schemas/settings";
import { ensureQuarter, openQuarterRef } from "~/models/quarter.server";
import { setSwingThresholds } from "~/models/settings.server";
import { EXPLANATION_MESSAGES, reasonField, type ExplainedChange } from "~/reports/frame/explanations";
import { canonicalJson, performReportAction } from "~/reports/frame/workflow.server";
import { salesChangesToExplain } from "~/reports/sales/swings.server";
import { action as partnerSalesAction, loader as partnerSalesLoader } from "~/routes/_shell.partner.sales-report";
import { action as adminSalesAction, loader as adminSalesLoader } from "~/routes/_shell.admin.sales-report.$id";
import { action as settingsAction } from "~/routes/_shell.admin.settings";
import { addQuarters } from "~/utils/quarters";
import { callApi, demoSignInBeforeEach, expectDocumented, expectRefused, expectStatus } from "../support/api";
import { buildRequest, runRoute, sessionCookieFor } from "../support/remix";

const DTG = "Dolutegravir 50 mg";
const DTG_API = "Dolutegravir API";
type NewSalesRow = typeof salesRows.$inferInsert;

let ids: { acme: number; dtg: number; dtgApi: number; kenya: number; india: number; brazil: number; southAfrica: number };
let quarterIds: { open: number; previous: number; yearBefore: number };
let quarterNames: { previous: string; yearBefore: string };
let acmeReport: number;

const idOf = async (table: typeof products | typeof countries, name: string) => (await db.select().from(table).where(eq(table.name, name)))[0].id;

async function salesReportOf(quarterId: number) {
  const [report] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.partnerId, ids.acme), eq(reports.quarterId, quarterId), eq(reports.type, "sales")));
  if (report) {
    await db.update(reports).set({ status: "Saved" }).where(eq(reports.id, report.id));
    return report.id;
  }
  return (await db.insert(reports).values({ partnerId: ids.acme, quarterId, type: "sales", status: "Saved" }).returning())[0].id;
}

/** A sales row of Acme's with the value (USD) and quantity given. */
const sale = (reportId: number, kind: "API" | "FDF", productId: number, countryId: number, totalValue: string, quantity: string): NewSalesRow => ({
  reportId,
  kind,
  year: 2026,
  month: 1,
  countryId,
  purchaser: "Central Medical Stores",
  productId,
  quantity,
  totalValue,
  ...(kind === "FDF" ? { currencyCode: "USD", usdExchangeRate: "1", royaltyPercent: "0", royaltyDue: "0" } : {}),
});

beforeEach(async () => {
  // The thresholds as an administrator finds them (the test database starts with them out of the way).
  await db.delete(settings).where(eq(settings.key, SWING_THRESHOLDS_KEY));
  await db.delete(salesRows);
  await db.delete(reportExplanations);
  ids = {
    acme: (await db.select().from(partners).where(eq(partners.email, "partner1@example.org")))[0].id,
    dtg: await idOf(products, DTG),
    dtgApi: await idOf(products, DTG_API),
    kenya: await idOf(countries, "Kenya"),
    india: await idOf(countries, "India"),
    brazil: await idOf(countries, "Brazil"),
    southAfrica: await idOf(countries, "South Africa"),
  };
  const open = await ensureQuarter(openQuarterRef());
  const previous = await ensureQuarter(addQuarters(openQuarterRef(), -1));
  const yearBefore = await ensureQuarter(addQuarters(openQuarterRef(), -4));
  quarterIds = { open: open.id, previous: previous.id, yearBefore: yearBefore.id };
  quarterNames = { previous: previous.name, yearBefore: yearBefore.name };
  acmeReport = await salesReportOf(open.id);
  const previousReport = await salesReportOf(previous.id);
  const yearBeforeReport = await salesReportOf(yearBefore.id);

  await db.insert(salesRows).values([
    // The previous quarter.
    sale(previousReport, "FDF", ids.dtg, ids.kenya, "20000", "1000"),
    sale(previousReport, "FDF", ids.dtg, ids.india, "12000", "600"),
    sale(previousReport, "FDF", ids.dtg, ids.india, "8000", "400"),
    sale(previousReport, "FDF", ids.dtg, ids.southAfrica, "9999.99", "500"),
    // The same quarter a year before.
    sale(yearBeforeReport, "FDF", ids.dtg, ids.kenya, "20000", "1000"),
    sale(yearBeforeReport, "API", ids.dtgApi, ids.kenya, "50000", "10"),
    // This quarter.
    // Kenya: 20,000 → 30,000 and 1,000 → 1,500, exactly +50% against both quarters: not beyond, not listed.
    sale(acmeReport, "FDF", ids.dtg, ids.kenya, "30000", "1500"),
    // India: 20,000 → 9,000 and 1,000 → 450, both down 55%: listed.
    sale(acmeReport, "FDF", ids.dtg, ids.india, "9000", "450"),
    // Brazil: nothing last quarter nor a year before, 12,000 and 600 now (above the floor): listed as appeared against both.
    // India against a year before (nothing then): 9,000 now is under the floor.
    sale(acmeReport, "FDF", ids.dtg, ids.brazil, "12000", "600"),
    // South Africa: 9,999.99 → 100, down 99%, but under the 10,000 floor in both quarters: not listed.
    sale(acmeReport, "FDF", ids.dtg, ids.southAfrica, "100", "5"),
    // The API in Kenya: nothing last quarter (appeared), 50,000 → 20,000 against a year before (down 60%), 10 kg both times.
    sale(acmeReport, "API", ids.dtgApi, ids.kenya, "20000", "10"),
  ]);
});

const lineSummary = (lines: ExplainedChange[]) =>
  lines.map((line) => ({ subject: line.subject, line: line.line.values, changes: line.changes.map((change) => [change.message, change.values]) }));

const changesOfAcme = () => salesChangesToExplain(db, { reportId: acmeReport, partnerId: ids.acme, quarterId: quarterIds.open, withPeers: false });

describe("the Sales Report's changes to explain", () => {
  it("lists the lines beyond 50% and above the floor, worked out by hand, and none just inside a threshold", async () => {
    const { previous, yearBefore } = quarterNames;
    expect(lineSummary(await changesOfAcme())).toEqual([
      {
        subject: `sales:FDF:${ids.dtg}:${ids.brazil}`,
        line: { product: DTG, country: "Brazil", table: "FDF" },
        changes: [
          [EXPLANATION_MESSAGES.appeared, { measure: "Total Net Sales Value", quarter: previous, now: "12000", before: "0" }],
          [EXPLANATION_MESSAGES.appeared, { measure: "Quantity", quarter: previous, now: "600", before: "0" }],
          // A year before Acme sold in Kenya only: Brazil appeared against that quarter too.
          [EXPLANATION_MESSAGES.appeared, { measure: "Total Net Sales Value", quarter: yearBefore, now: "12000", before: "0" }],
          [EXPLANATION_MESSAGES.appeared, { measure: "Quantity", quarter: yearBefore, now: "600", before: "0" }],
        ],
      },
      {
        subject: `sales:FDF:${ids.dtg}:${ids.india}`,
        line: { product: DTG, country: "India", table: "FDF" },
        changes: [
          [EXPLANATION_MESSAGES.down, { measure: "Total Net Sales Value", quarter: previous, now: "9000", before: "20000", change: "55" }],
          [EXPLANATION_MESSAGES.down, { measure: "Quantity", quarter: previous, now: "450", before: "1000", change: "55" }],
        ],
      },
      {
        subject: `sales:API:${ids.dtgApi}:${ids.kenya}`,
        line: { product: DTG_API, country: "Kenya", table: "API" },
        changes: [
          [EXPLANATION_MESSAGES.appeared, { measure: "Total Value (USD)", quarter: previous, now: "20000", before: "0" }],
          [EXPLANATION_MESSAGES.appeared, { measure: "Quantity (Kg)", quarter: previous, now: "10", before: "0" }],
          [EXPLANATION_MESSAGES.down, { measure: "Total Value (USD)", quarter: yearBefore, now: "20000", before: "50000", change: "60" }],
        ],
      },
    ]);
  });

  it("follows the thresholds set in Settings: 40% lists Kenya's +50%; a floor of 20,001 leaves out every line under it", async () => {
    await setSwingThresholds({ percent: 40, floorUsd: "10000" }, { actorId: 1 });
    const subjects = (await changesOfAcme()).map((line) => line.subject);
    expect(subjects).toContain(`sales:FDF:${ids.dtg}:${ids.kenya}`);
    await setSwingThresholds({ percent: 40, floorUsd: "20001" }, { actorId: 1 });
    // Kenya's FDF reaches 30,000 now (+50%, beyond 40%); the API's 50,000 a year before (down 60%); India (20,000) and Brazil (12,000) stay under the floor.
    expect((await changesOfAcme()).map((line) => line.subject)).toEqual([`sales:FDF:${ids.dtg}:${ids.kenya}`, `sales:API:${ids.dtgApi}:${ids.kenya}`]);
  });

  it("a report without rows, or a partner without an earlier report, has nothing to explain", async () => {
    await db.delete(salesRows).where(ne(salesRows.reportId, acmeReport));
    expect(await changesOfAcme()).toEqual([]);
    await db.insert(salesRows).values(sale(await salesReportOf(quarterIds.previous), "FDF", ids.dtg, ids.kenya, "1", "1"));
    expect((await changesOfAcme()).length).toBeGreaterThan(0);
    await db.delete(salesRows).where(eq(salesRows.reportId, acmeReport));
    expect(await changesOfAcme()).toEqual([]);
  });
});

describe("Settings: the thresholds", () => {
  it("an administrator sets them (errors beside the fields for bad input); staff is refused", async () => {
    const post = async (email: string, form: Record<string, string>) =>
      runRoute(settingsAction, buildRequest("/admin/settings", { cookie: await sessionCookieFor(email), form: { intent: "swings", ...form } }));
    const refused = await post("admin@example.org", { percent: "0", floorUsd: "-5" });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.data)).toContain("Enter a whole percentage from 1 to 1000.");
    expect(JSON.stringify(refused.data)).toContain("Enter an amount in USD of 0 or more, with at most two decimals.");
    const saved = await post("admin@example.org", { percent: "75", floorUsd: "5,000.50" });
    expect(saved.status).toBe(302);
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, "setting.swing_thresholds")).orderBy(desc(auditLog.id)).limit(1);
    expect(audit.after).toEqual({ percent: 75, floorUsd: "5000.50" });
    await expect(post("staff@example.org", { percent: "10", floorUsd: "0" })).resolves.toMatchObject({ status: 403 });
  });
});

describe("reasons before Submit", () => {
  const submit = async () =>
    performReportAction({
      actor: { id: (await db.select().from(users).where(eq(users.email, "partner1@example.org")))[0].id, role: "PARTNER", partnerId: ids.acme },
      key: { partnerId: ids.acme, quarterId: quarterIds.open, type: "sales" },
      action: "submit",
      comment: "Our quarter.",
    });

  it("refuses the submission while a line has no reason (nothing changes), takes the reasons, then submits with them in the snapshot", async () => {
    await expect(submit()).rejects.toMatchObject({ message: EXPLANATION_MESSAGES.submitRefused, values: { count: 3 }, status: 409 });
    expect((await db.select().from(reports).where(eq(reports.id, acmeReport)))[0].status).toBe("Saved");
    expect(await db.select().from(reportSnapshots).where(eq(reportSnapshots.reportId, acmeReport))).toEqual([]);

    const cookie = await sessionCookieFor("partner1@example.org");
    const lines = await changesOfAcme();
    const explain = (reasons: Record<string, string>) =>
      runRoute(
        partnerSalesAction,
        buildRequest("/partner/sales-report", { cookie, form: { intent: "explain", quarterId: String(quarterIds.open), ...reasons } }),
      );

    // Two reasons of three: saved; the submission is still refused, now for one line.
    const partly = await explain({ [reasonField(lines[0].subject)]: "  New tender in Brazil.  ", [reasonField(lines[1].subject)]: "Stock-out at the CMS." });
    expect(partly.status).toBe(302);
    await expect(submit()).rejects.toMatchObject({ values: { count: 1 } });

    // A reason too long is refused with nothing saved, the others posted with it included.
    const tooLong = await explain({ [reasonField(lines[1].subject)]: "Changed.", [reasonField(lines[2].subject)]: "x".repeat(2001) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.data).toMatchObject({ kind: "explanation-problems", errors: { [lines[2].subject]: "This text is too long." } });
    expect((await changesOfAcme()).map((line) => line.reason)).toEqual(["New tender in Brazil.", "Stock-out at the CMS.", null]);

    expect((await explain({ [reasonField(lines[2].subject)]: "API sold to a new formulator." })).status).toBe(302);
    const page = await runRoute(partnerSalesLoader, buildRequest("/partner/sales-report", { cookie }));
    expect(page.data).toMatchObject({ changesToExplain: { missing: 0, canExplain: true } });

    const result = await submit();
    expect(result.status).toBe("Submitted");
    const [snapshot] = await db.select().from(reportSnapshots).where(eq(reportSnapshots.reportId, acmeReport));
    const kept = snapshot.explanations as ExplainedChange[];
    expect(kept.map((line) => [line.subject, line.reason])).toEqual(
      lines.map((line, index) => [line.subject, ["New tender in Brazil.", "Stock-out at the CMS.", "API sold to a new formulator."][index]]),
    );
    // The hash proves the rows and the reasons together, and can be checked against the snapshot as stored.
    const canonical = canonicalJson({ rows: snapshot.rows, explanations: snapshot.explanations });
    expect(snapshot.sha256).toBe(crypto.createHash("sha256").update(canonical).digest("hex"));
    expect(canonical).toContain('"reason":"API sold to a new formulator."');

    // Submitted: the reasons are closed to the partner, and the administrator reads them beside the figures.
    const closed = await explain({ [reasonField(lines[0].subject)]: "Changed my mind." });
    expect(closed.status).toBe(409);
    expect(closed.data).toMatchObject({ message: EXPLANATION_MESSAGES.notAllowed });
    const admin = await runRoute(adminSalesLoader, buildRequest(`/admin/sales-report/${ids.acme}`, { cookie: await sessionCookieFor("admin@example.org") }), {
      params: { id: String(ids.acme) },
    });
    expect(admin.data).toMatchObject({ changesToExplain: { missing: 0, canExplain: false, lines: [{ reason: "New tender in Brazil." }, {}, {}] } });
  });

  it("administrators and staff cannot write the partner's reasons", async () => {
    const [line] = await changesOfAcme();
    const form = { intent: "explain", quarterId: String(quarterIds.open), [reasonField(line.subject)]: "Written by the pool." };
    const admin = await runRoute(
      adminSalesAction,
      buildRequest(`/admin/sales-report/${ids.acme}`, { cookie: await sessionCookieFor("admin@example.org"), form }),
      {
        params: { id: String(ids.acme) },
      },
    );
    expect(admin.status).toBe(403);
    const staff = await runRoute(
      adminSalesAction,
      buildRequest(`/admin/sales-report/${ids.acme}`, { cookie: await sessionCookieFor("staff@example.org"), form }),
      {
        params: { id: String(ids.acme) },
      },
    );
    expect(staff.status).toBe(403);
    expect(await db.select().from(reportExplanations)).toEqual([]);
  });

  it("the reasons' save is audited with what it changed", async () => {
    const [line] = await changesOfAcme();
    const cookie = await sessionCookieFor("partner1@example.org");
    await runRoute(
      partnerSalesAction,
      buildRequest("/partner/sales-report", {
        cookie,
        form: { intent: "explain", quarterId: String(quarterIds.open), [reasonField(line.subject)]: "Tender." },
      }),
    );
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, "report.explain")).orderBy(asc(auditLog.id));
    expect(audit).toMatchObject({
      entity: "report:sales",
      entityId: String(acmeReport),
      before: { [line.subject]: null },
      after: { [line.subject]: "Tender." },
    });
  });
});

describe("the changes to explain in the API", () => {
  const demo = demoSignInBeforeEach(["admin", "staff", "partner1", "partner2"]);

  it("GET .../checks lists them in English; PUT /template/sales/explanations/ writes the caller's reasons; administrators and staff read them", async () => {
    const [brazil, india, api] = await changesOfAcme();
    const own = await callApi("GET", "/template/sales/checks/", { token: demo.partner1 });
    expectStatus(own, 200);
    expectDocumented("GET", "/template/sales/checks/", own);
    expect(own.body.changes_without_reason).toBe(3);
    expect(own.body.changes_to_explain[1]).toEqual({
      subject: india.subject,
      line: `${DTG} in India (FDF)`,
      changes: [
        `Total Net Sales Value: 20000 in ${quarterNames.previous}, now 9000 (down 55%).`,
        `Quantity: 1000 in ${quarterNames.previous}, now 450 (down 55%).`,
      ],
      reason: null,
    });

    // A reason too long: refused beside its field, nothing saved.
    const refused = await callApi("PUT", "/template/sales/explanations/", {
      token: demo.partner1,
      body: {
        reasons: [
          { subject: brazil.subject, reason: "Tender." },
          { subject: india.subject, reason: "x".repeat(2001) },
        ],
      },
    });
    expectRefused("PUT", "/template/sales/explanations/", refused, 400);
    expect(await db.select().from(reportExplanations)).toEqual([]);

    const saved = await callApi("PUT", "/template/sales/explanations/", {
      token: demo.partner1,
      body: {
        reasons: [
          { subject: brazil.subject, reason: "Tender." },
          { subject: api.subject, reason: "New formulator." },
          { subject: "sales:FDF:1:1", reason: "Not a line." },
        ],
      },
    });
    expectStatus(saved, 200);
    expectDocumented("PUT", "/template/sales/explanations/", saved);
    expect(saved.body).toEqual({ changes_without_reason: 1 });

    for (const token of [demo.admin, demo.staff]) {
      const answer = await callApi("GET", `/template/sales/checks/${demo.acme}/`, { token });
      expect(answer.body.changes_to_explain.map((line: { reason: string | null }) => line.reason)).toEqual(["Tender.", null, "New formulator."]);
    }
    // The administrators' own reasons call does not exist for them; another partner has no lines of Acme's to write.
    expectRefused(
      "PUT",
      "/template/sales/explanations/",
      await callApi("PUT", "/template/sales/explanations/", { token: demo.admin, body: { reasons: [] } }),
      403,
    );
    const other = await callApi("PUT", "/template/sales/explanations/", {
      token: demo.partner2,
      body: { reasons: [{ subject: india.subject, reason: "Borealis writing." }] },
    });
    expect(await db.select({ reason: reportExplanations.reason }).from(reportExplanations).where(eq(reportExplanations.reason, "Borealis writing."))).toEqual(
      [],
    );
    expect([200, 409]).toContain(other.status);
  });
});

/**
 * "Show changes since" (issue 33, "What changed"): a report's saved rows against hand-made
 * snapshots, worked out in the database. Every expected value is written out by hand.
 */
import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { partners, reports, salesRows, stages, users } from "~/db/schema";
import { ensureQuarter, openQuarterRef } from "~/models/quarter.server";
import { loadReportChanges } from "~/reports/frame/changes.server";
import type { RowChanges } from "~/reports/frame/changes";
import { WorkflowError } from "~/reports/frame/workflow.server";
import type { ReportTypeKey } from "~/reports/frame/registry";
import { getAuthUser, type AuthUser } from "~/models/user.server";
import { loader as partnerLoader } from "~/routes/_shell.partner.development-timeline";
import type { PdtReportPageData } from "~/reports/pdt/page.server";
import { addQuarters, quarterName } from "~/utils/quarters";
import { buildRequest, runRoute, sessionCookieFor } from "../support/remix";
import {
  apiRowOf,
  fixtureIds,
  makeReport as makeCedarReport,
  salesRowsAndTheirBase,
  snapshotWithEntry,
  timelineAndItsBase,
  storedSalesRow,
} from "../support/hand-made-snapshots";

const openRef = openQuarterRef();
const previousRef = addQuarters(openRef, -1);

let cedar: number;
let openId: number;
let previousId: number;
let cedarUser: AuthUser;
let acmeUser: AuthUser;
let adminUser: AuthUser;
let staffUser: AuthUser;
const ids = { india: 0, kenya: 0, abacavir: 0, dolutegravir: 0, tablet: 0, firstStage: 0, secondStage: 0 };

async function userFor(email: string) {
  const [user] = await db.select().from(users).where(eq(users.email, email));
  return (await getAuthUser(user.id))!;
}

beforeEach(async () => {
  [cedar] = (await db.select({ id: partners.id }).from(partners).where(eq(partners.email, "partner3@example.org"))).map((row) => row.id);
  openId = (await ensureQuarter(openRef)).id;
  previousId = (await ensureQuarter(previousRef)).id;
  [cedarUser, acmeUser, adminUser, staffUser] = await Promise.all(
    ["partner3@example.org", "partner1@example.org", "admin@example.org", "staff@example.org"].map(userFor),
  );
  Object.assign(ids, await fixtureIds());
  // Cedar's reports of these quarters are made here, by hand.
  for (const quarterId of [openId, previousId]) await db.delete(reports).where(and(eq(reports.partnerId, cedar), eq(reports.quarterId, quarterId)));
});

const makeReport = (type: ReportTypeKey, quarterId: number) => makeCedarReport(cedar, type, quarterId);

/** A snapshot of the report as `event` took it, with the audit entry the history finds it by. */
const snapshot = (reportId: number, type: ReportTypeKey, event: "submit" | "approve", version: number, rows: Record<string, unknown>[]) =>
  snapshotWithEntry({ reportId, type, event, version, rows, actorId: cedarUser.id });

const apiRow = apiRowOf(() => ({ year: openRef.year, countryId: ids.india, productId: ids.abacavir }));
const stored = storedSalesRow;

const found = (changes: RowChanges) => {
  if (!changes.found) throw new Error(`no base: ${changes.reason}`);
  return changes;
};

describe("changes of a Sales Report", () => {
  it("since the last submission: a changed cell with its old value as shown, an added row, a removed row with its cells", async () => {
    const reportId = await makeReport("sales", openId);
    const { first, added, base } = await salesRowsAndTheirBase(reportId, apiRow, ids);
    await snapshot(reportId, "sales", "submit", 2, base);

    const changes = found(await loadReportChanges({ viewer: cedarUser, partnerId: cedar, type: "sales", base: "submission" }));
    expect(changes.counts).toEqual({ added: 1, changed: 1, removed: 1 });
    // The country by its name, the quantity as the grid writes it (no trailing zeros); the unchanged cells are not listed.
    expect(changes.changed).toEqual({ [String(first.id)]: { country: "India", quantity: "10" } });
    expect(changes.added).toEqual([String(added.id)]);
    expect(changes.removed).toEqual([
      {
        table: "FDF",
        cells: expect.objectContaining({
          year: String(openRef.year),
          month: "February",
          country: "India",
          purchaser: "Removed buyer",
          productName: "Dolutegravir 50 mg",
          formulationType: "Tablet",
          packSize: "30",
          quantity: "7",
          royaltyPercent: "4.5",
          comments: "",
        }),
      },
    ]);
  });

  it("the previous quarter: rows matched by table, product, country and purchaser, numbered within duplicates", async () => {
    const previousReport = await makeReport("sales", previousId);
    await snapshot(previousReport, "sales", "approve", 4, [
      stored(1, apiRow(previousReport, "Global Fund", "5")),
      stored(2, apiRow(previousReport, "Global Fund", "6")),
      stored(3, apiRow(previousReport, "Gone buyer", "9")),
    ]);
    const reportId = await makeReport("sales", openId);
    const [, second, fresh] = await db
      .insert(salesRows)
      .values([
        // The same sale (the purchaser written in another case), then the second of the same key with another quantity.
        apiRow(reportId, "GLOBAL FUND", "5"),
        apiRow(reportId, "Global Fund", "7"),
        apiRow(reportId, "New buyer", "1"),
      ])
      .returning();

    const changes = found(await loadReportChanges({ viewer: adminUser, partnerId: cedar, type: "sales", base: "previous-quarter" }));
    expect(changes.quarter).toBe(quarterName(previousRef));
    expect(changes.counts).toEqual({ added: 1, changed: 2, removed: 1 });
    // The first Global Fund row differs only by the purchaser's case (a change the user sees); the second by its quantity.
    expect(changes.changed[String(second.id)]).toEqual({ quantity: "6" });
    expect(Object.values(changes.changed)).toContainEqual({ purchaser: "Global Fund" });
    expect(changes.added).toEqual([String(fresh.id)]);
    expect(changes.removed.map((row) => row.cells.purchaser)).toEqual(["Gone buyer"]);
  });

  it("says why there is nothing to compare with: not saved, never submitted or approved, no report the quarter before", async () => {
    const notSaved = await loadReportChanges({ viewer: cedarUser, partnerId: cedar, type: "sales", base: "submission" });
    expect(notSaved).toEqual({ base: "submission", found: false, reason: "unsaved", quarter: null });

    const reportId = await makeReport("sales", openId);
    await db.insert(salesRows).values(apiRow(reportId, "Global Fund", "20"));
    expect(await loadReportChanges({ viewer: cedarUser, partnerId: cedar, type: "sales", base: "submission" })).toMatchObject({
      found: false,
      reason: "submission",
    });
    expect(await loadReportChanges({ viewer: cedarUser, partnerId: cedar, type: "sales", base: "approval" })).toMatchObject({
      found: false,
      reason: "approval",
    });
    expect(await loadReportChanges({ viewer: cedarUser, partnerId: cedar, type: "sales", base: "previous-quarter" })).toEqual({
      base: "previous-quarter",
      found: false,
      reason: "previous-quarter",
      quarter: quarterName(previousRef),
    });
  });

  it("a partner gets only its own report's changes; administrators and staff any partner's", async () => {
    const reportId = await makeReport("sales", openId);
    await db.insert(salesRows).values(apiRow(reportId, "Global Fund", "20"));
    const refused = await loadReportChanges({ viewer: acmeUser, partnerId: cedar, type: "sales", base: "submission" }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(WorkflowError);
    expect((refused as WorkflowError).status).toBe(403);
    expect(await loadReportChanges({ viewer: staffUser, partnerId: cedar, type: "sales", base: "submission" })).toMatchObject({ reason: "submission" });
  });
});

describe("changes of a Development Timeline", () => {
  async function timeline() {
    const reportId = await makeReport("pdt", openId);
    return { reportId, ...(await timelineAndItsBase(reportId, ids)) };
  }

  it("since the last approval: old dates as stored, removed rows named by product and stage", async () => {
    const { reportId, base } = await timeline();
    await snapshot(reportId, "pdt", "approve", 2, base);
    const changes = found(await loadReportChanges({ viewer: cedarUser, partnerId: cedar, type: "pdt", base: "approval" }));
    expect(changes.counts).toEqual({ added: 1, changed: 1, removed: 1 });
    // A PDT row is found on the screen by its product and stage.
    expect(changes.changed).toEqual({ [`${ids.dolutegravir}:${ids.firstStage}`]: { startDate: "2026-01-15" } });
    expect(changes.added).toEqual([`${ids.dolutegravir}:${ids.secondStage}`]);
    const [stage] = await db.select({ name: stages.name }).from(stages).where(eq(stages.id, ids.secondStage));
    expect(changes.removed).toEqual([
      { table: "", cells: { productName: "Abacavir API", stageName: stage.name, startDate: "2025-10-01", endDate: "", notes: "Dropped" } },
    ]);
  });

  it("the previous quarter: rows matched by product and stage; the page loads the comparison its address asks for", async () => {
    const previousReport = await makeReport("pdt", previousId);
    await snapshot(previousReport, "pdt", "submit", 2, [
      { id: 1, reportId: previousReport, productId: ids.dolutegravir, stageId: ids.secondStage, startDate: "2026-07-01", endDate: "2026-09-30", notes: null },
      {
        id: 2,
        reportId: previousReport,
        productId: ids.dolutegravir,
        stageId: ids.firstStage,
        startDate: "2026-02-01",
        endDate: "2026-06-30",
        notes: "On track",
      },
    ]);
    await timeline();
    const result = await runRoute<PdtReportPageData>(
      partnerLoader,
      buildRequest("/partner/development-timeline?changes=previous-quarter", { cookie: await sessionCookieFor("partner3@example.org") }),
    );
    expect(result.status).toBe(200);
    const changes = found(result.data!.comparison!);
    expect(changes.counts).toEqual({ added: 0, changed: 1, removed: 0 });
    expect(changes.changed).toEqual({ [`${ids.dolutegravir}:${ids.secondStage}`]: { endDate: "2026-09-30" } });

    // No comparison asked for: the page as it is.
    const plain = await runRoute<PdtReportPageData>(
      partnerLoader,
      buildRequest("/partner/development-timeline", { cookie: await sessionCookieFor("partner3@example.org") }),
    );
    expect(plain.data!.comparison).toBeNull();
  });
});

/**
 * GET /template/{type}/changes/ and /template/{type}/changes/{partnerId}/: "Show changes since"
 * by machine. Cedar's reports are made here against hand-made snapshots; every expected figure
 * is written out by hand.
 */
import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { filingValues, reports, salesRows, stages } from "~/db/schema";
import { ensureQuarter, openQuarterRef } from "~/models/quarter.server";
import type { ReportTypeKey } from "~/reports/frame/registry";
import { addQuarters, quarterName } from "~/utils/quarters";
import { callApi, demoSignInBeforeEach, expectDocumented, expectRefused, expectStatus } from "../support/api";
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
const demo = demoSignInBeforeEach();

let openId: number;
let previousId: number;
const ids = { india: 0, kenya: 0, abacavir: 0, dolutegravir: 0, tablet: 0, firstStage: 0, secondStage: 0 };

beforeEach(async () => {
  openId = (await ensureQuarter(openRef)).id;
  previousId = (await ensureQuarter(previousRef)).id;
  Object.assign(ids, await fixtureIds());
  // Cedar's reports of these quarters are made here, by hand.
  for (const quarterId of [openId, previousId]) await db.delete(reports).where(and(eq(reports.partnerId, demo.cedar), eq(reports.quarterId, quarterId)));
});

const makeReport = (type: ReportTypeKey, quarterId: number) => makeCedarReport(demo.cedar, type, quarterId);

/**
 * A snapshot of the report as `event` took it, with the audit entry the history finds it by; the
 * base as the answer names it: a submission or approval is as old as its history entry, a previous
 * quarter's report as its snapshot.
 */
async function snapshot(reportId: number, type: ReportTypeKey, event: "submit" | "approve", rows: Record<string, unknown>[]) {
  const { snapshot: taken, entry } = await snapshotWithEntry({ reportId, type, event, version: 2, rows });
  return {
    sameQuarter: { snapshot_id: taken.id, quarter: null, taken_at: entry.createdAt.toISOString() },
    previousQuarter: { snapshot_id: taken.id, quarter: quarterName(previousRef), taken_at: taken.createdAt.toISOString() },
  };
}

const apiRow = apiRowOf(() => ({ year: openRef.year, countryId: ids.india, productId: ids.abacavir }));
const stored = storedSalesRow;

/** Cells of an added row (no old values) or of a removed one (no new values). */
const cellsNow = (cells: Record<string, string>) => Object.fromEntries(Object.entries(cells).map(([key, value]) => [key, { old: null, new: value }]));
const cellsWere = (cells: Record<string, string>) => Object.fromEntries(Object.entries(cells).map(([key, value]) => [key, { old: value, new: null }]));

const ownPath = (type: ReportTypeKey) => `/template/${type}/changes/`;
const partnerPath = (type: ReportTypeKey) => `/template/${type}/changes/{partnerId}/`;

async function changesOf(type: ReportTypeKey, token: string, query: Record<string, string>, partnerId?: number) {
  const answer = await callApi("GET", partnerId ? `/template/${type}/changes/${partnerId}/` : ownPath(type), { token, query });
  expectStatus(answer, 200);
  expectDocumented("GET", partnerId ? partnerPath(type) : ownPath(type), answer);
  return answer.body;
}

describe("GET /template/sales/changes/", () => {
  it("since the last submission: the base, the counts, an added row's cells, a changed row's old and new values, a removed row's old cells", async () => {
    const reportId = await makeReport("sales", openId);
    const { first, added, base: baseRows } = await salesRowsAndTheirBase(reportId, apiRow, ids);
    const base = await snapshot(reportId, "sales", "submit", baseRows);

    const year = String(openRef.year);
    expect(await changesOf("sales", demo.partner3, { since: "submission" })).toEqual({
      quarter: quarterName(openRef),
      since: "submission",
      base: base.sameQuarter,
      no_base: null,
      counts: { added: 1, changed: 1, removed: 1 },
      rows: [
        {
          change: "added",
          table: "API",
          row_key: String(added.id),
          cells: cellsNow({ year, month: "March", country: "India", purchaser: "WHO", productName: "Abacavir API", quantity: "5", totalValue: "1000" }),
        },
        // Kenya now, India before; 20 now, 10 before (no trailing zeros); the unchanged cells are left out.
        { change: "changed", table: "API", row_key: String(first.id), cells: { country: { old: "India", new: "Kenya" }, quantity: { old: "10", new: "20" } } },
        {
          change: "removed",
          table: "FDF",
          row_key: String(added.id + 1000),
          cells: cellsWere({
            year,
            month: "February",
            country: "India",
            purchaser: "Removed buyer",
            productName: "Dolutegravir 50 mg",
            formulationType: "Tablet",
            packSize: "30",
            quantity: "7",
            totalValue: "1000",
            royaltyPercent: "4.5",
          }),
        },
      ],
      count: 3,
      page_number: 1,
      page_size: 500,
      pages: 1,
    });
  });

  it("a large comparison is paged: 501 added rows and a removed one make two pages; a page past the end is the last", async () => {
    const reportId = await makeReport("sales", openId);
    const rows = await db
      .insert(salesRows)
      .values(Array.from({ length: 501 }, (_, index) => apiRow(reportId, `Buyer ${index + 1}`, "1")))
      .returning();
    await snapshot(reportId, "sales", "submit", [stored(rows[500].id + 1, apiRow(reportId, "Gone buyer", "9"))]);

    const first = await changesOf("sales", demo.partner3, { since: "submission" });
    expect(first).toMatchObject({ counts: { added: 501, changed: 0, removed: 1 }, count: 502, page_number: 1, page_size: 500, pages: 2 });
    expect(first.rows.map((row: { row_key: string }) => row.row_key)).toEqual(rows.slice(0, 500).map((row) => String(row.id)));

    for (const page of ["2", "9"]) {
      const last = await changesOf("sales", demo.partner3, { since: "submission", page_number: page });
      expect(last).toMatchObject({ count: 502, page_number: 2, pages: 2 });
      expect(last.rows.map((row: { change: string; row_key: string }) => [row.change, row.row_key])).toEqual([
        ["added", String(rows[500].id)],
        ["removed", String(rows[500].id + 1)],
      ]);
      expect(last.rows[1].cells.purchaser).toEqual({ old: "Gone buyer", new: null });
    }
  });

  it("says why there is nothing to compare with, as the screen does", async () => {
    const none = { counts: { added: 0, changed: 0, removed: 0 }, rows: [], count: 0, page_number: 1, pages: 1, base: null };
    expect(await changesOf("sales", demo.partner3, { since: "submission" })).toMatchObject({
      ...none,
      no_base: { reason: "unsaved", detail: "This report has not been saved yet: there is nothing to compare." },
    });

    const reportId = await makeReport("sales", openId);
    await db.insert(salesRows).values(apiRow(reportId, "Global Fund", "20"));
    expect(await changesOf("sales", demo.partner3, { since: "approval" })).toMatchObject({
      ...none,
      since: "approval",
      no_base: { reason: "approval", detail: "This report has not been approved yet: there is no approval to compare with." },
    });
    expect(await changesOf("sales", demo.admin, { since: "previous-quarter" }, demo.cedar)).toMatchObject({
      ...none,
      no_base: {
        reason: "previous-quarter",
        detail: `There is no submitted report of the previous quarter (${quarterName(previousRef)}) to compare with.`,
      },
    });
  });

  it("refuses a base it does not know, a missing one, another partner's report and the administrators' form to a partner", async () => {
    for (const query of [{ since: "yesterday" }, {}] as Record<string, string>[]) {
      const bad = await callApi("GET", ownPath("sales"), { token: demo.partner3, query });
      expectRefused("GET", ownPath("sales"), bad, 400);
      expect(Object.keys(bad.body.errors)).toEqual(["query.since"]);
    }
    const other = await callApi("GET", ownPath("sales"), { token: demo.partner3, query: { since: "submission", partner_id: String(demo.acme) } });
    expectRefused("GET", ownPath("sales"), other, 400);
    const adminForm = await callApi("GET", `/template/sales/changes/${demo.acme}/`, { token: demo.partner3, query: { since: "submission" } });
    expectRefused("GET", partnerPath("sales"), adminForm, 403);
    const staffOwn = await callApi("GET", ownPath("sales"), { token: demo.staff, query: { since: "submission" } });
    expectRefused("GET", ownPath("sales"), staffOwn, 403);
  });
});

describe("GET /template/pdt/changes/{partnerId}/", () => {
  it("since the last approval, for administrators and staff: old and new dates as stored, a removed stage named by product and stage", async () => {
    const reportId = await makeReport("pdt", openId);
    const { base: baseRows } = await timelineAndItsBase(reportId, ids);
    const base = await snapshot(reportId, "pdt", "approve", baseRows);
    const [stage] = await db.select({ name: stages.name }).from(stages).where(eq(stages.id, ids.secondStage));

    for (const token of [demo.admin, demo.staff]) {
      const answer = await changesOf("pdt", token, { since: "approval" }, demo.cedar);
      expect(answer).toMatchObject({ since: "approval", base: base.sameQuarter, counts: { added: 1, changed: 1, removed: 1 }, count: 3 });
      expect(answer.rows).toEqual([
        {
          change: "added",
          table: "",
          row_key: `${ids.dolutegravir}:${ids.secondStage}`,
          cells: cellsNow({ productName: "Dolutegravir 50 mg", stageName: stage.name, startDate: "2026-07-01", endDate: "2026-12-31" }),
        },
        { change: "changed", table: "", row_key: `${ids.dolutegravir}:${ids.firstStage}`, cells: { startDate: { old: "2026-01-15", new: "2026-02-01" } } },
        {
          change: "removed",
          table: "",
          row_key: `${ids.abacavir}:${ids.secondStage}`,
          cells: cellsWere({ productName: "Abacavir API", stageName: stage.name, startDate: "2025-10-01", notes: "Dropped" }),
        },
      ]);
    }
  });
});

describe("GET /template/filing/changes/", () => {
  it("the previous quarter: cells matched by country and product, with the quarter the base is of", async () => {
    const previousReport = await makeReport("filing", previousId);
    const base = await snapshot(previousReport, "filing", "submit", [
      { id: 1, reportId: previousReport, countryId: ids.india, productId: ids.abacavir, status: "Filed" },
      { id: 2, reportId: previousReport, countryId: ids.kenya, productId: ids.abacavir, status: "Planned" },
    ]);
    const reportId = await makeReport("filing", openId);
    await db.insert(filingValues).values([
      { reportId, countryId: ids.india, productId: ids.abacavir, status: "Approved" },
      { reportId, countryId: ids.india, productId: ids.dolutegravir, status: "Filed" },
    ]);

    expect(await changesOf("filing", demo.partner3, { since: "previous-quarter" })).toEqual({
      quarter: quarterName(openRef),
      since: "previous-quarter",
      base: base.previousQuarter,
      no_base: null,
      counts: { added: 1, changed: 1, removed: 1 },
      rows: [
        {
          change: "added",
          table: "",
          row_key: `${ids.india}:${ids.dolutegravir}`,
          cells: cellsNow({ country: "India", product: "Dolutegravir 50 mg", status: "Filed" }),
        },
        { change: "changed", table: "", row_key: `${ids.india}:${ids.abacavir}`, cells: { status: { old: "Filed", new: "Approved" } } },
        {
          change: "removed",
          table: "",
          row_key: `${ids.kenya}:${ids.abacavir}`,
          cells: cellsWere({ country: "Kenya", product: "Abacavir API", status: "Planned" }),
        },
      ],
      count: 3,
      page_number: 1,
      page_size: 500,
      pages: 1,
    });
  });
});

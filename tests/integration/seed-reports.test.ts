import fs from "node:fs";
import path from "node:path";
import { and, asc, count, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { filingStatuses, filingValues, partnerProducts, pdtValues, products, quarters, reports, stages } from "~/db/schema";
import { listFilingStatuses } from "~/reports/filing/statuses.server";
import { openQuarterRef } from "~/models/quarter.server";
import { FILING_BASE_STATUSES, seedIfEmpty } from "~/models/seed.server";
import { filingStatusOptions, plannedFilingQuarters } from "~/reports/filing/statuses";
import { portalNow } from "~/utils/today.server";
import { memoisedHash } from "../support/database";

const rank = (q: { year: number; quarter: number }) => q.year * 4 + q.quarter;

async function reportsOfType(type: "pdt" | "filing") {
  return db
    .select({ id: reports.id, partnerId: reports.partnerId, year: quarters.year, quarter: quarters.quarter, name: quarters.name })
    .from(reports)
    .innerJoin(quarters, eq(quarters.id, reports.quarterId))
    .where(eq(reports.type, type))
    .orderBy(asc(reports.partnerId), asc(quarters.year), asc(quarters.quarter));
}

async function activeProducts(partnerId: number) {
  return db
    .select({ id: products.id, category: products.category })
    .from(partnerProducts)
    .innerJoin(products, eq(products.id, partnerProducts.productId))
    .where(and(eq(partnerProducts.partnerId, partnerId), eq(partnerProducts.isActive, true)));
}

const valuesOf = (reportId: number) => db.select().from(pdtValues).where(eq(pdtValues.reportId, reportId));

describe("demo seed: PDT values", () => {
  it("gives every PDT report a row per active product and stage of its category", async () => {
    const pdtReports = await reportsOfType("pdt");
    expect(pdtReports.length).toBeGreaterThanOrEqual(9);
    const stageRows = await db.select({ id: stages.id, category: stages.category }).from(stages);
    for (const report of pdtReports) {
      const expected = (await activeProducts(report.partnerId))
        .flatMap((product) => stageRows.filter((stage) => stage.category === product.category).map((stage) => `${product.id}/${stage.id}`))
        .sort();
      const actual = (await valuesOf(report.id)).map((row) => `${row.productId}/${row.stageId}`).sort();
      expect(actual, `report ${report.id} (${report.name})`).toEqual(expected);
    }
  });

  it("holds plausible plans: ordered stages, the earliest in the past, some notes", async () => {
    const today = portalNow().toISOString().slice(0, 10);
    const pdtReports = await reportsOfType("pdt");
    let withNotes = 0;
    for (const report of pdtReports) {
      const rows = await db
        .select({ productId: pdtValues.productId, startDate: pdtValues.startDate, endDate: pdtValues.endDate, notes: pdtValues.notes })
        .from(pdtValues)
        .innerJoin(stages, eq(stages.id, pdtValues.stageId))
        .where(eq(pdtValues.reportId, report.id))
        .orderBy(asc(pdtValues.productId), asc(stages.sortOrder));
      withNotes += rows.filter((row) => row.notes).length;
      const byProduct = new Map<number, typeof rows>();
      for (const row of rows) byProduct.set(row.productId, [...(byProduct.get(row.productId) ?? []), row]);
      for (const stagesOfProduct of byProduct.values()) {
        expect(stagesOfProduct[0].endDate! < today, "the first stage lies in the past").toBe(true);
        for (const [index, row] of stagesOfProduct.entries()) {
          expect(row.startDate! <= row.endDate!).toBe(true);
          if (index > 0) expect(stagesOfProduct[index - 1].endDate! < row.startDate!).toBe(true);
        }
        const first = Date.parse(stagesOfProduct[0].startDate!);
        const last = Date.parse(stagesOfProduct[stagesOfProduct.length - 1].endDate!);
        const years = (last - first) / (365 * 86_400_000);
        expect(years).toBeGreaterThan(1.8);
        expect(years).toBeLessThan(3.5);
      }
    }
    expect(withNotes).toBeGreaterThan(0);
  });

  it("slips some stages from one quarter's plan to the next, by 10 to 60 days", async () => {
    const pdtReports = await reportsOfType("pdt");
    let comparisons = 0;
    for (const [index, later] of pdtReports.entries()) {
      const earlier = pdtReports[index - 1];
      if (!earlier || earlier.partnerId !== later.partnerId || rank(later) - rank(earlier) !== 1) continue;
      comparisons++;
      const before = new Map((await valuesOf(earlier.id)).map((row) => [`${row.productId}/${row.stageId}`, row]));
      const slips = (await valuesOf(later.id))
        .map((row) => {
          const old = before.get(`${row.productId}/${row.stageId}`)!;
          return (Date.parse(row.endDate!) - Date.parse(old.endDate!)) / 86_400_000;
        })
        .filter((days) => days !== 0);
      expect(slips.length, `${later.name} against ${earlier.name}`).toBeGreaterThan(0);
      for (const days of slips) {
        expect(days).toBeGreaterThanOrEqual(10);
        expect(days).toBeLessThanOrEqual(60);
      }
    }
    expect(comparisons).toBeGreaterThan(0);
  });
});

describe("demo seed: Filing Plans values", () => {
  it("fills the filing reports with statuses valid for their own quarter, leaving a few cells empty", async () => {
    const filingReports = await reportsOfType("filing");
    expect(filingReports.length).toBeGreaterThanOrEqual(8);
    for (const report of filingReports) {
      const options = new Set(filingStatusOptions(FILING_BASE_STATUSES, report));
      const rows = await db.select().from(filingValues).where(eq(filingValues.reportId, report.id));
      const own = new Set((await activeProducts(report.partnerId)).map((product) => product.id));
      const countryCount = new Set(rows.map((row) => row.countryId)).size;
      expect(countryCount).toBeGreaterThanOrEqual(8);
      expect(rows.length, "some cells are empty").toBeLessThan(countryCount * own.size);
      expect(rows.length).toBeGreaterThan(countryCount * own.size * 0.6);
      for (const row of rows) {
        expect(own.has(row.productId)).toBe(true);
        expect(options.has(row.status), `${row.status} in ${report.name}`).toBe(true);
      }
    }
    const used = new Set((await db.select({ status: filingValues.status }).from(filingValues)).map((row) => row.status));
    for (const status of FILING_BASE_STATUSES) expect(used).toContain(status);
    expect([...used].some((status) => /^Q[1-4] \d{4}$/.test(status))).toBe(true);
  });
});

describe("filing statuses", () => {
  it("stores only the base statuses and adds the four quarters after the open one", async () => {
    const names = await db.select({ name: filingStatuses.name }).from(filingStatuses);
    expect(names.length).toBe(2 * FILING_BASE_STATUSES.length);
    const planned = plannedFilingQuarters(openQuarterRef());
    const expected = [...FILING_BASE_STATUSES, ...planned];
    expect(await listFilingStatuses()).toEqual({ API: expected, FDF: expected });
  });

  it("the migration removes quarter-named rows of an older database", async () => {
    await db.insert(filingStatuses).values([
      { category: "API", name: "Q1 2027", sortOrder: 5 },
      { category: "FDF", name: "Q2 2027", sortOrder: 6 },
    ]);
    const planned = plannedFilingQuarters(openQuarterRef());
    expect((await listFilingStatuses()).API).toEqual([...FILING_BASE_STATUSES, ...planned]);
    const migration = fs.readFileSync(path.resolve(import.meta.dirname, "../../drizzle/0002_filing_statuses_roll.sql"), "utf8");
    await db.execute(sql.raw(migration));
    const left = await db.select({ name: filingStatuses.name }).from(filingStatuses).orderBy(asc(filingStatuses.sortOrder));
    expect(new Set(left.map((row) => row.name))).toEqual(new Set(FILING_BASE_STATUSES));
  });
});

describe("seedIfEmpty", () => {
  it("leaves a seeded database alone", async () => {
    const before = await Promise.all([pdtValues, filingValues, reports].map((table) => db.select({ value: count() }).from(table)));
    expect(await seedIfEmpty({ hash: memoisedHash })).toBe(false);
    const after = await Promise.all([pdtValues, filingValues, reports].map((table) => db.select({ value: count() }).from(table)));
    expect(after).toEqual(before);
  });
});

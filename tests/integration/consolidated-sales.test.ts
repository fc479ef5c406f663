import { parse } from "csv-parse/sync";
import Decimal from "decimal.js";
import { and, asc, eq, sql } from "drizzle-orm";
import ExcelJS from "exceljs";
import { beforeEach, describe, expect, it } from "vitest";
import postgres from "postgres";
import { databaseDriver, db, openDatabase, usingDatabase } from "~/db/client.server";
import { seedDemoData, seedReferenceData } from "~/models/seed.server";
import { MONTHS } from "~/db/reference-data";
import { countries, formulationTypes, partners, products, productVerifications, reports, salesRows, users } from "~/db/schema";
import { DOWNLOAD_BATCH_ROWS } from "~/reports/consolidated/download.server";
import type { SalesConsolidatedRow, SalesConsolidatedView } from "~/reports/sales/consolidated.server";
import { ensureQuarter, openQuarterRef } from "~/models/quarter.server";
import { loadSalesReport, saveSalesReport } from "~/reports/sales/model.server";
import { getAuthUser } from "~/models/user.server";
import { CONSOLIDATED_PAGE_SIZES } from "~/reports/consolidated/paging";
import { loader as csvLoader } from "~/routes/admin.report.sales-report.csv";
import { loader as xlsxLoader } from "~/routes/admin.report.sales-report.xlsx";
import { loader as pageLoader } from "~/routes/_shell.admin.report.sales-report";
import { addQuarters, quarterName } from "~/utils/quarters";
import { formatDecimal } from "~/reports/sales/rows";
import { columnsFor, type SalesKind } from "~/reports/sales/columns";
import { databaseBeside, memoisedHash } from "../support/database";
import { buildRequest, NOT_FOUND_PAGE, runRoute, sessionCookieFor, testContext } from "../support/remix";

const ADMIN = "admin@example.org";
const STAFF = "staff@example.org";
const ACME = "partner1@example.org";
const BOREALIS = "partner2@example.org";
const CEDAR = "partner3@example.org";
const PAGE = "/admin/report/sales-report";
const PAGE_SIZE = CONSOLIDATED_PAGE_SIZES.sales;

type Row = SalesConsolidatedRow;
type NewRow = typeof salesRows.$inferInsert;

// ---------------------------------------------------------------- helpers

async function partnerIdOf(email: string) {
  const [partner] = await db.select().from(partners).where(eq(partners.email, email));
  return partner.id;
}
async function countryIdOf(name: string) {
  const [country] = await db.select().from(countries).where(eq(countries.name, name));
  return country.id;
}
async function salesReportOf(partnerId: number, quarterId: number) {
  const [report] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.partnerId, partnerId), eq(reports.quarterId, quarterId), eq(reports.type, "sales")));
  return report;
}

async function view(search = "", email = ADMIN): Promise<SalesConsolidatedView> {
  const cookie = await sessionCookieFor(email);
  const result = await runRoute<SalesConsolidatedView>(pageLoader, buildRequest(`${PAGE}${search}`, { cookie }));
  expect(result.status).toBe(200);
  return result.data!;
}

/** Every row of a view, all pages, by following the pages as a reader would. */
async function allPages(search: string): Promise<Row[]> {
  const first = await view(search);
  const rows = [...first.page.rows];
  for (let page = 2; page <= first.page.pages; page++) rows.push(...(await view(`${search}${search ? "&" : "?"}page=${page}`)).page.rows);
  expect(rows).toHaveLength(first.page.total);
  return rows;
}

async function download(format: "csv" | "xlsx", search = "", email = ADMIN): Promise<Response> {
  const cookie = await sessionCookieFor(email);
  const loader = format === "csv" ? csvLoader : xlsxLoader;
  return (await loader({ request: buildRequest(`${PAGE}/${format}${search}`, { cookie }), params: {}, context: testContext() })) as Response;
}

async function csvRecords(search = ""): Promise<{ header: string[]; records: string[][]; raw: string; response: Response }> {
  const response = await download("csv", search);
  expect(response.status).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const [header, ...records] = parse(bytes, { bom: true }) as string[][];
  return { header, records, raw: bytes.toString("utf8"), response };
}

async function xlsxSheet(search = "") {
  const response = await download("xlsx", search);
  expect(response.status).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
  return { workbook, response };
}

/** The cells of a shown row as the CSV writes them. */
const csvCellsOf = (kind: SalesKind, row: Row) => [row.companyName, row.reportStatus, ...columnsFor(kind).map((column) => row[column.key] ?? "")];

/** A product of the category that the partner reports. */
async function aProduct(category: SalesKind) {
  const [product] = await db.select().from(products).where(eq(products.category, category)).orderBy(asc(products.id)).limit(1);
  return product;
}

async function insertRows(rows: NewRow[]) {
  for (let start = 0; start < rows.length; start += 1000) await db.insert(salesRows).values(rows.slice(start, start + 1000));
}

/** The quarter's rows of a kind straight from the tables: the oracle the report is checked against. */
async function storedRows(quarterId: number, kind: SalesKind) {
  return db
    .select({
      id: salesRows.id,
      reportId: reports.id,
      partnerId: reports.partnerId,
      company: partners.companyName,
      status: reports.status,
      year: salesRows.year,
      month: salesRows.month,
      countryId: salesRows.countryId,
      country: countries.name,
      purchaser: salesRows.purchaser,
      productId: salesRows.productId,
      product: sql<string | null>`coalesce(${products.name}, ${salesRows.productName})`,
      quantity: salesRows.quantity,
      totalValue: salesRows.totalValue,
      currency: salesRows.currencyCode,
      strength: salesRows.strength,
      formulationTypeId: salesRows.formulationTypeId,
      procurementEndCountry: salesRows.procurementEndCountry,
      comments: salesRows.comments,
    })
    .from(salesRows)
    .innerJoin(reports, eq(reports.id, salesRows.reportId))
    .innerJoin(partners, eq(partners.id, reports.partnerId))
    .leftJoin(countries, eq(countries.id, salesRows.countryId))
    .leftJoin(products, eq(products.id, salesRows.productId))
    .where(and(eq(reports.quarterId, quarterId), eq(reports.type, "sales"), eq(salesRows.kind, kind)));
}
type Stored = Awaited<ReturnType<typeof storedRows>>[number];

const byCompany = (a: Stored, b: Stored) => (a.company < b.company ? -1 : a.company > b.company ? 1 : a.reportId - b.reportId || a.id - b.id);
const contains = (value: string | null, part: string) => (value ?? "").toLowerCase().includes(part.toLowerCase());

let openQuarterId: number;
let previousQuarterId: number;
let acme: number;
let borealis: number;
let cedar: number;
const openName = quarterName(openQuarterRef());
const previousName = quarterName(addQuarters(openQuarterRef(), -1));

/** The quarters and partners the tests name, as the database of the moment holds them. */
async function readQuartersAndPartners() {
  openQuarterId = (await ensureQuarter(openQuarterRef())).id;
  previousQuarterId = (await ensureQuarter(addQuarters(openQuarterRef(), -1))).id;
  [acme, borealis, cedar] = await Promise.all([ACME, BOREALIS, CEDAR].map(partnerIdOf));
}
beforeEach(readQuartersAndPartners);

// ---------------------------------------------------------------- the other driver

/** The PostgreSQL server the downloads are compared on when the suite runs on the embedded database (in CI the suite runs on PostgreSQL). */
const LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * A database of the driver the suite does not run on (the embedded PGlite beside PostgreSQL, a
 * database of the local PostgreSQL beside PGlite), migrated and seeded as every test's database is.
 */
async function openOtherDriver() {
  const suiteOnPostgres = databaseDriver() === "postgres";
  const name = `test_sales_downloads_${process.pid}_${process.env.VITEST_POOL_ID ?? 0}`;
  const handle = suiteOnPostgres ? await openDatabase({ pgliteDir: "memory://" }) : await openDatabase({ url: await databaseBeside(LOCAL_POSTGRES, name) });
  await handle.migrate();
  await usingDatabase(handle, () =>
    db.transaction(async (tx) => {
      await seedReferenceData(tx);
      await seedDemoData(tx, { hash: memoisedHash });
    }),
  );
  return {
    handle,
    async close() {
      await handle.close();
      if (suiteOnPostgres) return;
      const admin = postgres(LOCAL_POSTGRES, { max: 1, onnotice: () => {} });
      await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).finally(() => admin.end());
    },
  };
}

/**
 * A quarter with enough rows to page and filter: the open quarter's reports of Acme (Saved) and
 * Borealis (Approved) and a new Submitted one of Cedar, each with API rows over a few years,
 * months, countries, purchasers and quantities (ties included), and FDF rows in three currencies.
 */
async function seedOpenQuarter(apiPerReport = 90) {
  const cedarReport = await db
    .insert(reports)
    .values({ partnerId: cedar, quarterId: openQuarterId, type: "sales", status: "Submitted", submittedAt: new Date(), firstSubmittedAt: new Date() })
    .returning();
  const reportIds = [(await salesReportOf(acme, openQuarterId)).id, (await salesReportOf(borealis, openQuarterId)).id, cedarReport[0].id];
  const countryIds = await Promise.all(["India", "Kenya", "Brazil"].map(countryIdOf));
  const api = await aProduct("API");
  const fdf = await aProduct("FDF");
  const [tablet] = await db.select().from(formulationTypes).where(eq(formulationTypes.name, "Tablet"));
  const rows: NewRow[] = [];
  reportIds.forEach((reportId, r) => {
    for (let i = 0; i < apiPerReport; i++) {
      rows.push({
        reportId,
        kind: "API",
        year: 2024 + (i % 3),
        month: 1 + ((i * 5 + r) % 12),
        countryId: i % 7 === 0 ? null : countryIds[(i + r) % 3],
        purchaser: `Buyer ${String.fromCharCode(65 + ((i * 3 + r) % 26))}${i % 4}`,
        productId: api.id,
        productName: api.name,
        quantity: `${(i * 37 + r * 11) % 50}.${i % 2 ? "25" : "5"}`,
        totalValue: i % 9 === 0 ? null : `${(i * 101) % 997}.123456`,
      });
    }
    for (let i = 0; i < 12; i++) {
      rows.push({
        reportId,
        kind: "FDF",
        year: 2026,
        month: 1 + (i % 12),
        countryId: countryIds[i % 3],
        purchaser: `Health Ministry ${i % 3}`,
        productId: fdf.id,
        productName: fdf.name,
        strength: i % 2 ? "50 mg" : "300/300/50 mg",
        formulationTypeId: tablet.id,
        packSize: "30",
        quantity: String(1000 + i),
        currencyCode: ["USD", "KES", "ZAR"][i % 3],
        grossSalePriceCurrency: "3.15",
        usdExchangeRate: "1",
        grossSalePriceUsd: "3.15",
        totalGrossValue: "3150",
        deductableExpenses: "0",
        totalValue: "3150",
        royaltyPercent: "5",
        royaltyDue: "157.5",
        procurementEndCountry: i % 4 === 0 ? "Global Fund / Kenya" : "PEPFAR / Uganda",
        comments: i % 4 === 0 || i === 7 ? "Shipped late in the quarter" : null,
      });
    }
  });
  await insertRows(rows);
  return { reportIds, countryIds, cedarReportId: cedarReport[0].id };
}

// ---------------------------------------------------------------- the page

describe("the consolidated Sales Report page", () => {
  it("shows the open quarter's API rows of every report state by default, company by company, with Report Status and the grid's columns", async () => {
    const result = await view();
    expect(result.tab).toBe("API");
    expect(result.quarter.name).toBe(openName);
    expect(result.sort).toBe("company");
    expect(result.options.quarters[0]).toBe(openName);
    expect(result.options.quarters[1]).toBe(previousName);

    const stored = (await storedRows(openQuarterId, "API")).sort(byCompany);
    expect(result.page.total).toBe(stored.length);
    expect(result.page.rows.map((row) => row.id)).toEqual(stored.map((row) => row.id));
    // The Acme draft is shown: rows of a Saved report count too.
    expect(result.page.rows.filter((row) => row.companyName === "Acme Generics Ltd").map((row) => row.reportStatus)).toEqual(["Saved", "Saved", "Saved"]);
    expect(new Set(result.page.rows.map((row) => row.reportStatus))).toEqual(new Set(["Saved", "Approved"]));
    const first = result.page.rows[0];
    expect(Object.keys(first).sort()).toEqual(
      [
        "companyName",
        "country",
        "countryId",
        "id",
        "month",
        "productId",
        "productName",
        "purchaser",
        "quantity",
        "reportId",
        "reportStatus",
        "totalValue",
        "year",
      ].sort(),
    );
    expect(first).toMatchObject({ companyName: "Acme Generics Ltd", country: "India", purchaser: "Hetero Labs Ltd", quantity: "250.5", totalValue: "180360" });
    const firstStored = stored.find((row) => row.id === first.id)!;
    expect({ countryId: first.countryId, productId: first.productId }).toEqual({ countryId: firstStored.countryId, productId: firstStored.productId });
    expect(first.countryId).not.toBeNull();
    expect(first.month).toBe(MONTHS[(openQuarterRef().quarter - 1) * 3]);
    expect(result.options.partners.map((option) => option.name)).toEqual(["Acme Generics Ltd", "Borealis Pharma Pvt"]);
    expect(result.options.statuses).toEqual(["Saved", "Submitted", "Resubmitted", "Approved", "Rejected"]);
  });

  it("shows the FDF tab with its own columns, numbers as plain decimals and the unverified product by the name the partner typed", async () => {
    const result = await view("?tab=FDF");
    expect(result.tab).toBe("FDF");
    const stored = (await storedRows(openQuarterId, "FDF")).sort(byCompany);
    expect(result.page.rows.map((row) => row.id)).toEqual(stored.map((row) => row.id));
    const keys = columnsFor("FDF").map((column) => column.key);
    for (const row of result.page.rows) for (const key of keys) expect(typeof row[key]).toBe("string");
    expect(result.page.rows.map((row) => row.productName)).toContain("Efavirenz/Lamivudine/TDF 600/300/300 mg");

    const [raw] = await db.select().from(salesRows).where(eq(salesRows.id, result.page.rows[0].id));
    const shown = result.page.rows[0];
    expect(shown.usdExchangeRate).toBe(formatDecimal(raw.usdExchangeRate!, 12));
    expect(shown.totalValue).toBe(formatDecimal(raw.totalValue!, 12));
    expect(shown.royaltyPercent).toBe(formatDecimal(raw.royaltyPercent!, 12));
    expect(shown.packSize).toBe("30");
    expect(result.options.currencies).toEqual([...new Set(stored.map((row) => row.currency!))].sort());
    expect(result.options.formulationTypes.map((option) => option.name)).toContain("Tablet");
  });

  it("combines filters: partner, year, month, country, purchaser (any case, a part), product and report status", async () => {
    const { countryIds } = await seedOpenQuarter();
    const stored = await storedRows(openQuarterId, "API");
    const api = await aProduct("API");
    const cases: { search: string; keep: (row: Stored) => boolean }[] = [
      { search: `?partner=${borealis}&year=2025`, keep: (row) => row.partnerId === borealis && row.year === 2025 },
      { search: `?year=2024&month=6&country=${countryIds[1]}`, keep: (row) => row.year === 2024 && row.month === 6 && row.countryId === countryIds[1] },
      { search: "?purchaser=bUYER%20c", keep: (row) => contains(row.purchaser, "buyer c") },
      {
        search: `?purchaser=buyer&product=${api.id}&reportStatus=Submitted`,
        keep: (row) => contains(row.purchaser, "buyer") && row.productId === api.id && row.status === "Submitted",
      },
      { search: "?reportStatus=Saved&month=2", keep: (row) => row.status === "Saved" && row.month === 2 },
      { search: `?partner=${acme}&reportStatus=Approved`, keep: () => false },
    ];
    for (const { search, keep } of cases) {
      const expected = stored
        .filter(keep)
        .sort(byCompany)
        .map((row) => row.id);
      const rows = await allPages(search);
      expect(
        rows.map((row) => row.id),
        search,
      ).toEqual(expected);
    }
  });

  it("applies the FDF filters on the FDF tab (strength, formulation type, currency, end-country, comments) and ignores them on the API tab", async () => {
    await seedOpenQuarter(5);
    const [tablet] = await db.select().from(formulationTypes).where(eq(formulationTypes.name, "Tablet"));
    const stored = await storedRows(openQuarterId, "FDF");
    const cases: { search: string; keep: (row: (typeof stored)[number]) => boolean }[] = [
      {
        search: `?tab=FDF&strength=300%2F300&formulationType=${tablet.id}&currency=kes&procurementEndCountry=global%20fund&comments=LATE`,
        keep: (row) =>
          contains(row.strength, "300/300") &&
          row.formulationTypeId === tablet.id &&
          row.currency === "KES" &&
          contains(row.procurementEndCountry, "global fund") &&
          contains(row.comments, "late"),
      },
      { search: "?tab=FDF&comments=shipped&currency=ZAR", keep: (row) => contains(row.comments, "shipped") && row.currency === "ZAR" },
      {
        search: "?tab=FDF&strength=50%20MG&procurementEndCountry=uganda",
        keep: (row) => contains(row.strength, "50 mg") && contains(row.procurementEndCountry, "uganda"),
      },
    ];
    for (const { search, keep } of cases) {
      const expected = stored.filter(keep).sort(byCompany);
      expect(expected.length, search).toBeGreaterThan(0);
      expect(expected.length, search).toBeLessThan(stored.length);
      expect(
        (await allPages(search)).map((row) => row.id),
        search,
      ).toEqual(expected.map((row) => row.id));
    }

    const api = await view("?tab=API&currency=KES&strength=nothing&comments=nothing");
    expect(api.page.total).toBe((await storedRows(openQuarterId, "API")).length);
    expect(api.query.currency).toBeUndefined();
  });

  it("pages by 100: the last page holds the rest, a page past the end is the last page, a filter that matches nothing is an empty first page", async () => {
    await seedOpenQuarter(90);
    const total = (await storedRows(openQuarterId, "API")).length;
    const pages = Math.ceil(total / PAGE_SIZE);
    expect(pages).toBeGreaterThan(2);

    const first = await view();
    expect(first.page).toMatchObject({ page: 1, pages, total, pageSize: PAGE_SIZE });
    expect(first.page.rows).toHaveLength(PAGE_SIZE);

    const last = await view(`?page=${pages}`);
    expect(last.page.rows).toHaveLength(total - (pages - 1) * PAGE_SIZE);
    const past = await view(`?page=${pages + 50}`);
    expect(past.page.page).toBe(pages);
    expect(past.page.rows.map((row) => row.id)).toEqual(last.page.rows.map((row) => row.id));
    expect((await view("?page=nonsense")).page.page).toBe(1);

    const empty = await view("?purchaser=no%20such%20buyer&page=4");
    expect(empty.page).toMatchObject({ rows: [], total: 0, page: 1, pages: 1 });

    // Every row once over all pages, in order.
    const rows = await allPages("");
    expect(new Set(rows.map((row) => row.id)).size).toBe(total);
    expect(rows.map((row) => row.id)).toEqual((await storedRows(openQuarterId, "API")).sort(byCompany).map((row) => row.id));
  });

  it("sorts by company (either way), year, month, country, purchaser, product, quantity and total value, ties by row", async () => {
    await seedOpenQuarter(60);
    const stored = await storedRows(openQuarterId, "API");
    const number = (a: number, b: number) => a - b;
    const decimal = (a: string, b: string) => new Decimal(a).cmp(new Decimal(b));
    const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const keys: Record<string, [(row: Stored) => unknown, (a: never, b: never) => number]> = {
      year: [(row) => row.year, number],
      month: [(row) => row.month, number],
      country: [(row) => row.country, text],
      purchaser: [(row) => row.purchaser, text],
      product: [(row) => row.product, text],
      quantity: [(row) => row.quantity, decimal],
      totalValue: [(row) => row.totalValue, decimal],
    };
    for (const dir of ["asc", "desc"] as const) {
      for (const [sort, [key, compare]] of Object.entries(keys)) {
        const sign = dir === "asc" ? 1 : -1;
        const expected = [...stored].sort((a, b) => {
          const x = key(a) as never;
          const y = key(b) as never;
          // Empty values last in both directions; ties by row id in the sort's direction.
          if (x === null && y === null) return sign * (a.id - b.id);
          if (x === null) return 1;
          if (y === null) return -1;
          return sign * compare(x, y) || sign * (a.id - b.id);
        });
        const rows = await allPages(`?sort=${sort}&dir=${dir}`);
        expect(
          rows.map((row) => row.id),
          `${sort} ${dir}`,
        ).toEqual(expected.map((row) => row.id));
      }
    }
    const descending = await allPages("?sort=company&dir=desc");
    expect(descending.map((row) => row.id)).toEqual(
      [...stored]
        .sort(byCompany)
        .reverse()
        .map((row) => row.id),
    );
    expect(descending[0].companyName).toBe("Cedar Life Sciences");
    // An unknown sort is the default one.
    expect((await view("?sort=drop%20table&dir=sideways")).sort).toBe("company");
  });

  it("lists filter options from the quarter's rows of the tab: purchasers at most 200, alphabetical", async () => {
    const { reportIds } = await seedOpenQuarter(3);
    const api = await aProduct("API");
    await insertRows(
      Array.from({ length: 260 }, (_, i) => ({
        reportId: reportIds[0],
        kind: "API" as const,
        year: 2026,
        month: 1,
        purchaser: `Purchaser ${String(i).padStart(3, "0")}`,
        productId: api.id,
      })),
    );
    // Another report's names fall among the first report's 200 first: the list is the quarter's, not one report's.
    await insertRows(
      ["Purchaser 050b", "Purchaser 150b", "Purchaser 250b"].map((purchaser) => ({
        reportId: reportIds[1],
        kind: "API" as const,
        year: 2026,
        month: 2,
        purchaser,
        productId: api.id,
      })),
    );
    const result = await view();
    const stored = await storedRows(openQuarterId, "API");
    const everyPurchaser = [...new Set(stored.flatMap((row) => (row.purchaser ? [row.purchaser] : [])))].sort();
    expect(everyPurchaser.length).toBeGreaterThan(260);
    expect(result.options.purchasers).toEqual(everyPurchaser.slice(0, 200));
    expect(result.options.purchasers).toEqual(expect.arrayContaining(["Purchaser 050b", "Purchaser 150b"]));
    expect(result.options.purchasers).not.toContain("Purchaser 250b");
    expect(result.options.years.map((option) => option.id)).toEqual([...new Set(stored.map((row) => row.year!))].sort((a, b) => b - a));
    expect(result.options.months.map((option) => option.id)).toEqual([...new Set(stored.map((row) => row.month!))].sort((a, b) => a - b));
    expect(result.options.months.map((option) => option.name)).toEqual(result.options.months.map((option) => MONTHS[option.id - 1]));
    expect(result.options.countries.map((option) => option.id).sort()).toEqual(
      [...new Set(stored.flatMap((row) => (row.countryId ? [row.countryId] : [])))].sort(),
    );
    expect(result.options.products.map((option) => option.id).sort()).toEqual(
      [...new Set(stored.flatMap((row) => (row.productId ? [row.productId] : [])))].sort(),
    );
    expect(result.options.partners.map((option) => option.id)).toEqual([acme, borealis, cedar]);
    expect(result.options.currencies).toEqual([]);
  });

  it("a sorted page sees a change made since the last sorted view, and a filter or another order is sorted on its own", async () => {
    const { reportIds } = await seedOpenQuarter(3);
    const firstByPurchaser = (await view("?sort=purchaser")).page.rows[0];
    const byQuantityDesc = (await view("?sort=quantity&dir=desc")).page.rows.map((row) => row.id);
    expect(byQuantityDesc).not.toEqual((await view("?sort=purchaser")).page.rows.map((row) => row.id));

    // A purchaser that sorts first, in another report than the first row's.
    const target = reportIds.find((id) => id !== firstByPurchaser.reportId)!;
    await insertRows([{ reportId: target, kind: "API", year: 2026, month: 1, purchaser: "AAA First Buyer" }]);
    const after = await view("?sort=purchaser");
    expect(after.page.rows[0]).toMatchObject({ purchaser: "AAA First Buyer", reportId: target });
    expect(after.page.rows[1].id).toBe(firstByPurchaser.id);

    // Filtered, the order holds only the filter's rows; the last page of the order ends with its last row.
    const filtered = await allPages("?sort=purchaser&purchaser=buyer%20a");
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.every((row) => row.purchaser!.toLowerCase().includes("buyer a"))).toBe(true);
    expect(filtered.map((row) => row.purchaser)).toEqual(filtered.map((row) => row.purchaser).sort());
  });

  it("sees a row changed by a partner's save, whose row ids stay the same", async () => {
    await seedOpenQuarter(3);
    expect((await view("?purchaser=renamed%20by%20acme")).page.total).toBe(0);
    const [user] = await db.select().from(users).where(eq(users.email, ACME));
    const partner = (await getAuthUser(user.id))!;
    const { report, rows, quarter } = await loadSalesReport({ viewer: partner, partnerId: acme });
    const [first] = rows.API;
    const saved = await saveSalesReport({
      actor: partner,
      partnerId: acme,
      quarterId: quarter.id,
      expectedVersion: report.version,
      api: [{ ...first, purchaser: "Renamed by Acme" }],
      fdf: [],
      deletedIds: [],
      action: "save",
    });
    expect(saved).toMatchObject({ ok: true, counts: { updated: 1, added: 0 } });
    const after = await view("?purchaser=renamed%20by%20acme");
    expect(after.page.rows.map((row) => row.id)).toEqual([first.id]);
  });

  it("sees new rows, a new report state and a product verification decided since the last view at once", async () => {
    const before = await view();
    const acmeReport = await salesReportOf(acme, openQuarterId);
    await insertRows([{ reportId: acmeReport.id, kind: "API", year: 2026, month: 3, purchaser: "Late Buyer" }]);
    const after = await view();
    expect(after.page.total).toBe(before.page.total + 1);
    expect(after.options.purchasers).toContain("Late Buyer");

    await db
      .update(reports)
      .set({ status: "Submitted", version: acmeReport.version + 1, updatedAt: new Date() })
      .where(eq(reports.id, acmeReport.id));
    expect((await view("?reportStatus=Submitted")).page.total).toBe(4);

    // The unverified FDF product is approved: its row now names a product of the list.
    const [verification] = await db.select().from(productVerifications).where(eq(productVerifications.reportId, acmeReport.id));
    expect((await view("?tab=FDF")).options.products.map((option) => option.name)).not.toContain(verification.productName);
    const [approved] = await db.insert(products).values({ name: verification.productName, category: "FDF", therapyArea: "HIV" }).returning();
    await db
      .update(productVerifications)
      .set({ status: "approved", productId: approved.id, decidedAt: new Date() })
      .where(eq(productVerifications.id, verification.id));
    await db.update(salesRows).set({ productId: approved.id }).where(eq(salesRows.productVerificationId, verification.id));
    const fdf = await view(`?tab=FDF&product=${approved.id}`);
    expect(fdf.options.products.map((option) => option.name)).toContain(verification.productName);
    expect(fdf.page.total).toBe(1);
  });

  it("after a save that removes rows, lists what the other reports still hold and counts the rest", async () => {
    const [acmeReport, borealisReport] = [await salesReportOf(acme, openQuarterId), await salesReportOf(borealis, openQuarterId)];
    const row = { kind: "API" as const, year: 2026, month: 3 };
    await insertRows([
      { ...row, reportId: acmeReport.id, purchaser: "Only Acme Buyer" },
      { ...row, reportId: acmeReport.id, purchaser: "Shared Buyer" },
      { ...row, reportId: borealisReport.id, purchaser: "Shared Buyer" },
    ]);
    const before = await view("?purchaser=buyer");
    expect(before.page.total).toBe(3);
    expect(before.options.purchasers).toEqual(expect.arrayContaining(["Only Acme Buyer", "Shared Buyer"]));

    // Acme saves without its two rows: they go, and the report's version moves, in one transaction.
    await db.transaction(async (tx) => {
      await tx.delete(salesRows).where(and(eq(salesRows.reportId, acmeReport.id), sql`${salesRows.purchaser} like '%Buyer'`));
      await tx
        .update(reports)
        .set({ version: acmeReport.version + 1, updatedAt: new Date() })
        .where(eq(reports.id, acmeReport.id));
    });
    const after = await view("?purchaser=buyer");
    expect(after.page.total).toBe(1);
    expect(after.page.rows.map((shown) => [shown.companyName, shown.purchaser])).toEqual([["Borealis Pharma Pvt", "Shared Buyer"]]);
    expect(after.options.purchasers).toContain("Shared Buyer");
    expect(after.options.purchasers).not.toContain("Only Acme Buyer");
    expect(after.options.partners.map((option) => option.id)).toContain(acme);
  });

  it("the quarter dropdown shows another quarter; an unknown or future quarter is not found", async () => {
    const previous = await view(`?quarter=${encodeURIComponent(previousName)}`);
    expect(previous.quarter.name).toBe(previousName);
    const stored = (await storedRows(previousQuarterId, "API")).sort(byCompany);
    expect(previous.page.rows.map((row) => row.id)).toEqual(stored.map((row) => row.id));
    // Acme Approved, Borealis Approved, Cedar Submitted in the quarter before.
    expect(new Set(previous.page.rows.map((row) => row.reportStatus))).toEqual(new Set(["Approved", "Submitted"]));
    expect(previous.options.partners).toHaveLength(3);

    const cookie = await sessionCookieFor(ADMIN);
    for (const quarter of [quarterName(addQuarters(openQuarterRef(), 1)), "Q1 1990", "not a quarter"]) {
      const result = await runRoute(pageLoader, buildRequest(`${PAGE}?quarter=${encodeURIComponent(quarter)}`, { cookie }));
      expect(result.status, quarter).toBe(404);
      // A download has no page of its own: the not-found page answers it.
      const csv = await runRoute(csvLoader, buildRequest(`${PAGE}/csv?quarter=${encodeURIComponent(quarter)}`, { cookie }));
      expect(csv, quarter).toMatchObject(NOT_FOUND_PAGE);
    }
  });
});

// ---------------------------------------------------------------- downloads

describe("the consolidated Sales Report downloads", () => {
  it("the CSV holds every filtered row of all pages, in the page's order, with the page's cells", async () => {
    await seedOpenQuarter(90);
    for (const search of [
      "",
      "?purchaser=buyer%20a&sort=quantity&dir=desc",
      "?tab=FDF&currency=USD",
      `?reportStatus=Approved&quarter=${encodeURIComponent(previousName)}`,
    ]) {
      const kind: SalesKind = search.includes("tab=FDF") ? "FDF" : "API";
      const { header, records, response } = await csvRecords(search);
      expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
      expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="sales-report-${kind.toLowerCase()}.csv"`);
      expect(header).toEqual(["Company Name", "Report Status", ...columnsFor(kind).map((column) => column.label)]);
      // The download keeps the default order whatever the page's sort.
      const pages = await allPages(search.replace(/&?sort=[^&]*|&?dir=[^&]*/g, "").replace(/^\?$/, ""));
      expect(pages.length, search).toBeGreaterThan(0);
      expect(records, search).toEqual(pages.map((row) => csvCellsOf(kind, row)));
    }
  });

  it(`streams a few thousand rows in batches of ${DOWNLOAD_BATCH_ROWS}: every filtered row, once, in order`, async () => {
    const { reportIds } = await seedOpenQuarter(3);
    const api = await aProduct("API");
    const bulk: NewRow[] = [];
    // Acme's report alone is more than one batch; Borealis' ends in the middle of one.
    reportIds.forEach((reportId, r) => {
      const count = [2600, 1700, 900][r];
      for (let i = 0; i < count; i++) {
        bulk.push({
          reportId,
          kind: "API",
          year: 2025,
          month: 1 + (i % 12),
          purchaser: `Bulk ${i % 2 ? "odd" : "even"} ${r}-${i}`,
          productId: api.id,
          quantity: `${i}.000001`,
          totalValue: String(i * 10),
        });
      }
    });
    await insertRows(bulk);
    const stored = (await storedRows(openQuarterId, "API")).sort(byCompany);
    expect(stored.length).toBeGreaterThan(2 * DOWNLOAD_BATCH_ROWS);

    const { records } = await csvRecords();
    expect(records).toHaveLength(stored.length);
    const pages = await allPages("");
    expect(records).toEqual(pages.map((row) => csvCellsOf("API", row)));
    expect(records.map((record) => record[5])).toEqual(stored.map((row) => row.purchaser ?? ""));

    const odd = stored.filter((row) => contains(row.purchaser, "bulk odd"));
    const filtered = await csvRecords("?purchaser=bulk%20ODD");
    expect(filtered.records.map((record) => record[5])).toEqual(odd.map((row) => row.purchaser));
    expect(filtered.records.map((record) => record[7])).toEqual(odd.map((row) => formatDecimal(row.quantity!, 12)));

    const { workbook } = await xlsxSheet("?purchaser=bulk%20odd");
    const sheet = workbook.getWorksheet("API")!;
    expect(sheet.rowCount).toBe(odd.length + 1);
  });

  it("keeps money exact: plain decimal text in CSV, Excel numbers only where the number reads back the same", async () => {
    const acmeReport = await salesReportOf(acme, openQuarterId);
    await insertRows([
      { reportId: acmeReport.id, kind: "API", year: 2026, month: 1, purchaser: "Exact Buyer", quantity: "12345678901234.123456", totalValue: "0.100000" },
    ]);
    const { records } = await csvRecords("?purchaser=exact");
    expect(records).toHaveLength(1);
    expect(records[0].slice(7)).toEqual(["12345678901234.123456", "0.1"]);

    const { workbook } = await xlsxSheet("?purchaser=exact");
    const sheet = workbook.getWorksheet("API")!;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      "Company Name",
      "Report Status",
      "Year",
      "Month",
      "Country",
      "Purchaser",
      "Api Name",
      "Quantity (Kg)",
      "Total Value (USD)",
    ]);
    const row = sheet.getRow(2);
    expect(row.getCell(3).value).toBe(2026);
    expect(row.getCell(8).value).toBe("12345678901234.123456");
    expect(row.getCell(9).value).toBe(0.1);
  });

  it("neutralises cells a spreadsheet would run as formulas, in CSV and xlsx", async () => {
    const acmeReport = await salesReportOf(acme, openQuarterId);
    await insertRows([
      {
        reportId: acmeReport.id,
        kind: "FDF",
        year: 2026,
        month: 1,
        purchaser: '=HYPERLINK("http://evil.example","x")',
        strength: "+1",
        comments: "@SUM(A1:A2)",
        procurementEndCountry: "-2+3",
      },
    ]);
    const { records, raw } = await csvRecords("?tab=FDF&purchaser=hyperlink");
    expect(records).toHaveLength(1);
    const cells = Object.fromEntries(
      ["Company Name", "Report Status", ...columnsFor("FDF").map((column) => column.label)].map((label, i) => [label, records[0][i]]),
    );
    expect(cells.Purchaser).toBe(`'=HYPERLINK("http://evil.example","x")`);
    expect(cells.Strength).toBe("'+1");
    expect(cells.Comments).toBe("'@SUM(A1:A2)");
    expect(cells["Procurement Agency End-Country"]).toBe("'-2+3");
    expect(raw).not.toMatch(/^=|,=/m);

    const { workbook } = await xlsxSheet("?tab=FDF&purchaser=hyperlink");
    const sheet = workbook.getWorksheet("FDF")!;
    const values = sheet.getRow(2).values as unknown[];
    expect(values).toContain(`'=HYPERLINK("http://evil.example","x")`);
    expect(values).toContain("'+1");
    sheet.getRow(2).eachCell((cell) => expect(cell.formula).toBeUndefined());
  });

  it("round-trips accented and Chinese names in CSV (UTF-8 with BOM) and xlsx", async () => {
    await db.update(partners).set({ companyName: "Laboratoires Sàrl Réunion" }).where(eq(partners.id, borealis));
    const acmeReport = await salesReportOf(acme, openQuarterId);
    await insertRows([
      { reportId: acmeReport.id, kind: "API", year: 2026, month: 2, purchaser: "上海医药集团股份有限公司" },
      { reportId: acmeReport.id, kind: "API", year: 2026, month: 2, purchaser: "Ministère de la Santé Publique" },
    ]);
    const expected = (await allPages("")).map((row) => csvCellsOf("API", row));
    const { records } = await csvRecords();
    expect(records).toEqual(expected);
    const flat = records.flat();
    expect(flat).toContain("Laboratoires Sàrl Réunion");
    expect(flat).toContain("上海医药集团股份有限公司");
    expect(flat).toContain("Ministère de la Santé Publique");
    expect((await csvRecords("?purchaser=SANT%C3%A9")).records.map((record) => record[5])).toEqual(["Ministère de la Santé Publique"]);

    const { workbook } = await xlsxSheet();
    const texts = workbook
      .getWorksheet("API")!
      .getSheetValues()
      .flat()
      .filter((value) => typeof value === "string");
    expect(texts).toContain("Laboratoires Sàrl Réunion");
    expect(texts).toContain("上海医药集团股份有限公司");
    expect(texts).toContain("Ministère de la Santé Publique");
  });

  // A second database is migrated and seeded: a while on a busy machine.
  it("PostgreSQL's files (COPY for the CSV, a cursor for the xlsx) hold what the embedded database writes in keyset batches", async () => {
    const seedAwkwardRows = async () => {
      await seedOpenQuarter(20);
      // The companies' order is not their reports' order, and one name reads as a formula.
      await db.update(partners).set({ companyName: "Zenith Generics Ltd" }).where(eq(partners.id, acme));
      await db.update(partners).set({ companyName: "=Apex Life Sciences" }).where(eq(partners.id, cedar));
      const acmeReport = await salesReportOf(acme, openQuarterId);
      const [formulation] = await db.select().from(formulationTypes).orderBy(asc(formulationTypes.id)).limit(1);
      const awkward = [
        'O\'Brien, "Health" \\ Co',
        "line one\nline two",
        "carriage\rreturn",
        "\ttabbed",
        "-minus",
        "  spaced  ",
        "",
        "semi;colon",
        "0",
        "=SUM(A1:A9)",
        "+44 20",
        "@handle",
        "\rreturn first",
        "上海医药",
      ];
      await insertRows(
        awkward.map((text, i) => ({
          reportId: acmeReport.id,
          kind: "FDF" as const,
          year: 2026,
          month: 1 + (i % 12),
          purchaser: text,
          strength: text,
          comments: text === "" ? null : `${text} %_ 100%`,
          procurementEndCountry: text,
          formulationTypeId: formulation.id,
          quantity: ["0.000000", "10.500000", "12345678901234.123456", "7"][i % 4],
          usdExchangeRate: ["1.000000000000", "0.000123456789", "83.120000000000"][i % 3],
          royaltyPercent: "5.0000",
        })),
      );
    };
    const searches = [
      "",
      "?tab=FDF",
      "?tab=FDF&purchaser=o'brien,%20%22health%22%20%5C",
      "?tab=FDF&comments=%25_%20100%25",
      "?tab=FDF&strength=nothing%20matches",
      `?tab=FDF&partner=${acme}&reportStatus=Saved`,
    ];
    /** Each search's CSV text and the values of the xlsx's sheet. */
    const downloadedFiles = async () => {
      const files = [];
      for (const search of searches) {
        const csv = Buffer.from(await (await download("csv", search)).arrayBuffer()).toString("utf8");
        const kind = new URLSearchParams(search).get("tab") ?? "API";
        files.push({ search, csv, sheet: (await xlsxSheet(search)).workbook.getWorksheet(kind)!.getSheetValues() });
      }
      return files;
    };
    await seedAwkwardRows();
    const here = await downloadedFiles();
    const other = await openOtherDriver();
    expect(other.handle.driver).not.toBe(databaseDriver());
    let there: typeof here;
    try {
      there = await usingDatabase(other.handle, async () => {
        await readQuartersAndPartners();
        await seedAwkwardRows();
        return downloadedFiles();
      });
    } finally {
      await other.close();
      await readQuartersAndPartners();
    }
    const [onPostgres, embedded] = databaseDriver() === "postgres" ? [here, there] : [there, here];
    for (const [index, { search, csv, sheet }] of onPostgres.entries()) {
      expect(csv, search).toBe(embedded[index].csv);
      expect(sheet, search).toEqual(embedded[index].sheet);
      const dataLines = (parse(csv, { bom: true }) as string[][]).slice(1);
      expect(sheet.length - 1, search).toBe(dataLines.length + 1);
    }
    const { records } = await csvRecords("?tab=FDF&purchaser=o'brien,%20%22health%22%20%5C");
    expect(records.map((record) => record[5])).toEqual(['O\'Brien, "Health" \\ Co']);
    const purchasers = (await csvRecords("?tab=FDF")).records.map((record) => record[5]);
    expect(purchasers).toEqual(
      expect.arrayContaining(["'=SUM(A1:A9)", "'+44 20", "'@handle", "'\rreturn first", "'-minus", "'\ttabbed", "上海医药", "carriage\rreturn"]),
    );
    for (const search of ["", "?tab=FDF"]) {
      const companies = (await csvRecords(search)).records.map((record) => record[0]);
      expect([...new Set(companies)], search).toEqual(["'=Apex Life Sciences", "Borealis Pharma Pvt", "Zenith Generics Ltd"]);
    }
  }, 120_000);

  it("names the workbook and its one sheet by the tab", async () => {
    const { workbook, response } = await xlsxSheet("?tab=FDF");
    expect(response.headers.get("Content-Type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="sales-report-fdf.xlsx"');
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(["FDF", "Info"]);
    const stored = await storedRows(openQuarterId, "FDF");
    expect(workbook.getWorksheet("FDF")!.rowCount).toBe(stored.length + 1);
  });
});

// ---------------------------------------------------------------- who may read

describe("who may read the consolidated Sales Report", () => {
  it("ADMIN and STAFF read the page and both downloads; a partner is refused; no session goes to sign-in", async () => {
    for (const email of [ADMIN, STAFF]) {
      const cookie = await sessionCookieFor(email);
      expect((await runRoute(pageLoader, buildRequest(PAGE, { cookie }))).status).toBe(200);
      expect((await download("csv", "", email)).status).toBe(200);
      expect((await download("xlsx", "?tab=FDF", email)).status).toBe(200);
    }
    const partnerCookie = await sessionCookieFor(ACME);
    for (const [loader, path] of [
      [pageLoader, PAGE],
      [csvLoader, `${PAGE}/csv`],
      [xlsxLoader, `${PAGE}/xlsx`],
    ] as const) {
      expect((await runRoute(loader, buildRequest(path, { cookie: partnerCookie }))).status, path).toBe(403);
      const anonymous = await runRoute(loader, buildRequest(path));
      expect(anonymous.status, path).toBe(302);
      expect(anonymous.location, path).toBe("/login");
    }
  });
});

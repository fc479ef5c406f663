import { parse } from "csv-parse/sync";
import { and, eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { countries, filingValues, partners, products, reports } from "~/db/schema";
import { DOWNLOAD_BATCH_ROWS } from "~/reports/consolidated/download.server";
import { filingConsolidatedRows } from "~/reports/filing/consolidated-download.server";
import { filingQuerySchema, type FilingConsolidatedView, type FilingQuery } from "~/reports/filing/consolidated.server";
import { ensureQuarter, openQuarterRef } from "~/models/quarter.server";
import { CONSOLIDATED_PAGE_SIZES } from "~/reports/consolidated/paging";
import { loader as pageLoader } from "~/routes/_shell.admin.report.filing-plans";
import { loader as csvLoader } from "~/routes/admin.report.filing-plans.csv";
import { loader as xlsxLoader } from "~/routes/admin.report.filing-plans.xlsx";
import { addQuarters, quarterName, type QuarterRef } from "~/utils/quarters";
import { REPORT_STATES } from "~/reports/frame/registry";
import { buildRequest, NOT_FOUND_PAGE, runRoute, sessionCookieFor, testContext } from "../support/remix";

const ADMIN = "admin@example.org";
const STAFF = "staff@example.org";
const ACME = "partner1@example.org";
const PAGE = "/admin/report/filing-plans";
const CSV = "/admin/report/filing-plans/csv";
const XLSX = "/admin/report/filing-plans/xlsx";
const PAGE_SIZE = CONSOLIDATED_PAGE_SIZES.filing;

type Status = (typeof REPORT_STATES)[number];
type PageData = { view: FilingConsolidatedView; query: FilingQuery };

let openRef: QuarterRef;
let open: number;
let previous: number;
let previousName: string;
let oldest: number;
let oldestName: string;
let adminCookie: string;
let partnerIds: Record<"acme" | "borealis" | "cedar", number>;
let countryIds: Map<string, number>;

beforeEach(async () => {
  openRef = openQuarterRef();
  open = (await ensureQuarter(openRef)).id;
  previous = (await ensureQuarter(addQuarters(openRef, -1))).id;
  previousName = quarterName(addQuarters(openRef, -1));
  oldest = (await ensureQuarter(addQuarters(openRef, -3))).id;
  oldestName = quarterName(addQuarters(openRef, -3));
  adminCookie = await sessionCookieFor(ADMIN);
  const byEmail = new Map((await db.select({ id: partners.id, email: partners.email }).from(partners)).map((row) => [row.email, row.id]));
  partnerIds = { acme: byEmail.get(ACME)!, borealis: byEmail.get("partner2@example.org")!, cedar: byEmail.get("partner3@example.org")! };
  countryIds = new Map((await db.select({ id: countries.id, name: countries.name }).from(countries)).map((row) => [row.name, row.id]));
});

// ---------------------------------------------------------------- helpers

const search = (values: Record<string, string | number | undefined>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : "";
};

async function page(values: Record<string, string | number | undefined> = {}, cookie = adminCookie) {
  return runRoute<PageData>(pageLoader, buildRequest(`${PAGE}${search(values)}`, { cookie }));
}
async function pageData(values: Record<string, string | number | undefined> = {}) {
  const result = await page(values);
  expect(result.status).toBe(200);
  return result.data!;
}

async function download(loader: typeof csvLoader, path: string, values: Record<string, string | number | undefined> = {}, cookie = adminCookie) {
  try {
    return (await loader({ request: buildRequest(`${path}${search(values)}`, { cookie }), params: {}, context: testContext() })) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

async function csvOf(values: Record<string, string | number | undefined> = {}) {
  const response = await download(csvLoader, CSV, values);
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toContain("text/csv");
  expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="filing-plans.csv"');
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const records = parse(Buffer.from(bytes), { bom: true }) as string[][];
  return { header: records[0], rows: records.slice(1) };
}

async function xlsxOf(values: Record<string, string | number | undefined> = {}) {
  const response = await download(xlsxLoader, XLSX, values);
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="filing-plans.xlsx"');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await response.arrayBuffer()) as ExcelJS.Buffer);
  const sheet = workbook.getWorksheet("Filing Plans");
  expect(sheet).toBeDefined();
  const rows: string[][] = [];
  sheet!.eachRow({ includeEmpty: false }, (row) => {
    const cells: string[] = [];
    for (let column = 1; column <= sheet!.columnCount; column += 1) {
      const value = row.getCell(column).value;
      cells.push(value === null || value === undefined ? "" : String(value));
    }
    rows.push(cells);
  });
  return { header: rows[0], rows: rows.slice(1) };
}

interface Expected {
  key: string;
  companyName: string;
  partnerId: number;
  country: string;
  countryId: number;
  reportStatus: Status;
  cells: Record<string, string>;
}

/**
 * What the report should hold, computed here from every stored cell of the quarter (without the
 * model's SQL): a row per report and country with a filing, the filters applied in JavaScript.
 */
async function expectedRows(
  quarterId: number,
  filter: { partner?: number; country?: number; reportStatus?: Status; product?: number; productStatus?: string } = {},
) {
  const cells = await db
    .select({
      reportId: reports.id,
      partnerId: reports.partnerId,
      companyName: partners.companyName,
      reportStatus: reports.status,
      countryId: filingValues.countryId,
      country: countries.name,
      productId: filingValues.productId,
      status: filingValues.status,
    })
    .from(filingValues)
    .innerJoin(reports, eq(reports.id, filingValues.reportId))
    .innerJoin(partners, eq(partners.id, reports.partnerId))
    .innerJoin(countries, eq(countries.id, filingValues.countryId))
    .where(and(eq(reports.quarterId, quarterId), eq(reports.type, "filing")));
  const rows = new Map<string, Expected>();
  for (const cell of cells) {
    if (cell.status === "" || cell.status === "0") continue;
    const key = `${cell.reportId}:${cell.countryId}`;
    const row = rows.get(key) ?? {
      key,
      companyName: cell.companyName,
      partnerId: cell.partnerId,
      country: cell.country,
      countryId: cell.countryId,
      reportStatus: cell.reportStatus,
      cells: {},
    };
    row.cells[String(cell.productId)] = cell.status;
    rows.set(key, row);
  }
  return [...rows.values()].filter((row) => {
    if (filter.partner && row.partnerId !== filter.partner) return false;
    if (filter.country && row.countryId !== filter.country) return false;
    if (filter.reportStatus && row.reportStatus !== filter.reportStatus) return false;
    const entries = Object.entries(row.cells);
    if (filter.product && filter.productStatus) return row.cells[String(filter.product)] === filter.productStatus;
    if (filter.product) return String(filter.product) in row.cells;
    if (filter.productStatus) return entries.some(([, status]) => status === filter.productStatus);
    return true;
  });
}

const keyOf = (row: { reportId: number; countryId: number }) => `${row.reportId}:${row.countryId}`;
const sortedKeys = (rows: { key: string }[]) => rows.map((row) => row.key).sort();

/** A row of the download as text cells: Company Name, Country, Report Status, then a cell per product column. */
const downloadRow = (row: Expected, productIds: number[]) => [
  row.companyName,
  row.country,
  row.reportStatus,
  ...productIds.map((id) => row.cells[String(id)] ?? ""),
];

async function addPartner(companyName: string) {
  const unique = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const [partner] = await db
    .insert(partners)
    .values({ companyName, email: `p-${unique}@example.org`, contactNumber: "+919876543210", region: "Asia" })
    .returning();
  return partner.id;
}
async function addReport(partnerId: number, quarterId: number, status: Status, cells: { country: number; product: number; status: string }[]) {
  const [report] = await db.insert(reports).values({ partnerId, quarterId, type: "filing", status }).returning();
  for (let start = 0; start < cells.length; start += 1000) {
    await db
      .insert(filingValues)
      .values(cells.slice(start, start + 1000).map((cell) => ({ reportId: report.id, countryId: cell.country, productId: cell.product, status: cell.status })));
  }
  return report.id;
}
async function firstProducts(count: number) {
  return (await db.select({ id: products.id }).from(products).orderBy(products.id)).slice(0, count).map((row) => row.id);
}

// ---------------------------------------------------------------- tests

describe("the Filing Plans consolidated report", () => {
  it("shows the open quarter by default: a row per report and country with a filing, a column per product of the quarter, by name", async () => {
    const { view, query } = await pageData();
    expect(query.quarter).toBeUndefined();
    expect(view.quarter).toMatchObject({ id: open, name: quarterName(openRef), isOpen: true });
    const expected = await expectedRows(open);
    expect(expected.length).toBeGreaterThan(0);
    expect(view.page).toMatchObject({ total: expected.length, page: 1, pages: 1, pageSize: PAGE_SIZE });
    expect(view.page.rows.map(keyOf).sort()).toEqual(sortedKeys(expected));
    for (const row of view.page.rows) {
      const want = expected.find((candidate) => candidate.key === keyOf(row))!;
      expect(row).toMatchObject({ companyName: want.companyName, country: want.country, reportStatus: want.reportStatus, cells: want.cells });
    }
    // Only Acme has a Filing Plans report with filings in the open quarter (Rejected in the demo).
    expect(view.options.partner_filter).toEqual([{ id: partnerIds.acme, name: "Acme Generics Ltd" }]);
    expect(new Set(view.page.rows.map((row) => row.reportStatus))).toEqual(new Set(["Rejected"]));

    const productIds = [...new Set(expected.flatMap((row) => Object.keys(row.cells).map(Number)))];
    expect(view.products.map((product) => product.id).sort((a, b) => a - b)).toEqual(productIds.sort((a, b) => a - b));
    const names = view.products.map((product) => product.name);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(view.options.product_filter).toEqual(view.products);
    expect(view.options.country_filter.map((country) => country.id).sort()).toEqual([...new Set(expected.map((row) => row.countryId))].sort());
    expect(view.options.report_status_filter.map((option) => option.id)).toEqual([...REPORT_STATES]);
    const statuses = view.options.status_filter.map((option) => option.id);
    expect(statuses.slice(0, 4)).toEqual(["Filed", "Registered", "Filing-Planned", "Not Planned"]);
    expect(statuses).toContain(quarterName(addQuarters(openRef, 1)));
    expect(statuses).toContain(quarterName(addQuarters(openRef, 4)));
  });

  it("the quarter dropdown lists the open quarter first, newest first, and selects another quarter", async () => {
    const { view: current } = await pageData();
    const names = current.options.quarter_filter.map((quarter) => quarter.name);
    expect(names[0]).toBe(quarterName(openRef));
    expect(names[1]).toBe(previousName);
    expect(names).not.toContain(quarterName(addQuarters(openRef, 1)));

    const { view } = await pageData({ quarter: previousName });
    expect(view.quarter).toMatchObject({ id: previous, name: previousName, isOpen: false });
    const expected = await expectedRows(previous);
    expect(view.page.total).toBe(expected.length);
    expect(view.page.rows.map(keyOf).sort()).toEqual(sortedKeys(expected));
    expect(new Set(view.page.rows.map((row) => row.reportStatus))).toEqual(new Set(["Approved", "Submitted"]));
    expect(view.options.partner_filter.map((partner) => partner.name)).toEqual(["Acme Generics Ltd", "Borealis Pharma Pvt", "Cedar Life Sciences"]);
  });

  it("an unknown or future quarter is not found (404), for the page and the downloads", async () => {
    for (const quarter of ["Q9 2999", quarterName(addQuarters(openRef, 1)), "nonsense"]) {
      expect((await page({ quarter })).status, quarter).toBe(404);
      // A download has no page of its own: the not-found page answers it.
      expect(await runRoute(csvLoader, buildRequest(`${CSV}${search({ quarter })}`, { cookie: adminCookie })), quarter).toMatchObject(NOT_FOUND_PAGE);
      expect(await runRoute(xlsxLoader, buildRequest(`${XLSX}${search({ quarter })}`, { cookie: adminCookie })), quarter).toMatchObject(NOT_FOUND_PAGE);
    }
  });

  it("combines the filters: partner, country, report status and one product's status", async () => {
    const { view: all } = await pageData({ quarter: previousName });
    const india = countryIds.get("India")!;
    const cases: { partner?: number; country?: number; reportStatus?: Status; product?: number; productStatus?: string }[] = [
      { partner: partnerIds.borealis },
      { country: india },
      { reportStatus: "Submitted" },
      { reportStatus: "Approved", country: india },
      { partner: partnerIds.acme, country: india, reportStatus: "Approved" },
      { partner: partnerIds.acme, reportStatus: "Submitted" },
      { productStatus: "Filed" },
      { productStatus: "Registered", reportStatus: "Approved" },
    ];
    for (const product of all.products) {
      cases.push({ product: product.id });
      for (const status of ["Filed", "Registered", "Not Planned"]) cases.push({ product: product.id, productStatus: status });
      cases.push({ product: product.id, productStatus: "Filed", partner: partnerIds.cedar, country: india });
    }
    let nonEmpty = 0;
    for (const filter of cases) {
      const expected = await expectedRows(previous, filter);
      const { view, query } = await pageData({ quarter: previousName, ...filter });
      expect(query).toMatchObject(filter);
      expect(view.page.total, JSON.stringify(filter)).toBe(expected.length);
      expect(view.page.rows.map(keyOf).sort(), JSON.stringify(filter)).toEqual(sortedKeys(expected));
      if (expected.length) nonEmpty += 1;
      // The columns and the options stay the quarter's whatever the filters.
      expect(view.products).toEqual(all.products);
      expect(view.options.partner_filter).toEqual(all.options.partner_filter);
    }
    expect(nonEmpty).toBeGreaterThan(cases.length / 2);
    const none = await pageData({ quarter: previousName, partner: partnerIds.acme, reportStatus: "Submitted" });
    expect(none.view.page).toMatchObject({ rows: [], total: 0, page: 1, pages: 1 });
  });

  it("falls back to no filter for values a link cannot mean, and reads each parameter once", async () => {
    const { view, query } = await pageData({
      partner: "-1",
      country: "x",
      reportStatus: "Draft",
      product: "99999999999",
      page: "abc",
      sort: "email",
      dir: "sideways",
    });
    expect(query).toMatchObject({ page: 1, dir: "asc" });
    for (const key of ["partner", "country", "reportStatus", "product", "sort"] as const) expect(query[key]).toBeUndefined();
    expect(view.page.total).toBe((await expectedRows(open)).length);
    const twice = filingQuerySchema.parse({ partner: String(partnerIds.cedar) });
    expect(twice.partner).toBe(partnerIds.cedar);
    const result = await runRoute<PageData>(
      pageLoader,
      buildRequest(`${PAGE}?quarter=${encodeURIComponent(previousName)}&partner=${partnerIds.cedar}&partner=${partnerIds.acme}`, { cookie: adminCookie }),
    );
    expect(result.data!.query.partner).toBe(partnerIds.cedar);
  });

  it("lists the value a link selects among the options even when the quarter has no filing of it", async () => {
    // Borealis has no Filing Plans report in the open quarter (demo data).
    const [product] = await db.select({ id: products.id, name: products.name }).from(products).where(eq(products.name, "Ravidasvir API"));
    const { view: plain } = await pageData();
    expect(plain.options.partner_filter.map((option) => option.id)).not.toContain(partnerIds.borealis);
    expect(plain.options.product_filter).not.toContainEqual(product);
    expect(plain.options.country_filter.map((option) => option.name)).not.toContain("Iceland");
    const { view } = await pageData({ partner: partnerIds.borealis, productStatus: "No such status" });
    expect(view.page).toMatchObject({ rows: [], total: 0 });
    expect(view.options.partner_filter).toContainEqual({ id: partnerIds.borealis, name: "Borealis Pharma Pvt" });
    expect(view.options.status_filter).toContainEqual({ id: "No such status", name: "No such status" });
    const withProduct = await pageData({ product: product.id, country: countryIds.get("Iceland") });
    expect(withProduct.view.options.product_filter).toContainEqual(product);
    expect(withProduct.view.options.country_filter).toContainEqual({ id: countryIds.get("Iceland"), name: "Iceland" });
    // The columns stay the quarter's products.
    expect(withProduct.view.products).toEqual(plain.products);
  });

  it("shows the drafts: a Saved report is listed with its status and found by the status filter", async () => {
    const { view } = await pageData({ quarter: oldestName });
    const saved = view.page.rows.filter((row) => row.reportStatus === "Saved");
    expect(saved.length).toBeGreaterThan(0);
    expect(new Set(saved.map((row) => row.companyName))).toEqual(new Set(["Cedar Life Sciences"]));
    const filtered = await pageData({ quarter: oldestName, reportStatus: "Saved" });
    expect(filtered.view.page.rows.map(keyOf).sort()).toEqual(sortedKeys(await expectedRows(oldest, { reportStatus: "Saved" })));
    expect(filtered.view.page.rows.every((row) => row.reportStatus === "Saved")).toBe(true);
    const csv = await csvOf({ quarter: oldestName, reportStatus: "Saved" });
    expect(csv.rows.length).toBe(filtered.view.page.total);
    expect(new Set(csv.rows.map((row) => row[2]))).toEqual(new Set(["Saved"]));

    // A draft of the open quarter, just started, is there too.
    const draft = await addPartner("Draft Partner Ltd");
    const [productId] = await firstProducts(1);
    await addReport(draft, open, "Saved", [{ country: countryIds.get("Kenya")!, product: productId, status: "Filing-Planned" }]);
    const current = await pageData({ reportStatus: "Saved" });
    expect(current.view.page.rows.map((row) => [row.companyName, row.country, row.reportStatus, row.cells[String(productId)]])).toEqual([
      ["Draft Partner Ltd", "Kenya", "Saved", "Filing-Planned"],
    ]);
  });

  it("sees a filing added, one removed and a decision taken since the last view at once, in the count and the lists too", async () => {
    const before = (await pageData()).view;
    const [first] = before.page.rows;
    const [report] = await db.select().from(reports).where(eq(reports.id, first.reportId));
    const used = new Set(before.options.country_filter.map((option) => option.id));
    const [newCountry, newCountryId] = [...countryIds].find(([, id]) => !used.has(id))!;
    const [productId] = await firstProducts(1);
    await db.insert(filingValues).values({ reportId: report.id, countryId: newCountryId, productId, status: "Filed" });
    const added = (await pageData()).view;
    expect(added.page.total).toBe(before.page.total + 1);
    expect(added.options.country_filter.map((option) => option.name)).toContain(newCountry);
    expect((await pageData({ country: newCountryId })).view.page.rows.map((row) => row.companyName)).toEqual([first.companyName]);

    // A save that removes it again: its rows and the report's version change together.
    await db.delete(filingValues).where(and(eq(filingValues.reportId, report.id), eq(filingValues.countryId, newCountryId)));
    await db
      .update(reports)
      .set({ version: report.version + 1 })
      .where(eq(reports.id, report.id));
    const removed = (await pageData()).view;
    expect(removed.page.total).toBe(before.page.total);
    expect(removed.options.country_filter.map((option) => option.name)).not.toContain(newCountry);

    const decided: Status = report.status === "Rejected" ? "Approved" : "Rejected";
    const reportRows = (await pageData({ partner: report.partnerId })).view.page.total;
    const beforeDecision = (await pageData({ reportStatus: decided })).view.page.total;
    await db
      .update(reports)
      .set({ status: decided, version: report.version + 2 })
      .where(eq(reports.id, report.id));
    expect((await pageData({ reportStatus: decided })).view.page.total).toBe(beforeDecision + reportRows);
    expect((await pageData({ reportStatus: decided, partner: report.partnerId })).view.page.total).toBe(reportRows);
  });

  it("sorts by company (default), country and report status, both ways, with stable ties", async () => {
    const rows = async (values: Record<string, string>) => (await pageData({ quarter: previousName, ...values })).view.page.rows;
    const companyThenCountry = (list: { companyName: string; country: string }[]) => list.map((row) => `${row.companyName}|${row.country}`);
    const byCompany = await rows({});
    expect(companyThenCountry(byCompany)).toEqual(
      companyThenCountry(
        [...byCompany].sort((a, b) => (a.companyName === b.companyName ? (a.country < b.country ? -1 : 1) : a.companyName < b.companyName ? -1 : 1)),
      ),
    );
    expect(byCompany[0].companyName).toBe("Acme Generics Ltd");
    expect(await rows({ sort: "company", dir: "asc" })).toEqual(byCompany);

    const companyDesc = await rows({ sort: "company", dir: "desc" });
    expect(companyDesc[0].companyName).toBe("Cedar Life Sciences");
    expect(companyDesc.map((row) => row.companyName)).toEqual([...byCompany.map((row) => row.companyName)].reverse());

    const byCountry = await rows({ sort: "country" });
    const countryNames = byCountry.map((row) => row.country);
    expect(countryNames).toEqual([...countryNames].sort());
    for (let index = 1; index < byCountry.length; index += 1) {
      if (byCountry[index].country === byCountry[index - 1].country) expect(byCountry[index - 1].companyName <= byCountry[index].companyName).toBe(true);
    }
    const countryDesc = (await rows({ sort: "country", dir: "desc" })).map((row) => row.country);
    expect(countryDesc).toEqual([...countryNames].sort().reverse());

    // Report states sort in workflow order: Saved, Submitted, Resubmitted, Approved, Rejected.
    const order = (status: string) => REPORT_STATES.indexOf(status as Status);
    const byStatus = (await rows({ sort: "reportStatus" })).map((row) => row.reportStatus);
    expect(byStatus).toEqual([...byStatus].sort((a, b) => order(a) - order(b)));
    expect(byStatus[0]).toBe("Submitted");
    const statusDesc = (await rows({ sort: "reportStatus", dir: "desc" })).map((row) => row.reportStatus);
    expect(statusDesc[0]).toBe("Approved");
    expect(statusDesc).toEqual([...statusDesc].sort((a, b) => order(b) - order(a)));
  });

  it("pages by 50: the last page, a page past the end (the last page), the empty result; the pages together are the rows", async () => {
    const big = await addPartner("Bulk Generics");
    const productIds = await firstProducts(2);
    const countryList = [...countryIds.values()].sort((a, b) => a - b).slice(0, 120);
    await addReport(
      big,
      previous,
      "Resubmitted",
      countryList.flatMap((country, index) => [
        { country, product: productIds[0], status: index % 2 ? "Filed" : "Registered" },
        ...(index % 3 ? [] : [{ country, product: productIds[1], status: "Not Planned" }]),
      ]),
    );
    const expected = await expectedRows(previous);
    const total = expected.length;
    expect(total).toBeGreaterThan(2 * PAGE_SIZE);
    const pages = Math.ceil(total / PAGE_SIZE);

    const seen: string[] = [];
    for (let number = 1; number <= pages; number += 1) {
      const { view } = await pageData({ quarter: previousName, page: number });
      expect(view.page).toMatchObject({ total, page: number, pages, pageSize: PAGE_SIZE });
      expect(view.page.rows.length).toBe(number < pages ? PAGE_SIZE : total - PAGE_SIZE * (pages - 1));
      seen.push(...view.page.rows.map(keyOf));
    }
    expect(new Set(seen).size).toBe(total);
    expect([...seen].sort()).toEqual(sortedKeys(expected));

    const last = await pageData({ quarter: previousName, page: pages });
    const past = await pageData({ quarter: previousName, page: pages + 5 });
    expect(past.view.page.page).toBe(pages);
    expect(past.view.page.rows).toEqual(last.view.page.rows);
    const far = await pageData({ quarter: previousName, page: 1_000_000 });
    expect(far.view.page.page).toBe(pages);

    // Paging by another sort covers the rows too.
    const byCountry: string[] = [];
    for (let number = 1; number <= pages; number += 1)
      byCountry.push(...(await pageData({ quarter: previousName, sort: "country", dir: "desc", page: number })).view.page.rows.map(keyOf));
    expect(byCountry.sort()).toEqual(sortedKeys(expected));

    const filtered = await expectedRows(previous, { partner: big, product: productIds[0], productStatus: "Filed" });
    expect(filtered.length).toBe(60);
    const second = await pageData({ quarter: previousName, partner: big, product: productIds[0], productStatus: "Filed", page: 2 });
    expect(second.view.page).toMatchObject({ total: 60, page: 2, pages: 2 });
    expect(second.view.page.rows.length).toBe(10);

    const empty = await pageData({ quarter: previousName, partner: big, productStatus: "No such status", page: 3 });
    expect(empty.view.page).toMatchObject({ rows: [], total: 0, page: 1, pages: 1, pageSize: PAGE_SIZE });
    const emptyCsv = await csvOf({ quarter: previousName, partner: big, productStatus: "No such status" });
    expect(emptyCsv.rows).toEqual([]);
    expect(emptyCsv.header.slice(0, 3)).toEqual(["Company Name", "Country", "Report Status"]);
  });

  it("the CSV and the xlsx hold exactly the filtered rows, all pages, with the page's columns", async () => {
    const big = await addPartner("Bulk Generics");
    const productIds = await firstProducts(3);
    const countryList = [...countryIds.values()].sort((a, b) => a - b).slice(0, 90);
    await addReport(
      big,
      previous,
      "Rejected",
      countryList.map((country, index) => ({ country, product: productIds[index % 3], status: index % 4 ? "Filed" : "Filing-Planned" })),
    );

    const filters: Record<string, string | number | undefined>[] = [
      {},
      { reportStatus: "Rejected" },
      { partner: big, productStatus: "Filed" },
      { product: productIds[0] },
      { country: countryIds.get("India"), reportStatus: "Approved" },
      { partner: partnerIds.acme, reportStatus: "Rejected" },
    ];
    for (const filter of filters) {
      const label = JSON.stringify(filter);
      const { view } = await pageData({ quarter: previousName, ...filter });
      const columns = view.products.map((product) => product.id);
      const expected = (await expectedRows(previous, filter as never)).map((row) => downloadRow(row, columns));
      const csv = await csvOf({ quarter: previousName, ...filter });
      expect(csv.header, label).toEqual(["Company Name", "Country", "Report Status", ...view.products.map((product) => product.name)]);
      expect(csv.rows.length, label).toBe(view.page.total);
      expect(csv.rows.map((row) => row.join("\u0000")).sort(), label).toEqual(expected.map((row) => row.join("\u0000")).sort());
      const xlsx = await xlsxOf({ quarter: previousName, ...filter });
      expect(xlsx.header, label).toEqual(csv.header);
      expect(xlsx.rows.map((row) => row.join("\u0000")).sort(), label).toEqual(expected.map((row) => row.join("\u0000")).sort());
    }
    const all = await csvOf({ quarter: previousName });
    expect(all.rows.length).toBeGreaterThan(PAGE_SIZE);
    // The download ignores the page and the sort of the link it comes from.
    expect((await csvOf({ quarter: previousName, page: 2, sort: "country", dir: "desc" })).rows).toEqual(all.rows);
  });

  it("downloads more rows than one keyset batch without losing or repeating one", async () => {
    const countryList = [...countryIds.values()].sort((a, b) => a - b);
    const [productId] = await firstProducts(1);
    const needed = Math.ceil((DOWNLOAD_BATCH_ROWS + 150) / countryList.length);
    for (let index = 0; index < needed; index += 1) {
      const partner = await addPartner(`Batch Partner ${String(index).padStart(2, "0")}`);
      await addReport(
        partner,
        open,
        "Submitted",
        countryList.map((country) => ({ country, product: productId, status: "Filed" })),
      );
    }
    const expected = await expectedRows(open);
    expect(expected.length).toBeGreaterThan(DOWNLOAD_BATCH_ROWS);
    const keys: string[] = [];
    for await (const row of filingConsolidatedRows(filingQuerySchema.parse({}))) keys.push(keyOf(row));
    expect(keys.length).toBe(expected.length);
    expect(new Set(keys).size).toBe(keys.length);
    const numeric = keys.map((key) => key.split(":").map(Number));
    for (let index = 1; index < numeric.length; index += 1) {
      const [a, b] = [numeric[index - 1], numeric[index]];
      expect(a[0] < b[0] || (a[0] === b[0] && a[1] < b[1])).toBe(true);
    }
    const csv = await csvOf();
    expect(csv.rows.length).toBe(expected.length);
    expect((await pageData()).view.page.total).toBe(expected.length);
  });

  it("neutralises formula-like texts in both downloads and shows them as they are on the page", async () => {
    const partner = await addPartner('=HYPERLINK("http://evil.example","x")');
    const [first, second] = await firstProducts(2);
    await addReport(partner, open, "Saved", [
      { country: countryIds.get("India")!, product: first, status: "+SUM(1,2)" },
      { country: countryIds.get("India")!, product: second, status: "@cmd" },
    ]);
    const { view } = await pageData({ partner });
    expect(view.page.rows).toHaveLength(1);
    expect(view.page.rows[0].companyName).toBe('=HYPERLINK("http://evil.example","x")');
    expect(view.page.rows[0].cells[String(first)]).toBe("+SUM(1,2)");
    // A stored status outside the lists is offered by the status filter too.
    expect(view.options.status_filter.map((option) => option.id)).toEqual(expect.arrayContaining(["+SUM(1,2)", "@cmd"]));
    const productIndex = (id: number) => 3 + view.products.findIndex((product) => product.id === id);

    const csv = await csvOf({ partner });
    expect(csv.rows).toHaveLength(1);
    expect(csv.rows[0][0]).toBe(`'=HYPERLINK("http://evil.example","x")`);
    expect(csv.rows[0][productIndex(first)]).toBe("'+SUM(1,2)");
    expect(csv.rows[0][productIndex(second)]).toBe("'@cmd");
    const xlsx = await xlsxOf({ partner });
    expect(xlsx.rows[0][0]).toBe(`'=HYPERLINK("http://evil.example","x")`);
    expect(xlsx.rows[0][productIndex(first)]).toBe("'+SUM(1,2)");
    expect(xlsx.rows[0][productIndex(second)]).toBe("'@cmd");

    const filtered = await pageData({ product: first, productStatus: "+SUM(1,2)" });
    expect(filtered.view.page.rows.map((row) => row.partnerId)).toEqual([partner]);
  });

  it("an accented and a Chinese company name round-trip through the page, the CSV and the xlsx", async () => {
    const names = ["Laboratoires Éloïse Santé", "上海医药集团股份有限公司"];
    const [productId] = await firstProducts(1);
    const ids: number[] = [];
    for (const name of names) {
      const id = await addPartner(name);
      ids.push(id);
      await addReport(id, open, "Submitted", [{ country: countryIds.get("Côte d'Ivoire") ?? countryIds.get("Brazil")!, product: productId, status: "Filed" }]);
    }
    for (const [index, name] of names.entries()) {
      const { view } = await pageData({ partner: ids[index] });
      expect(view.page.rows.map((row) => row.companyName)).toEqual([name]);
      expect(view.options.partner_filter.map((option) => option.name)).toContain(name);
      const csv = await csvOf({ partner: ids[index] });
      expect(csv.rows.map((row) => row[0])).toEqual([name]);
      expect(csv.rows[0][1]).toBe(view.page.rows[0].country);
      const xlsx = await xlsxOf({ partner: ids[index] });
      expect(xlsx.rows.map((row) => row[0])).toEqual([name]);
      expect(xlsx.rows[0][1]).toBe(view.page.rows[0].country);
    }
  });

  it("STAFF reads the page and both downloads; a partner is refused (403); without a session, to /login", async () => {
    const staff = await sessionCookieFor(STAFF);
    expect((await page({}, staff)).status).toBe(200);
    expect((await download(csvLoader, CSV, {}, staff)).status).toBe(200);
    expect((await download(xlsxLoader, XLSX, {}, staff)).status).toBe(200);

    const partner = await sessionCookieFor(ACME);
    expect((await page({}, partner)).status).toBe(403);
    expect((await runRoute(csvLoader, buildRequest(CSV, { cookie: partner }))).status).toBe(403);
    expect((await runRoute(xlsxLoader, buildRequest(XLSX, { cookie: partner }))).status).toBe(403);

    for (const [loader, path] of [
      [pageLoader, PAGE],
      [csvLoader, CSV],
      [xlsxLoader, XLSX],
    ] as const) {
      const anonymous = await runRoute(loader, buildRequest(path));
      expect(anonymous.status, path).toBe(302);
      expect(anonymous.location, path).toBe("/login");
    }
  });
});

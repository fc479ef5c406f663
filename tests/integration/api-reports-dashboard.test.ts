/**
 * The consolidated reports and the admin dashboard through the JSON API (spec section 7), checked
 * against the OpenAPI document and against what the pages show for the same filters (their
 * loaders on the demo seed).
 */
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { ensureQuarter, openQuarterRef } from "~/models/quarter.server";
import { loader as pdtPage } from "~/routes/_shell.admin.report.development-timeline";
import { loader as filingPage } from "~/routes/_shell.admin.report.filing-plans";
import { loader as salesPage } from "~/routes/_shell.admin.report.sales-report";
import { loader as dashboardPage } from "~/routes/_shell.admin.dashboard";
import type { DashboardTable } from "~/reports/dashboard/tables";
import { addQuarters, quarterName } from "~/utils/quarters";
import { apiToken, callApi, expectDocumented, type ApiAnswer } from "../support/api";
import { buildRequest, runRoute, sessionCookieFor } from "../support/remix";

const admin = () => apiToken("admin@example.org", "admin-pass-1");
const staff = () => apiToken("staff@example.org", "staff-pass-1");
const partner = () => apiToken("partner1@example.org", "partner-pass-1");

async function page<T = any>(loader: Parameters<typeof runRoute>[0], path: string): Promise<T> {
  const result = await runRoute<T>(loader, buildRequest(path, { cookie: await sessionCookieFor("admin@example.org") }));
  expect(result.status).toBe(200);
  return result.data!;
}

async function expectRefused(method: string, documented: string, path: string, options: Parameters<typeof callApi>[2] = {}) {
  const answer = await callApi(method, path, { ...options, token: await partner() });
  expect(answer.status).toBe(403);
  expect(answer.body.status).toBe("forbidden");
  expectDocumented(method, documented, answer);
}

function expectInvalid(method: string, documented: string, answer: ApiAnswer, field: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body.status).toBe("invalid");
  expect(Object.keys(answer.body.errors)).toContain(field);
  expectDocumented(method, documented, answer);
}

async function sheetRows(bytes: Uint8Array): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(bytes) as never);
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}
const csvRows = (bytes: Uint8Array): string[][] => parse(Buffer.from(bytes).toString("utf8"), { bom: true });

const previousQuarter = () => quarterName(addQuarters(openQuarterRef(), -1));

// ---------------------------------------------------------------- Development Timeline

describe("POST /report/pdt/", () => {
  it("answers the page's rows for the same filters, paged as asked", async () => {
    const token = await admin();
    const all = await callApi("POST", "/report/pdt/", { token, body: {} });
    expectDocumented("POST", "/report/pdt/", all);
    expect(all.status).toBe(200);
    const shown = await page(pdtPage, "/admin/report/development-timeline");
    expect(all.body.count).toBe(shown.page.total);
    expect(all.body.count).toBeGreaterThan(0);
    expect(all.body.quarter).toBe(shown.quarter.name);
    expect(all.body.rows.map((row: any) => [row.partner_id, row.product_id, row.stage_id])).toEqual(
      shown.page.rows.map((row: any) => [row.partnerId, row.productId, row.stageId]),
    );

    const first = all.body.rows[0];
    const filtered = await callApi("POST", "/report/pdt/", { token, body: { partner_id: first.partner_id, product_id: first.product_id, page_size: 2, page_number: 1 } });
    expectDocumented("POST", "/report/pdt/", filtered);
    const shownFiltered = await page(pdtPage, `/admin/report/development-timeline?partner=${first.partner_id}&product=${first.product_id}`);
    expect(filtered.body.count).toBe(shownFiltered.page.total);
    expect(filtered.body.count).toBeLessThan(all.body.count);
    expect(filtered.body.page_size).toBe(2);
    expect(filtered.body.rows).toHaveLength(Math.min(2, filtered.body.count));
    expect(filtered.body.pages).toBe(Math.ceil(filtered.body.count / 2));
    expect(filtered.body.rows.every((row: any) => row.partner_id === first.partner_id && row.product_id === first.product_id)).toBe(true);
    expect(filtered.body.rows[0].dates).toHaveLength(4);
    expect(filtered.body.rows[0].dates[3].quarter).toBe(all.body.quarter);

    const byStage = await callApi("POST", "/report/pdt/", { token, body: { stages: first.stage_id, status: first.status } });
    const shownByStage = await page(pdtPage, `/admin/report/development-timeline?stage=${first.stage_id}&status=${first.status}`);
    expect(byStage.body.count).toBe(shownByStage.page.total);
    expect(byStage.body.rows.every((row: any) => row.stage_id === first.stage_id && row.status === first.status)).toBe(true);
  });

  it("reads an earlier quarter for staff", async () => {
    const answer = await callApi("POST", "/report/pdt/", { token: await staff(), body: { quarter: previousQuarter() } });
    expectDocumented("POST", "/report/pdt/", answer);
    expect(answer.body.quarter).toBe(previousQuarter());
    const shown = await page(pdtPage, `/admin/report/development-timeline?quarter=${encodeURIComponent(previousQuarter())}`);
    expect(answer.body.count).toBe(shown.page.total);
  });

  it("refuses a partner, bad input and an unknown quarter", async () => {
    await expectRefused("POST", "/report/pdt/", "/report/pdt/", { body: {} });
    const token = await admin();
    expectInvalid("POST", "/report/pdt/", await callApi("POST", "/report/pdt/", { token, body: { page_number: 0 } }), "page_number");
    expectInvalid("POST", "/report/pdt/", await callApi("POST", "/report/pdt/", { token, body: { status: "BOGUS" } }), "status");
    expectInvalid("POST", "/report/pdt/", await callApi("POST", "/report/pdt/", { token, body: { partner: 1 } }), "partner");
    const future = await callApi("POST", "/report/pdt/", { token, body: { quarter: quarterName(addQuarters(openQuarterRef(), 1)) } });
    expect(future.status).toBe(404);
    expectDocumented("POST", "/report/pdt/", future);
  });
});

describe("POST /report/pdt/download/", () => {
  it("answers the filtered rows as xlsx (default) and csv", async () => {
    const token = await admin();
    const all = await callApi("POST", "/report/pdt/", { token, body: {} });
    const partnerId = all.body.rows[0].partner_id;
    const company = all.body.rows[0].company_name;
    const filtered = await callApi("POST", "/report/pdt/", { token, body: { partner_id: partnerId } });

    const xlsx = await callApi("POST", "/report/pdt/download/", { token, body: { partner_id: partnerId, quarter: all.body.quarter } });
    expect(xlsx.status).toBe(200);
    expectDocumented("POST", "/report/pdt/download/", xlsx);
    expect(xlsx.headers.get("Content-Disposition")).toContain('filename="pdt-report.xlsx"');
    const sheet = await sheetRows(xlsx.body);
    expect(sheet[0].slice(0, 3)).toEqual(["Company Name", "Product", "Stage"]);
    expect(sheet.length - 1).toBe(filtered.body.count);
    expect(sheet.slice(1).every((row) => row[0] === company)).toBe(true);

    const csv = await callApi("POST", "/report/pdt/download/", { token: await staff(), body: { partner_id: partnerId }, query: { format: "csv" } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toContain("text/csv");
    expect(csv.headers.get("Content-Disposition")).toContain('filename="pdt-report.csv"');
    const rows = csvRows(csv.body);
    expect(rows.length - 1).toBe(filtered.body.count);
    expect(new Set(rows.slice(1).map((row) => row[0]))).toEqual(new Set([company]));
  });

  it("refuses a partner and bad input", async () => {
    await expectRefused("POST", "/report/pdt/download/", "/report/pdt/download/", { body: {} });
    const token = await admin();
    expectInvalid("POST", "/report/pdt/download/", await callApi("POST", "/report/pdt/download/", { token, body: {}, query: { format: "pdf" } }), "query.format");
    expectInvalid("POST", "/report/pdt/download/", await callApi("POST", "/report/pdt/download/", { token, body: { partner_id: "x" } }), "partner_id");
  });
});

// ---------------------------------------------------------------- Filing Plans

describe("POST /report/filing/", () => {
  it("answers the page's rows, filtered by partner, country and a product's status", async () => {
    const token = await admin();
    const all = await callApi("POST", "/report/filing/", { token, body: {} });
    expectDocumented("POST", "/report/filing/", all);
    const shown = (await page(filingPage, "/admin/report/filing-plans")).view;
    expect(all.body.count).toBe(shown.page.total);
    expect(all.body.count).toBeGreaterThan(0);
    expect(all.body.products).toEqual(shown.products);
    expect(all.body.rows.map((row: any) => [row.report_id, row.country_id, row.product_status_dict])).toEqual(
      shown.page.rows.map((row: any) => [row.reportId, row.countryId, row.cells]),
    );

    const first = all.body.rows[0];
    const [productId, status] = Object.entries(first.product_status_dict)[0] as [string, string];
    const filtered = await callApi("POST", "/report/filing/", { token, body: { product_status_dict: { [productId]: status }, page_size: 3 } });
    expectDocumented("POST", "/report/filing/", filtered);
    const shownFiltered = (await page(filingPage, `/admin/report/filing-plans?product=${productId}&productStatus=${encodeURIComponent(status)}`)).view;
    expect(filtered.body.count).toBe(shownFiltered.page.total);
    expect(filtered.body.rows.length).toBe(Math.min(3, filtered.body.count));
    expect(filtered.body.rows.every((row: any) => row.product_status_dict[productId] === status)).toBe(true);

    const byPartner = await callApi("POST", "/report/filing/", { token: await staff(), body: { partner_id: first.partner_id, country_id: first.country_id } });
    expectDocumented("POST", "/report/filing/", byPartner);
    const shownByPartner = (await page(filingPage, `/admin/report/filing-plans?partner=${first.partner_id}&country=${first.country_id}`)).view;
    expect(byPartner.body.count).toBe(shownByPartner.page.total);
    expect(byPartner.body.rows.map((row: any) => row.report_id)).toEqual([first.report_id]);
  });

  it("refuses a partner and bad input", async () => {
    await expectRefused("POST", "/report/filing/", "/report/filing/", { body: {} });
    const token = await admin();
    expectInvalid("POST", "/report/filing/", await callApi("POST", "/report/filing/", { token, body: { product_status_dict: { "1": "Filed", "2": "Filed" } } }), "product_status_dict");
    expectInvalid("POST", "/report/filing/", await callApi("POST", "/report/filing/", { token, body: { page_size: 10_000 } }), "page_size");
    expectInvalid("POST", "/report/filing/", await callApi("POST", "/report/filing/", { token, body: { country_id: -3 } }), "country_id");
  });
});

describe("POST /report/filing/download/", () => {
  it("answers the filtered rows as xlsx and csv", async () => {
    const token = await admin();
    const all = await callApi("POST", "/report/filing/", { token, body: {} });
    const countryId = all.body.rows[0].country_id;
    const countryName = all.body.rows[0].country;
    const filtered = await callApi("POST", "/report/filing/", { token, body: { country_id: countryId } });
    expect(filtered.body.count).toBeGreaterThan(0);

    const xlsx = await callApi("POST", "/report/filing/download/", { token, body: { country_id: countryId } });
    expect(xlsx.status).toBe(200);
    expectDocumented("POST", "/report/filing/download/", xlsx);
    expect(xlsx.headers.get("Content-Disposition")).toContain('filename="filing-plans.xlsx"');
    const sheet = await sheetRows(xlsx.body);
    expect(sheet[0].slice(0, 2)).toEqual(["Company Name", "Country"]);
    expect(sheet.length - 1).toBe(filtered.body.count);
    expect(sheet.slice(1).every((row) => row[1] === countryName)).toBe(true);

    const csv = await callApi("POST", "/report/filing/download/", { token, body: { country_id: countryId }, query: { format: "csv" } });
    expect(csv.headers.get("Content-Disposition")).toContain('filename="filing-plans.csv"');
    const rows = csvRows(csv.body);
    expect(rows.length - 1).toBe(filtered.body.count);
    expect(rows.slice(1).map((row) => row[0]).sort()).toEqual(filtered.body.rows.map((row: any) => row.company_name).sort());
  });

  it("refuses a partner and bad input", async () => {
    await expectRefused("POST", "/report/filing/download/", "/report/filing/download/", { body: {} });
    expectInvalid(
      "POST",
      "/report/filing/download/",
      await callApi("POST", "/report/filing/download/", { token: await admin(), body: { product_status_dict: { abc: "Filed" } } }),
      "product_status_dict.abc",
    );
  });
});

// ---------------------------------------------------------------- Sales

describe("POST /report/sales/{x}", () => {
  it("answers the API table's rows as the page does, with the page's filters", async () => {
    const token = await admin();
    const all = await callApi("POST", "/report/sales/api", { token, body: {} });
    expectDocumented("POST", "/report/sales/{x}", all);
    const shown = await page(salesPage, "/admin/report/sales-report?tab=API");
    expect(all.body.table).toBe("API");
    expect(all.body.count).toBe(shown.page.total);
    expect(all.body.count).toBeGreaterThan(0);
    expect(all.body.rows.map((row: any) => [row.id, row.product_name, row.total_value])).toEqual(shown.page.rows.map((row: any) => [row.id, row.productName, row.totalValue]));

    const first = all.body.rows[0];
    const year = Number(first.year);
    const partnerId = all.body.options.partner_filter.find((option: any) => option.name === first.company_name).id;
    const filtered = await callApi("POST", "/report/sales/API", { token, body: { partner_id: partnerId, year, month: first.month } });
    expectDocumented("POST", "/report/sales/{x}", filtered);
    const month = all.body.options.month_filter.find((option: any) => option.name === first.month).id;
    const byNumber = await callApi("POST", "/report/sales/api", { token, body: { partner_id: partnerId, year, month } });
    const shownFiltered = await page(salesPage, `/admin/report/sales-report?tab=API&partner=${partnerId}&year=${year}&month=${month}`);
    expect(filtered.body.count).toBe(shownFiltered.page.total);
    expect(filtered.body.count).toBeGreaterThan(0);
    expect(filtered.body.count).toBeLessThan(all.body.count);
    expect(byNumber.body.rows).toEqual(filtered.body.rows);
    expect(filtered.body.rows.map((row: any) => row.id)).toEqual(shownFiltered.page.rows.map((row: any) => row.id));
    expect(filtered.body.rows.every((row: any) => row.company_name === first.company_name && row.year === String(year) && row.month === first.month)).toBe(true);
  });

  it("answers the FDF table with its own filters, for staff, on a quarter id", async () => {
    const token = await staff();
    const open = await ensureQuarter(openQuarterRef());
    const all = await callApi("POST", "/report/sales/fdf", { token, body: { quarter_id: open.id, page_size: 7 } });
    expectDocumented("POST", "/report/sales/{x}", all);
    expect(all.body.quarter).toBe(open.name);
    expect(all.body.rows.length).toBe(Math.min(7, all.body.count));
    const first = all.body.rows[0];
    expect(first).toBeDefined();
    const currency = first.currency;
    const filtered = await callApi("POST", "/report/sales/fdf", { token, body: { currency: currency.toLowerCase(), purchaser: first.purchaser.slice(0, 3) } });
    expectDocumented("POST", "/report/sales/{x}", filtered);
    const shown = await page(salesPage, `/admin/report/sales-report?tab=FDF&currency=${currency}&purchaser=${encodeURIComponent(first.purchaser.slice(0, 3))}`);
    expect(filtered.body.count).toBe(shown.page.total);
    expect(filtered.body.count).toBeGreaterThan(0);
    expect(filtered.body.rows.every((row: any) => row.currency === currency)).toBe(true);
    expect(filtered.body.options.currency_filter).toContain(currency);
  });

  it("refuses a partner, FDF filters on the API table, and bad input", async () => {
    await expectRefused("POST", "/report/sales/{x}", "/report/sales/api", { body: {} });
    const token = await admin();
    expectInvalid("POST", "/report/sales/{x}", await callApi("POST", "/report/sales/api", { token, body: { currency: "USD" } }), "currency");
    expectInvalid("POST", "/report/sales/{x}", await callApi("POST", "/report/sales/xyz", { token, body: {} }), "path.x");
    expectInvalid("POST", "/report/sales/{x}", await callApi("POST", "/report/sales/fdf", { token, body: { month: 13 } }), "month");
    const unknownQuarter = await callApi("POST", "/report/sales/fdf", { token, body: { quarter_id: 999_999 } });
    expect(unknownQuarter.status).toBe(404);
  });
});

describe("POST /report/sales/download/{x}", () => {
  it("answers the filtered rows as xlsx and csv", async () => {
    const token = await admin();
    const all = await callApi("POST", "/report/sales/fdf", { token, body: {} });
    const partnerId = all.body.options.partner_filter[0].id;
    const company = all.body.options.partner_filter[0].name;
    const filtered = await callApi("POST", "/report/sales/fdf", { token, body: { partner_id: partnerId } });
    expect(filtered.body.count).toBeGreaterThan(0);

    const xlsx = await callApi("POST", "/report/sales/download/fdf", { token, body: { partner_id: partnerId } });
    expect(xlsx.status).toBe(200);
    expectDocumented("POST", "/report/sales/download/{x}", xlsx);
    expect(xlsx.headers.get("Content-Disposition")).toContain('filename="sales-report-fdf.xlsx"');
    const sheet = await sheetRows(xlsx.body);
    expect(sheet[0].slice(0, 2)).toEqual(["Company Name", "Report Status"]);
    expect(sheet.length - 1).toBe(filtered.body.count);
    expect(sheet.slice(1).every((row) => row[0] === company)).toBe(true);

    const apiFiltered = await callApi("POST", "/report/sales/api", { token, body: { partner_id: partnerId } });
    const csv = await callApi("POST", "/report/sales/download/api", { token, body: { partner_id: partnerId }, query: { format: "csv" } });
    expect(csv.headers.get("Content-Disposition")).toContain('filename="sales-report-api.csv"');
    const rows = csvRows(csv.body);
    expect(rows.length - 1).toBe(apiFiltered.body.count);
    expect(rows.slice(1).every((row) => row[0] === company)).toBe(true);
  });

  it("refuses a partner and bad input", async () => {
    await expectRefused("POST", "/report/sales/download/{x}", "/report/sales/download/fdf", { body: {} });
    expectInvalid(
      "POST",
      "/report/sales/download/{x}",
      await callApi("POST", "/report/sales/download/api", { token: await admin(), body: { comments: "late" } }),
      "comments",
    );
  });
});

// ---------------------------------------------------------------- dashboard

/** A page table's rows as the API answers them (by column key). */
const asRecords = (table: DashboardTable) => table.rows.map((row) => Object.fromEntries(table.columns.map((column, index) => [column.key, row[index] ?? null])));

async function dashboardTab(search: string) {
  const data = await page(dashboardPage, `/admin/dashboard?${search}`);
  return data.view as any;
}

describe("GET /admin/dashboard/sales/", () => {
  it("answers the sales tables of the page, approved only or with ?unapproved=1", async () => {
    const token = await admin();
    const approved = await callApi("GET", "/admin/dashboard/sales/", { token, query: { map_with: "product", for: "company" } });
    expectDocumented("GET", "/admin/dashboard/sales/", approved);
    const tab = await dashboardTab("tab=sales-product");
    const shown = tab.tables.find((table: DashboardTable) => table.id === "product-company-sales");
    expect(approved.body.table).toBe("product-company-sales");
    expect(approved.body.rows).toEqual(asRecords(shown));
    expect(approved.body.count).toBe(shown.page.total);
    expect(approved.body.rows.length).toBeGreaterThan(0);

    const every = await callApi("GET", "/admin/dashboard/sales/", { token: await staff(), query: { map_with: "country", for: "company", unapproved: "1" } });
    expectDocumented("GET", "/admin/dashboard/sales/", every);
    const tabEvery = await dashboardTab("tab=sales-country&unapproved=1");
    expect(every.body.rows).toEqual(asRecords(tabEvery.tables.find((table: DashboardTable) => table.id === "country-company-sales")));
    expect(every.body.rows.length).toBeGreaterThan(0);
    // Without ?unapproved=1 only approved reports count: the figures differ on the seed.
    const approvedOnly = await callApi("GET", "/admin/dashboard/sales/", { token, query: { map_with: "country", for: "company" } });
    expect(approvedOnly.body.rows).toEqual(asRecords((await dashboardTab("tab=sales-country")).tables.find((table: DashboardTable) => table.id === "country-company-sales")));
    expect(approvedOnly.body.rows).not.toEqual(every.body.rows);

    const time = await callApi("GET", "/admin/dashboard/sales/", { token, query: { map_with: "company", for: "time", period: "year", unapproved: "1" } });
    expectDocumented("GET", "/admin/dashboard/sales/", time);
    const tabTime = await dashboardTab("tab=sales-company&period=year&unapproved=1");
    const shownTime = tabTime.tables.find((table: DashboardTable) => table.id === "company-time-sales");
    expect(time.body.columns.map((column: any) => column.label)).toEqual(shownTime.columns.map((column: any) => column.label));
    expect(time.body.rows).toEqual(asRecords(shownTime));
  });

  it("refuses a partner and bad input", async () => {
    await expectRefused("GET", "/admin/dashboard/sales/", "/admin/dashboard/sales/", { query: { map_with: "product", for: "company" } });
    const token = await admin();
    expectInvalid("GET", "/admin/dashboard/sales/", await callApi("GET", "/admin/dashboard/sales/", { token, query: { map_with: "planet", for: "company" } }), "query.map_with");
    expectInvalid("GET", "/admin/dashboard/sales/", await callApi("GET", "/admin/dashboard/sales/", { token, query: { map_with: "product", for: "product" } }), "query.for");
  });
});

describe("GET /admin/dashboard/project/, /product/company/, /company/", () => {
  it("answer the Product / Project tab's tiles and tables", async () => {
    const token = await admin();
    const tab = await dashboardTab("tab=product");

    const tiles = await callApi("GET", "/admin/dashboard/project/", { token });
    expectDocumented("GET", "/admin/dashboard/project/", tiles);
    expect(tiles.body.rows).toEqual(tab.tiles);
    expect(tiles.body.rows.some((row: any) => row.count > 0)).toBe(true);

    const products = await callApi("GET", "/admin/dashboard/product/company/", { token: await staff() });
    expectDocumented("GET", "/admin/dashboard/product/company/", products);
    const shownProducts = tab.tables.find((table: DashboardTable) => table.id === "product-status-count");
    expect(products.body.rows).toEqual(asRecords(shownProducts));
    expect(products.body.rows.length).toBeGreaterThan(0);

    const companies = await callApi("GET", "/admin/dashboard/company/", { token });
    expectDocumented("GET", "/admin/dashboard/company/", companies);
    const shownCompanies = tab.tables.find((table: DashboardTable) => table.id === "company-status-count");
    expect(companies.body.rows).toEqual(asRecords(shownCompanies));
    expect(companies.body.rows.map((row: any) => row.company)).toContain("Acme Generics Ltd");
  });

  it("refuse a partner and bad input", async () => {
    await expectRefused("GET", "/admin/dashboard/project/", "/admin/dashboard/project/");
    await expectRefused("GET", "/admin/dashboard/product/company/", "/admin/dashboard/product/company/");
    await expectRefused("GET", "/admin/dashboard/company/", "/admin/dashboard/company/");
    const token = await admin();
    expectInvalid("GET", "/admin/dashboard/product/company/", await callApi("GET", "/admin/dashboard/product/company/", { token, query: { page_number: "0" } }), "query.page_number");
    expectInvalid("GET", "/admin/dashboard/company/", await callApi("GET", "/admin/dashboard/company/", { token, query: { unapproved: "yes" } }), "query.unapproved");
    // The project counts take no parameter: one is refused.
    expectInvalid("GET", "/admin/dashboard/project/", await callApi("GET", "/admin/dashboard/project/", { token, query: { page_number: "1" } }), "query.page_number");
  });
});

describe("GET /admin/dashboard/product/country/ and /quarter/, /country/", () => {
  it("answer the Country Filings tables of the page", async () => {
    const token = await admin();
    const filed = await callApi("GET", "/admin/dashboard/product/country/", { token, query: { status: "Registered", unapproved: "1" } });
    expectDocumented("GET", "/admin/dashboard/product/country/", filed);
    const tab = await dashboardTab("tab=filings&filing=Registered&countryFiling=Registered&unapproved=1");
    expect(filed.body.quarter).toBe(tab.quarterName);
    expect(filed.body.rows).toEqual(asRecords(tab.tables[0]));
    expect(filed.body.rows.length).toBeGreaterThan(0);

    const country = await callApi("GET", "/admin/dashboard/country/", { token: await staff(), query: { type: "Registered", unapproved: "1" } });
    expectDocumented("GET", "/admin/dashboard/country/", country);
    expect(country.body.rows).toEqual(asRecords(tab.tables[1]));
    expect(country.body.rows.length).toBeGreaterThan(0);

    const earlier = previousQuarter();
    const future = await callApi("GET", "/admin/dashboard/product/country/quarter/", { token, query: { quarter: earlier, unapproved: "1" } });
    expectDocumented("GET", "/admin/dashboard/product/country/quarter/", future);
    const futureTab = await dashboardTab(`tab=filings&filing=Future-Quarters&quarter=${encodeURIComponent(earlier)}&unapproved=1`);
    expect(future.body.quarter).toBe(earlier);
    expect(future.body.quarter_list).toEqual(futureTab.futureQuarters);
    expect(future.body.quarter_list).toHaveLength(4);
    expect(future.body.rows).toEqual(asRecords(futureTab.tables[0]));
  });

  it("refuse a partner, bad input and an unknown quarter", async () => {
    await expectRefused("GET", "/admin/dashboard/product/country/", "/admin/dashboard/product/country/");
    await expectRefused("GET", "/admin/dashboard/product/country/quarter/", "/admin/dashboard/product/country/quarter/");
    await expectRefused("GET", "/admin/dashboard/country/", "/admin/dashboard/country/");
    const token = await admin();
    expectInvalid("GET", "/admin/dashboard/product/country/", await callApi("GET", "/admin/dashboard/product/country/", { token, query: { status: "Lost" } }), "query.status");
    expectInvalid("GET", "/admin/dashboard/country/", await callApi("GET", "/admin/dashboard/country/", { token, query: { type: "Filing-Planned" } }), "query.type");
    expectInvalid(
      "GET",
      "/admin/dashboard/product/country/quarter/",
      await callApi("GET", "/admin/dashboard/product/country/quarter/", { token, query: { status: "Filed" } }),
      "query.status",
    );
    const unknown = await callApi("GET", "/admin/dashboard/country/", { token, query: { quarter: "Q9 2026" } });
    expect(unknown.status).toBe(404);
    expectDocumented("GET", "/admin/dashboard/country/", unknown);
  });
});

describe("GET /admin/dashboard/?type=", () => {
  it("answers the Summary tab's partners of the view", async () => {
    const token = await admin();
    let seen = 0;
    for (const type of ["not-submitted", "awaiting-approval"]) {
      const answer = await callApi("GET", "/admin/dashboard/", { token, query: { type } });
      expectDocumented("GET", "/admin/dashboard/", answer);
      const tab = await dashboardTab(`tab=summary&view=${type}`);
      expect(answer.body.quarter).toBe(tab.quarterName);
      expect(answer.body.rows).toEqual(
        tab.summary.rows.map((row: any) => ({
          partner_id: row.partnerId,
          company_name: row.companyName,
          email: row.email,
          pdt_status: row.statuses.pdt,
          filing_status: row.statuses.filing,
          sales_status: row.statuses.sales,
        })),
      );
      expect(answer.body.partner_ids).toEqual(tab.summary.partnerIds);
      expect(answer.body.count).toBe(tab.summary.partnerIds.length);
      seen += answer.body.rows.length;
    }
    expect(seen).toBeGreaterThan(0);
    const staffAnswer = await callApi("GET", "/admin/dashboard/", { token: await staff() });
    expectDocumented("GET", "/admin/dashboard/", staffAnswer);
    expect(staffAnswer.body.type).toBe("submitted");
  });

  it("refuses a partner and bad input", async () => {
    await expectRefused("GET", "/admin/dashboard/", "/admin/dashboard/", { query: { type: "saved" } });
    expectInvalid("GET", "/admin/dashboard/", await callApi("GET", "/admin/dashboard/", { token: await admin(), query: { type: "everyone" } }), "query.type");
  });
});

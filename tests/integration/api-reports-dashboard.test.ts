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
    const filtered = await callApi("POST", "/report/pdt/", {
      token,
      body: { partner_id: first.partner_id, product_id: first.product_id, page_size: 2, page_number: 1 },
    });
    expectDocumented("POST", "/report/pdt/", filtered);
    const shownFiltered = await page(pdtPage, `/admin/report/development-timeline?partner=${first.partner_id}&product=${first.product_id}`);
    expect(filtered.body.count).toBe(shownFiltered.page.total);
    expect(filtered.body.count).toBeLessThan(all.body.count);
    expect(filtered.body.page_size).toBe(2);
    expect(filtered.body.rows).toHaveLength(Math.min(2, filtered.body.count));
    expect(filtered.body.pages).toBe(Math.ceil(filtered.body.count / 2));
    expect(filtered.body.rows.every((row: any) => row.partner_id === first.partner_id && row.product_id === first.product_id)).toBe(true);
    // The PDT screen's row names: a start and end date per quarter of quarter_order, the selected quarter last.
    expect(all.body.quarter_order).toHaveLength(4);
    expect(all.body.quarter_order[3]).toBe(all.body.quarter);
    const shownRow = shown.page.rows[0];
    expect(first).toMatchObject({
      product: shownRow.productName,
      stage: shownRow.stageName,
      product_status: shownRow.status,
      company_name: shownRow.companyName,
    });
    all.body.quarter_order.forEach((quarter: string, index: number) => {
      expect(first[`start_date_${quarter}`]).toBe(shownRow.dates[index].startDate);
      expect(first[`end_date_${quarter}`]).toBe(shownRow.dates[index].endDate);
    });
    expect(first).not.toHaveProperty("dates");

    const byStage = await callApi("POST", "/report/pdt/", { token, body: { stages: first.stage_id, status: first.product_status } });
    const shownByStage = await page(pdtPage, `/admin/report/development-timeline?stage=${first.stage_id}&status=${first.product_status}`);
    expect(byStage.body.count).toBe(shownByStage.page.total);
    expect(byStage.body.rows.every((row: any) => row.stage_id === first.stage_id && row.product_status === first.product_status)).toBe(true);
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
    expectInvalid(
      "POST",
      "/report/pdt/download/",
      await callApi("POST", "/report/pdt/download/", { token, body: {}, query: { format: "pdf" } }),
      "query.format",
    );
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
    expect(all.body.products).toEqual(shown.products.map((product: any) => ({ product_id: product.id, product_name: product.name })));
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
    expectInvalid(
      "POST",
      "/report/filing/",
      await callApi("POST", "/report/filing/", { token, body: { product_status_dict: { "1": "Filed", "2": "Filed" } } }),
      "product_status_dict",
    );
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
    expect(
      rows
        .slice(1)
        .map((row) => row[0])
        .sort(),
    ).toEqual(filtered.body.rows.map((row: any) => row.company_name).sort());
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
    expect(all.body.rows.map((row: any) => [row.sales_report_id, row.product_name, row.country_name, row.total_value])).toEqual(
      shown.page.rows.map((row: any) => [row.id, row.productName, row.country, row.totalValue]),
    );
    // The ids spec §3 puts beside the names: the country's and the product's of the country and product filters.
    const countryIds = new Map(all.body.country_filter.map((option: any) => [option.country_name, option.country_id]));
    const productIds = new Map(all.body.product_filter.map((option: any) => [option.product_name, option.product_id]));
    for (const row of all.body.rows) {
      expect(row.country_id).toBe(countryIds.get(row.country_name));
      expect(row.product_id).toBe(productIds.get(row.product_name) ?? null);
    }

    const first = all.body.rows[0];
    const year = Number(first.year);
    const partnerId = all.body.partner_filter.find((option: any) => option.company_name === first.company_name).partner_id;
    const filtered = await callApi("POST", "/report/sales/API", { token, body: { partner_id: partnerId, year, month: first.month } });
    expectDocumented("POST", "/report/sales/{x}", filtered);
    const month = all.body.month_filter.find((option: any) => option.name === first.month).id;
    const byNumber = await callApi("POST", "/report/sales/api", { token, body: { partner_id: partnerId, year, month } });
    const shownFiltered = await page(salesPage, `/admin/report/sales-report?tab=API&partner=${partnerId}&year=${year}&month=${month}`);
    expect(filtered.body.count).toBe(shownFiltered.page.total);
    expect(filtered.body.count).toBeGreaterThan(0);
    expect(filtered.body.count).toBeLessThan(all.body.count);
    expect(byNumber.body.rows).toEqual(filtered.body.rows);
    expect(filtered.body.rows.map((row: any) => row.sales_report_id)).toEqual(shownFiltered.page.rows.map((row: any) => row.id));
    expect(filtered.body.rows.every((row: any) => row.company_name === first.company_name && row.year === String(year) && row.month === first.month)).toBe(
      true,
    );
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
    expect(filtered.body.currency_filter).toContain(currency);
    // The FDF row in the spec's names: the formulation type is formulation_md.
    expect(all.body.columns.map((column: any) => column.key)).toEqual(
      expect.arrayContaining(["country_name", "formulation_md", "pack_size", "procurement_end_country"]),
    );
    expect(first).toHaveProperty("formulation_md");
    expect(first).not.toHaveProperty("formulation_type");
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
    const partnerId = all.body.partner_filter[0].partner_id;
    const company = all.body.partner_filter[0].company_name;
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

// ---------------------------------------------------------------- spec clients

describe("the consolidated reports for a client written against the spec", () => {
  it("answer the filter lists in the spec's names, and each listed value, sent back as the body's filter, selects its rows", async () => {
    const token = await admin();
    const pdt = await callApi("POST", "/report/pdt/", { token, body: {} });
    expect(pdt.body).not.toHaveProperty("options");
    expect(pdt.body.quarter_filter[0]).toEqual({ quarter_id: expect.any(Number), quarter_name: pdt.body.quarter });
    const row = pdt.body.rows[0];
    expect(pdt.body.partner_filter).toContainEqual({ partner_id: row.partner_id, company_name: row.company_name });
    expect(pdt.body.product_filter).toContainEqual({ product_id: row.product_id, product_name: row.product });
    expect(pdt.body.stage_filter).toContainEqual({ stage_id: row.stage_id, stage_name: row.stage });
    expect(pdt.body.status_filter.map((option: any) => option.id)).toContain(row.product_status);
    const chosen = {
      quarter: pdt.body.quarter_filter[0].quarter_name,
      partner_id: pdt.body.partner_filter.find((option: any) => option.partner_id === row.partner_id).partner_id,
      product_id: pdt.body.product_filter.find((option: any) => option.product_id === row.product_id).product_id,
      stages: pdt.body.stage_filter.find((option: any) => option.stage_id === row.stage_id).stage_id,
      status: pdt.body.status_filter.find((option: any) => option.id === row.product_status).id,
    };
    const pdtChosen = await callApi("POST", "/report/pdt/", { token, body: chosen });
    expectDocumented("POST", "/report/pdt/", pdtChosen);
    expect(pdtChosen.body.rows.map((found: any) => found.report_id)).toContain(row.report_id);
    expect(
      pdtChosen.body.rows.every(
        (found: any) => found.partner_id === row.partner_id && found.stage_id === row.stage_id && found.product_status === row.product_status,
      ),
    ).toBe(true);

    const filing = await callApi("POST", "/report/filing/", { token, body: {} });
    expect(filing.body).not.toHaveProperty("options");
    const filingRow = filing.body.rows[0];
    expect(filing.body.quarter_filter[0]).toEqual({ quarter_id: expect.any(Number), quarter_name: filing.body.quarter });
    expect(filing.body.partner_filter).toContainEqual({ partner_id: filingRow.partner_id, company_name: filingRow.company_name });
    expect(filing.body.country_filter).toContainEqual({ country_id: filingRow.country_id, country_name: filingRow.country });
    const [productId, status] = Object.entries(filingRow.product_status_dict)[0] as [string, string];
    expect(filing.body.product_filter.map((option: any) => option.product_id)).toContain(Number(productId));
    expect(filing.body.status_filter.map((option: any) => option.id)).toContain(status);
    const filingChosen = await callApi("POST", "/report/filing/", {
      token,
      body: {
        quarter: filing.body.quarter_filter[0].quarter_name,
        partner_id: filingRow.partner_id,
        country_id: filingRow.country_id,
        product_status_dict: { [productId]: status },
      },
    });
    expectDocumented("POST", "/report/filing/", filingChosen);
    expect(filingChosen.body.rows.map((found: any) => found.report_id)).toEqual([filingRow.report_id]);

    const sales = await callApi("POST", "/report/sales/fdf", { token, body: {} });
    expect(sales.body).not.toHaveProperty("options");
    const salesRow = sales.body.rows[0];
    expect(sales.body.quarter_filter[0]).toEqual({ quarter_id: sales.body.quarter_id, quarter_name: sales.body.quarter });
    expect(sales.body.partner_filter.map((option: any) => option.company_name)).toContain(salesRow.company_name);
    expect(sales.body.product_filter.map((option: any) => option.product_name)).toContain(salesRow.product_name);
    expect(sales.body.country_filter.map((option: any) => option.country_name)).toContain(salesRow.country_name);
    expect(sales.body.year_filter.map((option: any) => option.name)).toContain(salesRow.year);
    expect(sales.body.month_filter.map((option: any) => option.name)).toContain(salesRow.month);
    expect(sales.body.purchaser_filter).toContain(salesRow.purchaser);
    const salesChosen = await callApi("POST", "/report/sales/fdf", {
      token,
      body: {
        quarter_id: sales.body.quarter_filter[0].quarter_id,
        partner_id: sales.body.partner_filter.find((option: any) => option.company_name === salesRow.company_name).partner_id,
        product_id: sales.body.product_filter.find((option: any) => option.product_name === salesRow.product_name).product_id,
        country_id: sales.body.country_filter.find((option: any) => option.country_name === salesRow.country_name).country_id,
        year: sales.body.year_filter.find((option: any) => option.name === salesRow.year).id,
        month: sales.body.month_filter.find((option: any) => option.name === salesRow.month).id,
        purchaser: salesRow.purchaser,
      },
    });
    expectDocumented("POST", "/report/sales/{x}", salesChosen);
    expect(salesChosen.body.rows.map((found: any) => found.sales_report_id)).toContain(salesRow.sales_report_id);
  });

  it("take a body of the spec's fields only and answer rows a spec client reads", async () => {
    const token = await staff();
    const quarter = previousQuarter();
    const pdt = await callApi("POST", "/report/pdt/", {
      token,
      body: { page_number: 1, page_size: 50, quarter, partner_id: null, product_id: null, stages: null, status: null },
    });
    expectDocumented("POST", "/report/pdt/", pdt);
    expect(pdt.body.rows.length).toBeGreaterThan(0);
    const shown = await page(pdtPage, `/admin/report/development-timeline?quarter=${encodeURIComponent(quarter)}`);
    expect(pdt.body.rows.map((row: any) => [row.product, row.stage, row[`start_date_${quarter}`], row[`end_date_${quarter}`]])).toEqual(
      shown.page.rows.map((row: any) => [row.productName, row.stageName, row.dates[3].startDate, row.dates[3].endDate]),
    );
    const pdtFile = await callApi("POST", "/report/pdt/download/", {
      token,
      body: { page_number: 1, page_size: 50, quarter, partner_id: null, product_id: null, stages: null, status: null },
    });
    expect(pdtFile.status).toBe(200);
    expect((await sheetRows(pdtFile.body)).length - 1).toBe(pdt.body.count);

    const filing = await callApi("POST", "/report/filing/", {
      token,
      body: { page_number: 1, page_size: 50, quarter, partner_id: null, country_id: null, product_status_dict: {} },
    });
    expectDocumented("POST", "/report/filing/", filing);
    const shownFiling = (await page(filingPage, `/admin/report/filing-plans?quarter=${encodeURIComponent(quarter)}`)).view;
    expect(filing.body.count).toBe(shownFiling.page.total);
    expect(filing.body.rows.map((row: any) => [row.country_id, row.country])).toEqual(shownFiling.page.rows.map((row: any) => [row.countryId, row.country]));

    const open = await ensureQuarter(openQuarterRef());
    const fdf = await callApi("POST", "/report/sales/fdf", {
      token,
      body: {
        page_number: 1,
        page_size: 100,
        partner_id: null,
        product_id: null,
        country_id: null,
        quarter_id: open.id,
        year: null,
        month: null,
        purchaser: null,
        strength: null,
        formulation_md: null,
        currency: null,
        procurement_end_country: null,
        comments: null,
      },
    });
    expectDocumented("POST", "/report/sales/{x}", fdf);
    expect(fdf.body.rows.length).toBeGreaterThan(0);
    const spec = ["year", "month", "country_name", "purchaser", "product_name", "strength", "formulation_md", "pack_size", "quantity", "currency"];
    const more = ["gross_sale_price_currency", "usd_exchange_rate", "gross_sale_price_usd", "total_gross_value", "deductable_expenses", "total_value"];
    const last = ["royalty_percent", "royalty_due", "procurement_end_country", "comments", "sales_report_id"];
    for (const field of [...spec, ...more, ...last]) expect(fdf.body.rows[0], field).toHaveProperty(field);
    const shownFdf = await page(salesPage, "/admin/report/sales-report?tab=FDF");
    expect(fdf.body.rows.map((row: any) => [row.sales_report_id, row.total_gross_value, row.royalty_due])).toEqual(
      shownFdf.page.rows.map((row: any) => [row.id, row.totalGrossValue, row.royaltyDue]),
    );
    const api = await callApi("POST", "/report/sales/api", {
      token,
      body: {
        page_number: 1,
        page_size: 100,
        partner_id: null,
        product_id: null,
        country_id: null,
        quarter_id: null,
        year: null,
        month: null,
        purchaser: null,
      },
    });
    expectDocumented("POST", "/report/sales/{x}", api);
    for (const field of ["year", "month", "country_name", "purchaser", "product_name", "quantity", "total_value", "sales_report_id"])
      expect(api.body.rows[0], field).toHaveProperty(field);
  });
});

// ---------------------------------------------------------------- dashboard

/** The page's column keys the API answers by the spec's names. */
const SPEC_KEY: Record<string, string> = {
  product: "product_name",
  company: "company_name",
  partner: "company_name",
  country: "country_name",
  value: "total_value",
};
/** A page table's rows as the API answers them (by column key, in the spec's names). */
const asRecords = (table: DashboardTable) =>
  table.rows.map((row) => Object.fromEntries(table.columns.map((column, index) => [SPEC_KEY[column.key] ?? column.key, row[index] ?? null])));

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
    expect(Object.keys(approved.body.rows[0])).toEqual(["product_name", "company_name", "units", "total_value"]);
    expect(approved.body.rows[0].total_value).toMatch(/^-?\d+(\.\d+)?$/);
    expect(approved.body.count).toBe(shown.page.total);
    expect(approved.body.rows.length).toBeGreaterThan(0);

    const every = await callApi("GET", "/admin/dashboard/sales/", { token: await staff(), query: { map_with: "country", for: "company", unapproved: "1" } });
    expectDocumented("GET", "/admin/dashboard/sales/", every);
    const tabEvery = await dashboardTab("tab=sales-country&unapproved=1");
    expect(every.body.rows).toEqual(asRecords(tabEvery.tables.find((table: DashboardTable) => table.id === "country-company-sales")));
    expect(every.body.rows.length).toBeGreaterThan(0);
    // Without ?unapproved=1 only approved reports count: the figures differ on the seed.
    const approvedOnly = await callApi("GET", "/admin/dashboard/sales/", { token, query: { map_with: "country", for: "company" } });
    expect(approvedOnly.body.rows).toEqual(
      asRecords((await dashboardTab("tab=sales-country")).tables.find((table: DashboardTable) => table.id === "country-company-sales")),
    );
    expect(approvedOnly.body.rows).not.toEqual(every.body.rows);

    const time = await callApi("GET", "/admin/dashboard/sales/", { token, query: { map_with: "company", for: "time", period: "year", unapproved: "1" } });
    expectDocumented("GET", "/admin/dashboard/sales/", time);
    const tabTime = await dashboardTab("tab=sales-company&period=year&unapproved=1");
    const shownTime = tabTime.tables.find((table: DashboardTable) => table.id === "company-time-sales");
    expect(time.body.columns.map((column: any) => column.label)).toEqual(shownTime.columns.map((column: any) => column.label));
    expect(time.body.rows).toEqual(asRecords(shownTime));
  });

  it("answers a row per period with total_value and the prices (for=period), as the Sales over Time and Price tabs show them", async () => {
    const token = await admin();
    for (const period of ["year", "quarter", "month"]) {
      const answer = await callApi("GET", "/admin/dashboard/sales/", { token, query: { map_with: "product", for: "period", period, unapproved: "1" } });
      expectDocumented("GET", "/admin/dashboard/sales/", answer);
      expect(answer.status).toBe(200);
      const sales = (await dashboardTab(`tab=sales-time&period=${period}&unapproved=1`)).tables[0];
      const prices = (await dashboardTab(`tab=price&period=${period}&unapproved=1`)).tables[0];
      expect(answer.body.count).toBe(sales.page.total);
      expect(answer.body.rows.length).toBeGreaterThan(0);
      const priceOf = new Map(prices.rows.map((row: any[]) => [row[0], row.slice(1)]));
      expect(answer.body.rows.map((row: any) => [row.units, row.total_value, row.price_per_pack, row.price_per_treatment])).toEqual(
        sales.rows.map((row: any[]) => [row[1], row[2], ...((priceOf.get(row[0]) as unknown[]) ?? [null, null])]),
      );
      const label = (row: any) =>
        period === "year" ? String(row.year) : period === "quarter" ? row.quarter_name : `${row.year}-${String(row.month).padStart(2, "0")}`;
      expect(answer.body.rows.map(label)).toEqual(sales.rows.map((row: any[]) => row[0]));
      const first = answer.body.rows[0];
      if (period === "year") expect([first.month, first.quarter_name]).toEqual([null, null]);
      if (period === "quarter") expect(first.month).toBeNull();
      if (period === "month") expect(first.quarter_name).toBe(`Q${Math.ceil(first.month / 3)} ${first.year}`);
      expect(answer.body.rows.some((row: any) => row.price_per_pack !== null)).toBe(true);
    }
    // The default is by quarter, approved reports only, for staff too; map_with may be left out.
    const approved = await callApi("GET", "/admin/dashboard/sales/", { token: await staff(), query: { for: "period" } });
    expectDocumented("GET", "/admin/dashboard/sales/", approved);
    expect(approved.body.period).toBe("quarter");
    expect(approved.body.rows.map((row: any) => row.total_value)).toEqual((await dashboardTab("tab=sales-time")).tables[0].rows.map((row: any[]) => row[2]));
  });

  it("refuses a partner and bad input", async () => {
    await expectRefused("GET", "/admin/dashboard/sales/", "/admin/dashboard/sales/", { query: { map_with: "product", for: "company" } });
    await expectRefused("GET", "/admin/dashboard/sales/", "/admin/dashboard/sales/", { query: { for: "period" } });
    expectInvalid(
      "GET",
      "/admin/dashboard/sales/",
      await callApi("GET", "/admin/dashboard/sales/", { token: await admin(), query: { for: "company" } }),
      "query.map_with",
    );
    const token = await admin();
    expectInvalid(
      "GET",
      "/admin/dashboard/sales/",
      await callApi("GET", "/admin/dashboard/sales/", { token, query: { map_with: "planet", for: "company" } }),
      "query.map_with",
    );
    expectInvalid(
      "GET",
      "/admin/dashboard/sales/",
      await callApi("GET", "/admin/dashboard/sales/", { token, query: { map_with: "product", for: "product" } }),
      "query.for",
    );
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
    expect(Object.keys(products.body.rows[0])).toEqual(["product_name", ...tiles.body.rows.map((row: any) => row.status)]);

    const companies = await callApi("GET", "/admin/dashboard/company/", { token });
    expectDocumented("GET", "/admin/dashboard/company/", companies);
    const shownCompanies = tab.tables.find((table: DashboardTable) => table.id === "company-status-count");
    expect(companies.body.rows).toEqual(asRecords(shownCompanies));
    expect(companies.body.rows.map((row: any) => row.company_name)).toContain("Acme Generics Ltd");
  });

  it("refuse a partner and bad input", async () => {
    await expectRefused("GET", "/admin/dashboard/project/", "/admin/dashboard/project/");
    await expectRefused("GET", "/admin/dashboard/product/company/", "/admin/dashboard/product/company/");
    await expectRefused("GET", "/admin/dashboard/company/", "/admin/dashboard/company/");
    const token = await admin();
    expectInvalid(
      "GET",
      "/admin/dashboard/product/company/",
      await callApi("GET", "/admin/dashboard/product/company/", { token, query: { page_number: "0" } }),
      "query.page_number",
    );
    expectInvalid(
      "GET",
      "/admin/dashboard/company/",
      await callApi("GET", "/admin/dashboard/company/", { token, query: { unapproved: "yes" } }),
      "query.unapproved",
    );
    // The project counts take no parameter: one is refused.
    expectInvalid(
      "GET",
      "/admin/dashboard/project/",
      await callApi("GET", "/admin/dashboard/project/", { token, query: { page_number: "1" } }),
      "query.page_number",
    );
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
    expect(Object.keys(country.body.rows[0])).toEqual(["country_name", "product_name", "partners"]);
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
    expectInvalid(
      "GET",
      "/admin/dashboard/product/country/",
      await callApi("GET", "/admin/dashboard/product/country/", { token, query: { status: "Lost" } }),
      "query.status",
    );
    expectInvalid(
      "GET",
      "/admin/dashboard/country/",
      await callApi("GET", "/admin/dashboard/country/", { token, query: { type: "Filing-Planned" } }),
      "query.type",
    );
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
          partner: row.companyName,
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

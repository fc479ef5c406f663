import { parse } from "csv-parse/sync";
import { and, asc, eq, sql } from "drizzle-orm";
import ExcelJS from "exceljs";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { partnerProducts, partners, pdtValues, products, quarters, reports, stages, users } from "~/db/schema";
import type { PdtConsolidatedRow, PdtConsolidatedView } from "~/reports/pdt/consolidated.server";
import { savePdtReport } from "~/reports/pdt/model.server";
import { ensureQuarter, openQuarterRef } from "~/models/quarter.server";
import { getAuthUser, type AuthUser } from "~/models/user.server";
import { CONSOLIDATED_PAGE_SIZES } from "~/reports/consolidated/paging";
import { formatPdtDate } from "~/reports/pdt/rows";
import { PROJECT_STATUS_LABELS } from "~/utils/project-status";
import { loader as pageLoader } from "~/routes/_shell.admin.report.development-timeline";
import { loader as csvLoader } from "~/routes/admin.report.development-timeline.csv";
import { loader as xlsxLoader } from "~/routes/admin.report.development-timeline.xlsx";
import { addQuarters, quarterName } from "~/utils/quarters";
import { buildRequest, NOT_FOUND_PAGE, runRoute, sessionCookieFor, testContext } from "../support/remix";

const ADMIN = "admin@example.org";
const STAFF = "staff@example.org";
const ACME = "partner1@example.org";
const BOREALIS = "partner2@example.org";
const CEDAR = "partner3@example.org";
const PATH = "/admin/report/development-timeline";

/** The demo seed's timelines: Acme 3 FDF (12 stages) + 1 API (13 stages), Borealis and Cedar 2 + 2. */
const ACME_ROWS = 3 * 12 + 13;
const BOREALIS_ROWS = 2 * 12 + 2 * 13;
const CEDAR_ROWS = 2 * 12 + 2 * 13;

type PageData = PdtConsolidatedView & { state: Record<string, unknown> };

async function actorFor(email: string): Promise<AuthUser> {
  const [user] = await db.select().from(users).where(eq(users.email, email));
  return (await getAuthUser(user.id))!;
}
async function partnerIdOf(email: string) {
  const [partner] = await db.select().from(partners).where(eq(partners.email, email));
  return partner.id;
}
async function productIdOf(name: string) {
  const [product] = await db.select().from(products).where(eq(products.name, name));
  return product.id;
}
async function stageIdOf(category: "API" | "FDF", sortOrder: number) {
  const [stage] = await db
    .select()
    .from(stages)
    .where(and(eq(stages.category, category), eq(stages.sortOrder, sortOrder)));
  return stage.id;
}

async function page(search = "", email = ADMIN) {
  const cookie = await sessionCookieFor(email);
  return runRoute<PageData>(pageLoader, buildRequest(`${PATH}${search}`, { cookie }));
}
async function view(search = "") {
  const result = await page(search);
  expect(result.status).toBe(200);
  return result.data!;
}
/** Every page of a view, in order. */
async function allRows(search = "") {
  const first = await view(search);
  const rows = [...first.page.rows];
  const joiner = search ? "&" : "?";
  for (let number = 2; number <= first.page.pages; number++) rows.push(...(await view(`${search}${joiner}page=${number}`)).page.rows);
  return rows;
}
async function download(loader: typeof csvLoader, suffix: "csv" | "xlsx", search = "", email = ADMIN) {
  const cookie = await sessionCookieFor(email);
  const response = (await loader({ request: buildRequest(`${PATH}/${suffix}${search}`, { cookie }), params: {}, context: testContext() })) as Response;
  return response;
}
async function csvOf(search = "") {
  const response = await download(csvLoader, "csv", search);
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
  expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="pdt-report.csv"');
  const bytes = Buffer.from(await response.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const records: string[][] = parse(bytes, { bom: true });
  return { header: records[0], rows: records.slice(1) };
}
async function xlsxOf(search = "") {
  const response = await download(xlsxLoader, "xlsx", search);
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="pdt-report.xlsx"');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ExcelJS.Buffer);
  const sheet = workbook.getWorksheet("PDT")!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { header: rows[0], rows: rows.slice(1) };
}

/** A page row as the CSV writes it. */
const csvCells = (row: PdtConsolidatedRow) => [
  row.companyName,
  row.productName,
  row.stageName,
  row.status ? PROJECT_STATUS_LABELS[row.status] : "",
  row.reportStatus,
  ...row.dates.flatMap((pair) => [formatPdtDate(pair.startDate), formatPdtDate(pair.endDate)]),
];
const excelDate = (iso: string | null) => (iso ? new Date(`${iso}T00:00:00Z`) : undefined);

let openName: string;
let previousName: string;
let acme: number;
let borealis: number;
let cedar: number;

beforeEach(async () => {
  openName = quarterName(openQuarterRef());
  previousName = quarterName(addQuarters(openQuarterRef(), -1));
  [acme, borealis, cedar] = await Promise.all([ACME, BOREALIS, CEDAR].map(partnerIdOf));
});

/** Cedar keeps a draft of the open quarter: its plan carried over, saved, not submitted. */
async function cedarDraft() {
  const open = await ensureQuarter(openQuarterRef());
  const result = await savePdtReport({
    actor: await actorFor(CEDAR),
    partnerId: cedar,
    quarterId: open.id,
    expectedVersion: 0,
    rows: [],
    statuses: {},
    action: "save",
  });
  expect(result.ok).toBe(true);
}

describe("the page", () => {
  it("lists the open quarter's rows of every partner with a report, by company, product and stage, with four quarters of dates", async () => {
    const data = await view();
    expect(data.quarter.name).toBe(openName);
    expect(data.quarterOrder).toEqual([-3, -2, -1, 0].map((back) => quarterName(addQuarters(openQuarterRef(), back))));
    expect(data.page).toMatchObject({ total: ACME_ROWS + BOREALIS_ROWS, page: 1, pages: 2, pageSize: CONSOLIDATED_PAGE_SIZES.pdt });
    expect(data.page.rows).toHaveLength(50);
    expect(data.page.rows[0]).toMatchObject({ companyName: "Acme Generics Ltd", reportStatus: "Submitted" });
    expect(data.page.rows.at(-1)).toMatchObject({ companyName: "Borealis Pharma Pvt", reportStatus: "Resubmitted" });
    // Within a company: products by name, then the stages in their lifecycle order.
    const acmeRows = data.page.rows.filter((row) => row.partnerId === acme);
    expect(acmeRows).toHaveLength(ACME_ROWS);
    const productNames = [...new Set(acmeRows.map((row) => row.productName))];
    const expected = await db
      .select({ name: products.name })
      .from(partnerProducts)
      .innerJoin(products, eq(products.id, partnerProducts.productId))
      .where(eq(partnerProducts.partnerId, acme))
      .orderBy(asc(products.name));
    expect(productNames).toEqual(expected.map((row) => row.name));
    const first = acmeRows.filter((row) => row.productName === productNames[0]);
    const stageOrder = await db.select({ id: stages.id }).from(stages).where(eq(stages.category, "FDF")).orderBy(asc(stages.sortOrder));
    expect(first.map((row) => row.stageId)).toEqual(stageOrder.map((row) => row.id).slice(0, first.length));
    expect(state(data)).toMatchObject({ sort: "company", dir: "asc", page: 1 });
  });

  it("shows each quarter's own stored dates, and the project status of the partner's product", async () => {
    const data = await view();
    const row = data.page.rows[0];
    const [tld] = await db
      .select({ status: partnerProducts.projectStatus })
      .from(partnerProducts)
      .where(and(eq(partnerProducts.partnerId, row.partnerId), eq(partnerProducts.productId, row.productId)));
    expect(row.status).toBe(tld.status);
    for (const [index, name] of data.quarterOrder.entries()) {
      const [stored] = await db
        .select({ startDate: pdtValues.startDate, endDate: pdtValues.endDate })
        .from(pdtValues)
        .innerJoin(reports, eq(reports.id, pdtValues.reportId))
        .innerJoin(quarters, eq(quarters.id, reports.quarterId))
        .where(
          and(
            eq(quarters.name, name),
            eq(reports.partnerId, row.partnerId),
            eq(reports.type, "pdt"),
            eq(pdtValues.productId, row.productId),
            eq(pdtValues.stageId, row.stageId),
          ),
        );
      expect(row.dates[index]).toEqual(stored ?? { startDate: null, endDate: null });
    }
    // The seed reports the last four quarters: every quarter of the row has dates.
    expect(row.dates.every((pair) => pair.startDate && pair.endDate)).toBe(true);
    // The earliest quarter shown has no report of its own when the partner did not report it.
    await db
      .delete(reports)
      .where(and(eq(reports.partnerId, acme), eq(reports.type, "pdt"), eq(reports.quarterId, (await ensureQuarter(addQuarters(openQuarterRef(), -3))).id)));
    expect((await view()).page.rows[0].dates[0]).toEqual({ startDate: null, endDate: null });
  });

  it("filter options come from the quarter's rows; the status lists name every state", async () => {
    const data = await view();
    expect(data.options.partner_filter.map((option) => option.name)).toEqual(["Acme Generics Ltd", "Borealis Pharma Pvt"]);
    const names = (
      await db
        .selectDistinct({ name: products.name })
        .from(partnerProducts)
        .innerJoin(products, eq(products.id, partnerProducts.productId))
        .where(sql`${partnerProducts.partnerId} in (${acme}, ${borealis})`)
    ).map((row) => row.name);
    expect(data.options.product_filter.map((option) => option.name).sort()).toEqual(names.sort());
    expect(data.options.stage_filter).toHaveLength(12 + 13);
    expect(data.options.status_filter.map((option) => option.id)).toEqual(["PLANNED", "UNDER_DEVELOPMENT", "ON_HOLD", "DROPPED", "FILED", "APPROVED"]);
    expect(data.options.report_status_filter.map((option) => option.id)).toEqual(["Saved", "Submitted", "Resubmitted", "Approved", "Rejected"]);
    // The previous quarter: all three partners reported.
    const previous = await view(`?quarter=${encodeURIComponent(previousName)}`);
    expect(previous.options.partner_filter.map((option) => option.id)).toEqual([acme, borealis, cedar]);
  });
});

describe("changes since the last view", () => {
  it("a partner's save shows at once, in the count and the partner list too; so does a project status changed on the partner's page", async () => {
    const before = await view();
    expect(before.page.total).toBe(ACME_ROWS + BOREALIS_ROWS);
    await cedarDraft();
    const after = await view();
    expect(after.page.total).toBe(ACME_ROWS + BOREALIS_ROWS + CEDAR_ROWS);
    expect(after.options.partner_filter.map((option) => option.id)).toEqual([acme, borealis, cedar]);

    const row = after.page.rows[0];
    const filed = async () => (await view("?status=FILED")).page.total;
    const filedBefore = await filed();
    const [product] = await db
      .select({ status: partnerProducts.projectStatus })
      .from(partnerProducts)
      .where(and(eq(partnerProducts.partnerId, row.partnerId), eq(partnerProducts.productId, row.productId)));
    expect(product.status).not.toBe("FILED");
    await db
      .update(partnerProducts)
      .set({ projectStatus: "FILED" })
      .where(and(eq(partnerProducts.partnerId, row.partnerId), eq(partnerProducts.productId, row.productId)));
    const productRows = after.page.rows.filter((other) => other.partnerId === row.partnerId && other.productId === row.productId).length;
    expect(await filed()).toBe(filedBefore + productRows);
  });
});

const state = (data: PageData) => data.state;

describe("filters", () => {
  it("combine: partner, product and stage narrow to one row; status and report status too", async () => {
    const dolutegravir = await productIdOf("Dolutegravir 50 mg");
    const firstFdfStage = await stageIdOf("FDF", 1);
    const one = await view(`?partner=${acme}&product=${dolutegravir}&stage=${firstFdfStage}`);
    expect(one.page.total).toBe(1);
    expect(one.page.rows[0]).toMatchObject({ partnerId: acme, productId: dolutegravir, stageId: firstFdfStage, status: "APPROVED", reportStatus: "Submitted" });

    const onHold = await view(`?partner=${borealis}&status=ON_HOLD`);
    expect(onHold.page.total).toBe(12);
    expect(new Set(onHold.page.rows.map((row) => row.productName))).toEqual(new Set(["Tenofovir Alafenamide 25 mg"]));
    expect(onHold.page.rows.every((row) => row.status === "ON_HOLD")).toBe(true);

    const stageEverywhere = await view(`?stage=${firstFdfStage}`);
    expect(stageEverywhere.page.total).toBe(3 + 2);
    expect(stageEverywhere.page.rows.every((row) => row.stageId === firstFdfStage)).toBe(true);

    const submitted = await view("?reportStatus=Submitted");
    expect(submitted.page.total).toBe(ACME_ROWS);
    expect(submitted.page.rows.every((row) => row.companyName === "Acme Generics Ltd" && row.reportStatus === "Submitted")).toBe(true);

    // Another partner's product with Acme: nothing.
    const none = await view(`?partner=${acme}&product=${await productIdOf("Daclatasvir 60 mg")}`);
    expect(none.page).toMatchObject({ total: 0, rows: [], page: 1, pages: 1 });
  });

  it("a value a link cannot mean is no filter", async () => {
    const data = await view("?partner=abc&product=-4&stage=99999999999&status=nonsense&reportStatus=saved&dir=sideways");
    expect(data.page.total).toBe(ACME_ROWS + BOREALIS_ROWS);
    expect(state(data)).toMatchObject({ partner: undefined, product: undefined, stage: undefined, status: undefined, reportStatus: undefined, dir: "asc" });
  });

  it("drafts (Saved) are listed, with their Report Status, and the status filter finds them", async () => {
    await cedarDraft();
    const all = await view();
    expect(all.page.total).toBe(ACME_ROWS + BOREALIS_ROWS + CEDAR_ROWS);
    expect(all.options.partner_filter.map((option) => option.id)).toEqual([acme, borealis, cedar]);
    const saved = await view("?reportStatus=Saved");
    expect(saved.page.total).toBe(CEDAR_ROWS);
    expect(saved.page.rows.every((row) => row.companyName === "Cedar Life Sciences" && row.reportStatus === "Saved")).toBe(true);
    const savedCsv = await csvOf("?reportStatus=Saved");
    expect(savedCsv.rows).toHaveLength(CEDAR_ROWS);
    expect(new Set(savedCsv.rows.map((row) => row[4]))).toEqual(new Set(["Saved"]));
    expect(new Set(savedCsv.rows.map((row) => row[0]))).toEqual(new Set(["Cedar Life Sciences"]));
  });

  it("a chosen partner, product or stage without rows in the quarter stays in its list", async () => {
    const ravidasvir = await productIdOf("Ravidasvir API");
    const data = await view(`?partner=${cedar}&product=${ravidasvir}`);
    expect(data.page.total).toBe(0);
    expect(data.options.partner_filter.map((option) => option.id)).toContain(cedar);
    expect(data.options.product_filter.map((option) => option.id)).toContain(ravidasvir);
  });
});

describe("paging", () => {
  it("the last page holds the rest; a page past the end is the last page; a bad page is the first", async () => {
    const last = await view("?page=2");
    expect(last.page).toMatchObject({ page: 2, pages: 2 });
    expect(last.page.rows).toHaveLength(ACME_ROWS + BOREALIS_ROWS - 50);
    expect(last.page.rows.at(-1)!.companyName).toBe("Borealis Pharma Pvt");
    const past = await view("?page=40");
    expect(past.page.page).toBe(2);
    expect(past.page.rows).toEqual(last.page.rows);
    expect(state(past).page).toBe(2);
    expect((await view("?page=x")).page.page).toBe(1);
    expect((await view("?page=0")).page.page).toBe(1);
  });

  it("an empty result is one empty page", async () => {
    const data = await view("?reportStatus=Approved&page=3");
    expect(data.page).toMatchObject({ total: 0, rows: [], page: 1, pages: 1 });
  });

  it("the pages together are every row once, whatever the sort", async () => {
    for (const sort of ["company", "product", "stage", "status", "reportStatus"]) {
      for (const dir of ["asc", "desc"]) {
        const rows = await allRows(`?sort=${sort}&dir=${dir}`);
        expect(rows).toHaveLength(ACME_ROWS + BOREALIS_ROWS);
        expect(new Set(rows.map((row) => `${row.reportId}:${row.productId}:${row.stageId}`)).size).toBe(rows.length);
      }
    }
  });
});

describe("sorting", () => {
  it("by company, both ways; an unknown sort is by company", async () => {
    const desc = await allRows("?sort=company&dir=desc");
    expect(desc[0].companyName).toBe("Borealis Pharma Pvt");
    expect(desc.at(-1)!.companyName).toBe("Acme Generics Ltd");
    // Within the company, products and stages keep their reading order.
    const asc = await allRows();
    expect(desc.filter((row) => row.partnerId === acme)).toEqual(asc.filter((row) => row.partnerId === acme));
    expect((await view("?sort=drop table")).page.rows).toEqual((await view()).page.rows);
  });

  it("by product, stage, status and report status, both ways", async () => {
    await cedarDraft();
    const databaseOrder = async (column: "product" | "stage") => {
      const rows =
        column === "product"
          ? await db.select({ name: products.name }).from(products).orderBy(asc(products.name))
          : await db.selectDistinct({ name: stages.name }).from(stages).orderBy(asc(stages.name));
      return rows.map((row) => row.name);
    };
    const firstSeen = (values: string[]) => [...new Set(values)];
    const inOrder = (values: string[], order: string[]) => {
      const positions = values.map((value) => order.indexOf(value));
      return positions.every((position, index) => index === 0 || position >= positions[index - 1]);
    };
    const byProduct = await allRows("?sort=product");
    expect(
      inOrder(
        byProduct.map((row) => row.productName),
        await databaseOrder("product"),
      ),
    ).toBe(true);
    const byProductDesc = await allRows("?sort=product&dir=desc");
    expect(firstSeen(byProductDesc.map((row) => row.productName))).toEqual(firstSeen(byProduct.map((row) => row.productName)).reverse());

    const byStage = await allRows("?sort=stage");
    expect(
      inOrder(
        byStage.map((row) => row.stageName),
        await databaseOrder("stage"),
      ),
    ).toBe(true);
    const byStageDesc = await allRows("?sort=stage&dir=desc");
    expect(firstSeen(byStageDesc.map((row) => row.stageName))).toEqual(firstSeen(byStage.map((row) => row.stageName)).reverse());

    const byStatus = await allRows("?sort=status");
    expect(firstSeen(byStatus.map((row) => row.status!))).toEqual(["APPROVED", "DROPPED", "FILED", "ON_HOLD", "PLANNED", "UNDER_DEVELOPMENT"]);
    const byStatusDesc = await allRows("?sort=status&dir=desc");
    expect(firstSeen(byStatusDesc.map((row) => row.status!))).toEqual(["UNDER_DEVELOPMENT", "PLANNED", "ON_HOLD", "FILED", "DROPPED", "APPROVED"]);

    const byReport = await allRows("?sort=reportStatus&dir=desc");
    expect(firstSeen(byReport.map((row) => row.reportStatus))).toEqual(["Submitted", "Saved", "Resubmitted"]);
  });
});

describe("the quarter dropdown", () => {
  it("lists the quarters up to the open one, newest first; another quarter shows its own rows and the three before it", async () => {
    const data = await view();
    expect(data.options.quarter_filter[0].name).toBe(openName);
    expect(data.options.quarter_filter[1].name).toBe(previousName);
    expect(data.options.quarter_filter.map((q) => q.name)).not.toContain(quarterName(addQuarters(openQuarterRef(), 1)));

    const previous = await view(`?quarter=${encodeURIComponent(previousName)}`);
    expect(previous.quarter.name).toBe(previousName);
    expect(previous.quarterOrder).toEqual([-4, -3, -2, -1].map((back) => quarterName(addQuarters(openQuarterRef(), back))));
    expect(previous.page.total).toBe(ACME_ROWS + BOREALIS_ROWS + CEDAR_ROWS);
    expect(new Set(previous.page.rows.map((row) => row.reportStatus))).toEqual(new Set(["Approved"]));
    // The fourth quarter back was not reported (the seed covers four quarters): its pair is empty.
    expect(previous.page.rows.every((row) => row.dates[0].startDate === null && row.dates[0].endDate === null)).toBe(true);
    expect(previous.page.rows.every((row) => row.dates[3].startDate !== null)).toBe(true);
    const previousCsv = await csvOf(`?quarter=${encodeURIComponent(previousName)}`);
    expect(previousCsv.rows).toHaveLength(ACME_ROWS + BOREALIS_ROWS + CEDAR_ROWS);
    expect(previousCsv.header.slice(-2)).toEqual([`Start Date (${previousName})`, `End Date (${previousName})`]);
  });

  it("an unknown or future quarter is not found, for the page and both downloads", async () => {
    for (const quarter of ["Q1 1999", quarterName(addQuarters(openQuarterRef(), 1)), "next"]) {
      const search = `?quarter=${encodeURIComponent(quarter)}`;
      expect((await page(search)).status).toBe(404);
      // A download has no page of its own: the not-found page answers it.
      expect(await runRoute(csvLoader, buildRequest(`${PATH}/csv${search}`, { cookie: await sessionCookieFor(ADMIN) }))).toMatchObject(NOT_FOUND_PAGE);
      expect(await runRoute(xlsxLoader, buildRequest(`${PATH}/xlsx${search}`, { cookie: await sessionCookieFor(ADMIN) }))).toMatchObject(NOT_FOUND_PAGE);
    }
  });
});

describe("downloads", () => {
  it("the CSV is every filtered row of every page, in the page's order, with the report's columns", async () => {
    const { header, rows } = await csvOf();
    const quarterOrder = (await view()).quarterOrder;
    expect(header).toEqual([
      "Company Name",
      "Product",
      "Stage",
      "Status",
      "Report Status",
      ...quarterOrder.flatMap((name) => [`Start Date (${name})`, `End Date (${name})`]),
    ]);
    const pages = await allRows();
    expect(pages.length).toBeGreaterThan(CONSOLIDATED_PAGE_SIZES.pdt);
    expect(rows).toEqual(pages.map(csvCells));
    expect(rows[0][5]).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);

    const filtered = `?partner=${borealis}&status=UNDER_DEVELOPMENT`;
    expect((await csvOf(filtered)).rows).toEqual((await allRows(filtered)).map(csvCells));
    // The page and the sort of the link do not limit the download.
    expect((await csvOf("?page=2&sort=product")).rows).toEqual(rows);
  });

  it("the Excel workbook holds the same rows, dates as Excel dates", async () => {
    const { header, rows } = await xlsxOf();
    const pages = await allRows();
    expect(header).toEqual((await csvOf()).header);
    expect(rows).toHaveLength(pages.length);
    for (const [index, row] of pages.entries()) {
      expect(rows[index].slice(0, 5)).toEqual(csvCells(row).slice(0, 5));
      const dates = row.dates.flatMap((pair) => [excelDate(pair.startDate), excelDate(pair.endDate)]);
      expect(rows[index].slice(5)).toEqual(dates);
    }
    expect(rows[0][5]).toBeInstanceOf(Date);
  });

  it("a report of more than one batch downloads whole, in order", async () => {
    const [report] = await db
      .select()
      .from(reports)
      .where(and(eq(reports.partnerId, borealis), eq(reports.type, "pdt"), eq(reports.quarterId, (await ensureQuarter(openQuarterRef())).id)));
    const fdfStages = await db.select({ id: stages.id }).from(stages).where(eq(stages.category, "FDF"));
    const added = await db
      .insert(products)
      .values(
        Array.from({ length: 180 }, (_, index) => ({
          name: `Zz Batch Product ${String(index).padStart(3, "0")}`,
          category: "FDF" as const,
          therapyArea: "HIV",
        })),
      )
      .returning({ id: products.id });
    const values = added.flatMap((product) =>
      fdfStages.map((stage) => ({ reportId: report.id, productId: product.id, stageId: stage.id, startDate: "2030-01-01", endDate: "2030-02-01" })),
    );
    for (let start = 0; start < values.length; start += 1000) await db.insert(pdtValues).values(values.slice(start, start + 1000));
    const total = ACME_ROWS + BOREALIS_ROWS + values.length;
    expect(values.length).toBeGreaterThan(2000);

    const { rows } = await csvOf();
    expect(rows).toHaveLength(total);
    expect(rows).toEqual((await allRows()).map(csvCells));
    // Sorted by company from Z to A, the download follows.
    const descending = await csvOf("?sort=company&dir=desc");
    expect(descending.rows).toEqual((await allRows("?sort=company&dir=desc")).map(csvCells));
    expect(descending.rows[0][0]).toBe("Borealis Pharma Pvt");
    // Not the partner's products: no project status.
    expect(rows.at(-1)!.slice(0, 5)).toEqual(["Borealis Pharma Pvt", "Zz Batch Product 179", expect.any(String), "", "Resubmitted"]);
  });

  it("texts a spreadsheet would run are neutralised in both", async () => {
    await db.update(partners).set({ companyName: '=HYPERLINK("http://x.test","Acme")' }).where(eq(partners.id, acme));
    await db.update(products).set({ name: "@SUM(A1:A2)" }).where(eq(products.name, "Dolutegravir 50 mg"));
    const csv = await csvOf(`?partner=${acme}`);
    expect(new Set(csv.rows.map((row) => row[0]))).toEqual(new Set(['\'=HYPERLINK("http://x.test","Acme")']));
    expect(csv.rows.map((row) => row[1])).toContain("'@SUM(A1:A2)");
    const xlsx = await xlsxOf(`?partner=${acme}`);
    expect(xlsx.rows[0][0]).toBe('\'=HYPERLINK("http://x.test","Acme")');
    expect(xlsx.rows.map((row) => row[1])).toContain("'@SUM(A1:A2)");
    // The page shows the names as they are.
    expect((await view(`?partner=${acme}`)).page.rows[0].companyName).toBe('=HYPERLINK("http://x.test","Acme")');
  });

  it("accented and Chinese names round-trip in CSV and Excel", async () => {
    const accented = "Laboratoire Pharmacéutique Générique Ñandú";
    const chinese = "上海复星医药（集团）股份有限公司";
    await db.update(partners).set({ companyName: accented }).where(eq(partners.id, borealis));
    await db.update(partners).set({ companyName: chinese }).where(eq(partners.id, cedar));
    await cedarDraft();
    const csv = await csvOf();
    const names = new Set(csv.rows.map((row) => row[0]));
    expect(names).toEqual(new Set(["Acme Generics Ltd", accented, chinese]));
    const xlsx = await xlsxOf();
    expect(new Set(xlsx.rows.map((row) => row[0]))).toEqual(names);
    expect((await view(`?partner=${cedar}`)).options.partner_filter.map((option) => option.name)).toContain(chinese);
  });
});

describe("who may read", () => {
  it("STAFF reads the page and both downloads", async () => {
    expect((await page("", STAFF)).status).toBe(200);
    expect((await download(csvLoader, "csv", "", STAFF)).status).toBe(200);
    expect((await download(xlsxLoader, "xlsx", "", STAFF)).status).toBe(200);
  });

  it("a partner is refused the page and both downloads; without a session, the sign-in page", async () => {
    const cookie = await sessionCookieFor(ACME);
    for (const [loader, path] of [
      [pageLoader, PATH],
      [csvLoader, `${PATH}/csv`],
      [xlsxLoader, `${PATH}/xlsx`],
    ] as const) {
      expect((await runRoute(loader, buildRequest(path, { cookie }))).status).toBe(403);
      const anonymous = await runRoute(loader, buildRequest(path));
      expect(anonymous.status).toBe(302);
      expect(anonymous.location).toMatch(/^\/login/);
    }
  });
});

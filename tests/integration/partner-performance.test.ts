import { parse } from "csv-parse/sync";
import { eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "~/db/client.server";
import { partners, reminders, reportMessages, reports } from "~/db/schema";
import type { PartnerPerformanceRow, PartnerPerformanceView } from "~/models/partner-performance.server";
import { ensureQuarter, openQuarterRef } from "~/models/quarter.server";
import { loader as pageLoader } from "~/routes/_shell.admin.partner-performance";
import { loader as csvLoader } from "~/routes/admin.partner-performance.csv";
import { loader as xlsxLoader } from "~/routes/admin.partner-performance.xlsx";
import { addQuarters, parseQuarterName, quarterIndex, quarterName } from "~/utils/quarters";
import { buildRequest, NOT_FOUND_PAGE, runRoute, sessionCookieFor, testContext } from "../support/remix";

const ADMIN = "admin@example.org";
const STAFF = "staff@example.org";
const ACME_LOGIN = "partner1@example.org";
const PATH = "/admin/partner-performance";

const ACME = "Acme Generics Ltd";
const BOREALIS = "Borealis Pharma Pvt";
const CEDAR = "Cedar Life Sciences";
const ZENITH = "Zenith Labs";
const DAY = 86_400_000;

type PageData = PartnerPerformanceView & { state: Record<string, unknown> };
type ReportType = "pdt" | "filing" | "sales";
type Status = "Saved" | "Submitted" | "Resubmitted" | "Approved" | "Rejected";

/** The open quarter's name and the names `back` quarters before it. */
const quarterBack = (back: number) => quarterName(addQuarters(openQuarterRef(), -back));
const quarterIdBack = async (back: number) => (await ensureQuarter(addQuarters(openQuarterRef(), -back))).id;

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
async function download(loader: typeof csvLoader, suffix: "csv" | "xlsx", search = "", email: string | null = ADMIN) {
  const cookie = email ? await sessionCookieFor(email) : undefined;
  return runRoute(loader, buildRequest(`${PATH}/${suffix}${search}`, { cookie }));
}
async function csvOf(search = "") {
  const cookie = await sessionCookieFor(ADMIN);
  const response = (await csvLoader({ request: buildRequest(`${PATH}/csv${search}`, { cookie }), params: {}, context: testContext() })) as Response;
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
  expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="partner-performance.csv"');
  const bytes = Buffer.from(await response.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const records: string[][] = parse(bytes, { bom: true });
  return { header: records[0], rows: records.slice(1) };
}
async function xlsxOf(search = "") {
  const cookie = await sessionCookieFor(ADMIN);
  const response = (await xlsxLoader({ request: buildRequest(`${PATH}/xlsx${search}`, { cookie }), params: {}, context: testContext() })) as Response;
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="partner-performance.xlsx"');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ExcelJS.Buffer);
  const sheet = workbook.getWorksheet("Partner Performance")!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { header: rows[0], rows: rows.slice(1) };
}

/** A page row as the CSV writes it. */
const csvCells = (row: PartnerPerformanceRow) => [
  row.companyName,
  row.quarterName,
  `${row.submitted} / 3`,
  String(row.onTime),
  String(row.late),
  row.avgDaysToApproval === null ? "" : row.avgDaysToApproval.toFixed(1),
  String(row.rejections),
  String(row.reminders),
];
/** The figures of a row, as the table shows them. */
const figures = (row: PartnerPerformanceRow | undefined) =>
  row && {
    submitted: row.submitted,
    onTime: row.onTime,
    late: row.late,
    avgDaysToApproval: row.avgDaysToApproval,
    rejections: row.rejections,
    reminders: row.reminders,
  };
const rowOf = (rows: PartnerPerformanceRow[], company: string, back: number) =>
  rows.find((row) => row.companyName === company && row.quarterName === quarterBack(back));

// ---------------------------------------------------------------- fixture

async function addPartner(companyName: string, isActive = true) {
  const slug = companyName.toLowerCase().replace(/\W+/g, "-");
  const [partner] = await db
    .insert(partners)
    .values({ companyName, email: `${slug}@example.org`, contactNumber: "9876543210", region: "Asia", isActive })
    .returning();
  return partner.id;
}

async function addReport(partnerId: number, back: number, type: ReportType, status: Status, times: { submitted?: Date; decided?: Date; late?: boolean } = {}) {
  const [report] = await db
    .insert(reports)
    .values({
      partnerId,
      quarterId: await quarterIdBack(back),
      type,
      status,
      isLate: times.late ?? false,
      firstSubmittedAt: times.submitted ?? null,
      submittedAt: times.submitted ?? null,
      decidedAt: times.decided ?? null,
    })
    .returning();
  return report.id;
}

async function addMessage(reportId: number, isApproved: boolean | null) {
  await db
    .insert(reportMessages)
    .values({ reportId, isPartnerMessage: isApproved === null, isApproved, message: isApproved === false ? "Please correct." : "Noted." });
}

async function addReminder(partnerId: number, back: number, reportType: ReportType) {
  await db.insert(reminders).values({ partnerId, quarterId: await quarterIdBack(back), reportType, kind: "manual" });
}

/**
 * Zenith Labs, worked out by hand:
 * - open quarter: PDT submitted late; Filing Plans submitted on time, rejected twice, approved
 *   3 days after its first submission; Sales saved, never submitted; two reminders (and one of the
 *   quarter before, which does not count here) → 2 / 3, on time 1, late 1, 3.0 days, 2 rejections, 2 reminders;
 * - the quarter before: PDT approved 4 days after submission, Sales submitted late and approved
 *   36 hours after, no Filing Plans at all; one reminder → 2 / 3, 1, 1, (4 + 1.5) / 2 = 2.75 → 2.8 days, 0, 1;
 * - two and three quarters back: nothing → 0 / 3 and zeros, no average.
 * An inactive partner with reports and reminders, and a report of the next quarter, count nowhere.
 */
async function zenith() {
  const id = await addPartner(ZENITH);
  const open = new Date(Date.UTC(2020, 0, 1, 9, 0));
  const before = new Date(Date.UTC(2019, 9, 1, 9, 0));
  await addReport(id, 0, "pdt", "Submitted", { submitted: open, late: true });
  const filing = await addReport(id, 0, "filing", "Approved", { submitted: open, decided: new Date(open.getTime() + 3 * DAY) });
  await addMessage(filing, null);
  await addMessage(filing, false);
  await addMessage(filing, null);
  await addMessage(filing, false);
  await addMessage(filing, null);
  await addMessage(filing, true);
  await addReport(id, 0, "sales", "Saved");
  await addReminder(id, 0, "sales");
  await addReminder(id, 0, "pdt");
  const pdt = await addReport(id, 1, "pdt", "Approved", { submitted: before, decided: new Date(before.getTime() + 4 * DAY) });
  await addMessage(pdt, true);
  await addReport(id, 1, "sales", "Approved", { submitted: before, decided: new Date(before.getTime() + 1.5 * DAY), late: true });
  await addReminder(id, 1, "filing");

  const inactive = await addPartner("Aardvark Inactive Pharma", false);
  const gone = await addReport(inactive, 0, "pdt", "Rejected", { submitted: open, decided: open, late: true });
  await addMessage(gone, false);
  await addReminder(inactive, 0, "pdt");
  // The next quarter is not listed, even with a report in it.
  await db
    .insert(reports)
    .values({ partnerId: id, quarterId: (await ensureQuarter(addQuarters(openQuarterRef(), 1))).id, type: "pdt", status: "Submitted", firstSubmittedAt: open });
  return { id, inactive };
}

/** Active partners that make the grid longer than a page: 14 partners × 4 quarters = 56 rows. */
async function fillers() {
  for (let index = 1; index <= 10; index++) await addPartner(`Filler ${String(index).padStart(2, "0")}`);
}

// ---------------------------------------------------------------- the page

describe("the rows", () => {
  it("the demo seed: a row per active partner and reported quarter, by company then quarter newest first", async () => {
    const data = await view();
    expect(data.page).toMatchObject({ total: 3 * 4, page: 1, pages: 1, pageSize: 50 });
    expect(data.page.rows.map((row) => `${row.companyName} ${row.quarterName}`)).toEqual(
      [ACME, BOREALIS, CEDAR].flatMap((company) => [0, 1, 2, 3].map((back) => `${company} ${quarterBack(back)}`)),
    );
    expect(data.state).toMatchObject({ sort: "company", dir: "asc", page: 1 });
    // Seeded: every submission decided 2 days later, nothing late, a rejection message per Rejected report.
    const rows = data.page.rows;
    expect(figures(rowOf(rows, ACME, 0))).toEqual({ submitted: 2, onTime: 2, late: 0, avgDaysToApproval: null, rejections: 1, reminders: 0 });
    expect(figures(rowOf(rows, BOREALIS, 0))).toEqual({ submitted: 2, onTime: 2, late: 0, avgDaysToApproval: 2, rejections: 0, reminders: 0 });
    expect(figures(rowOf(rows, CEDAR, 0))).toEqual({ submitted: 0, onTime: 0, late: 0, avgDaysToApproval: null, rejections: 0, reminders: 0 });
    expect(figures(rowOf(rows, CEDAR, 2))).toEqual({ submitted: 3, onTime: 3, late: 0, avgDaysToApproval: 2, rejections: 1, reminders: 0 });
    expect(figures(rowOf(rows, BOREALIS, 3))).toEqual({ submitted: 3, onTime: 3, late: 0, avgDaysToApproval: 2, rejections: 1, reminders: 0 });
    expect(figures(rowOf(rows, CEDAR, 3))).toEqual({ submitted: 2, onTime: 2, late: 0, avgDaysToApproval: 2, rejections: 0, reminders: 0 });
  });

  it("each column of a partner worked out by hand", async () => {
    await zenith();
    const rows = (await view()).page.rows;
    expect(rows).toHaveLength(4 * 4);
    expect(rows.map((row) => row.companyName)).not.toContain("Aardvark Inactive Pharma");
    expect(rows.map((row) => row.quarterName)).not.toContain(quarterName(addQuarters(openQuarterRef(), 1)));
    expect(figures(rowOf(rows, ZENITH, 0))).toEqual({ submitted: 2, onTime: 1, late: 1, avgDaysToApproval: 3, rejections: 2, reminders: 2 });
    expect(figures(rowOf(rows, ZENITH, 1))).toEqual({ submitted: 2, onTime: 1, late: 1, avgDaysToApproval: 2.8, rejections: 0, reminders: 1 });
    for (const back of [2, 3]) {
      expect(figures(rowOf(rows, ZENITH, back))).toEqual({ submitted: 0, onTime: 0, late: 0, avgDaysToApproval: null, rejections: 0, reminders: 0 });
    }
    // Zenith sorts last; its quarters newest first.
    expect(rows.slice(-4).map((row) => row.quarterName)).toEqual([0, 1, 2, 3].map(quarterBack));
  });

  it("a quarter counts from its first report of any partner; an approval is averaged from the first submission", async () => {
    // Five quarters back had no report: a rejected then resubmitted and approved report brings it in.
    const id = await addPartner(ZENITH);
    const first = new Date(Date.UTC(2019, 0, 10, 12, 0));
    const report = await addReport(id, 5, "filing", "Approved", { submitted: first, decided: new Date(first.getTime() + 10 * DAY + 6 * 3_600_000) });
    await db
      .update(reports)
      .set({ submittedAt: new Date(first.getTime() + 7 * DAY) })
      .where(eq(reports.id, report));
    await addMessage(report, false);
    await addMessage(report, true);
    const rows = (await view()).page.rows;
    expect(rows).toHaveLength(4 * 5);
    expect(figures(rowOf(rows, ZENITH, 5))).toEqual({ submitted: 1, onTime: 1, late: 0, avgDaysToApproval: 10.3, rejections: 1, reminders: 0 });
    expect(figures(rowOf(rows, ACME, 5))).toEqual({ submitted: 0, onTime: 0, late: 0, avgDaysToApproval: null, rejections: 0, reminders: 0 });
    // Four quarters back still has none: not listed.
    expect(rows.map((row) => row.quarterName)).not.toContain(quarterBack(4));
  });
});

describe("the chart", () => {
  it("on time, late and not submitted per quarter, oldest first, over the active partners × 3 reports", async () => {
    const { id } = await zenith();
    const data = await view();
    expect(data.chart).toEqual({
      quarters: [3, 2, 1, 0].map(quarterBack),
      onTime: [8, 9, 10, 5],
      late: [0, 0, 1, 1],
      notSubmitted: [4, 3, 1, 6],
      partners: 4,
    });
    // The quarter filter leaves the chart whole; the partner filter narrows it to that partner.
    expect((await view(`?quarter=${encodeURIComponent(quarterBack(0))}`)).chart).toEqual(data.chart);
    expect((await view(`?partner=${id}`)).chart).toEqual({
      quarters: data.chart.quarters,
      onTime: [0, 0, 1, 1],
      late: [0, 0, 1, 1],
      notSubmitted: [3, 3, 1, 1],
      partners: 1,
    });
    // The totals of the chart are those of the table.
    const rows = await allRows();
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    expect(sum(data.chart.onTime)).toBe(sum(rows.map((row) => row.onTime)));
    expect(sum(data.chart.late)).toBe(sum(rows.map((row) => row.late)));
    expect(sum(data.chart.notSubmitted)).toBe(sum(rows.map((row) => 3 - row.submitted)));
  });
});

describe("filters", () => {
  it("a quarter, a partner, or both", async () => {
    const { id } = await zenith();
    const previous = await view(`?quarter=${encodeURIComponent(quarterBack(1))}`);
    expect(previous.page.total).toBe(4);
    expect(previous.page.rows.map((row) => row.companyName)).toEqual([ACME, BOREALIS, CEDAR, ZENITH]);
    expect(new Set(previous.page.rows.map((row) => row.quarterName))).toEqual(new Set([quarterBack(1)]));
    expect(figures(previous.page.rows[3])).toEqual({ submitted: 2, onTime: 1, late: 1, avgDaysToApproval: 2.8, rejections: 0, reminders: 1 });

    const one = await view(`?partner=${id}`);
    expect(one.page.rows.map((row) => row.quarterName)).toEqual([0, 1, 2, 3].map(quarterBack));
    expect(one.page.rows.every((row) => row.partnerId === id)).toBe(true);

    const both = await view(`?partner=${id}&quarter=${encodeURIComponent(quarterBack(0))}`);
    expect(both.page.total).toBe(1);
    expect(figures(both.page.rows[0])).toEqual({ submitted: 2, onTime: 1, late: 1, avgDaysToApproval: 3, rejections: 2, reminders: 2 });
    expect(both.state).toMatchObject({ partner: id, quarter: quarterBack(0) });
  });

  it("the choices: listed quarters newest first, active partners by name", async () => {
    const { inactive } = await zenith();
    const data = await view();
    expect(data.options.quarter_filter.map((option) => option.name)).toEqual([0, 1, 2, 3].map(quarterBack));
    expect(data.options.partner_filter.map((option) => option.name)).toEqual([ACME, BOREALIS, CEDAR, ZENITH]);
    // An inactive partner chosen by link: no rows, but the form still shows it.
    const chosen = await view(`?partner=${inactive}`);
    expect(chosen.page).toMatchObject({ total: 0, rows: [], page: 1, pages: 1 });
    expect(chosen.options.partner_filter.map((option) => option.id)).toContain(inactive);
    expect(chosen.chart.onTime.every((value) => value === 0)).toBe(true);
  });

  it("a known quarter without reports is empty; an unknown or future one is not found, for the page and both downloads", async () => {
    expect((await view(`?quarter=${encodeURIComponent(quarterBack(6))}`)).page).toMatchObject({ total: 0, rows: [], pages: 1 });
    for (const quarter of ["Q1 1999", quarterName(addQuarters(openQuarterRef(), 1)), "next"]) {
      const search = `?quarter=${encodeURIComponent(quarter)}`;
      expect((await page(search)).status).toBe(404);
      // A download has no page of its own: the not-found page answers it.
      expect(await download(csvLoader, "csv", search)).toMatchObject(NOT_FOUND_PAGE);
      expect(await download(xlsxLoader, "xlsx", search)).toMatchObject(NOT_FOUND_PAGE);
    }
  });

  it("a value a link cannot mean is no filter", async () => {
    const data = await view("?partner=abc&sort=nonsense&dir=sideways&page=x");
    expect(data.page.total).toBe(12);
    expect(data.state).toMatchObject({ partner: undefined, sort: "company", dir: "asc", page: 1 });
  });
});

// ---------------------------------------------------------------- sorting and paging

const SORTS = ["company", "quarter", "submitted", "onTime", "late", "avgDays", "rejections", "reminders"] as const;
type Sort = (typeof SORTS)[number];
const quarterNumber = (name: string) => quarterIndex(parseQuarterName(name)!);
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const valueOf: Record<Exclude<Sort, "company" | "quarter">, (row: PartnerPerformanceRow) => number | null> = {
  submitted: (row) => row.submitted,
  onTime: (row) => row.onTime,
  late: (row) => row.late,
  avgDays: (row) => row.avgDaysToApproval,
  rejections: (row) => row.rejections,
  reminders: (row) => row.reminders,
};

/** The order the page promises: the column in its direction (no average last), then company A to Z, then quarter newest first. */
function expectedOrder(rows: PartnerPerformanceRow[], sort: Sort, dir: "asc" | "desc") {
  const sign = dir === "asc" ? 1 : -1;
  const company = (a: PartnerPerformanceRow, b: PartnerPerformanceRow) => compareText(a.companyName, b.companyName) || a.partnerId - b.partnerId;
  const newest = (a: PartnerPerformanceRow, b: PartnerPerformanceRow) => quarterNumber(b.quarterName) - quarterNumber(a.quarterName);
  return [...rows].sort((a, b) => {
    if (sort === "company") return sign * company(a, b) || newest(a, b);
    if (sort === "quarter") return sign * (quarterNumber(a.quarterName) - quarterNumber(b.quarterName)) || company(a, b);
    const [x, y] = [valueOf[sort](a), valueOf[sort](b)];
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return sign * (x - y);
    }
    return company(a, b) || newest(a, b);
  });
}

describe("sorting and paging", () => {
  it("every column sorts both ways, over every page", async () => {
    await zenith();
    await fillers();
    const rows = await allRows();
    expect(rows).toHaveLength(14 * 4);
    for (const sort of SORTS) {
      for (const dir of ["asc", "desc"] as const) {
        const sorted = await allRows(`?sort=${sort}&dir=${dir}`);
        expect(
          sorted.map((row) => `${row.partnerId}:${row.quarterId}`),
          `${sort} ${dir}`,
        ).toEqual(expectedOrder(rows, sort, dir).map((row) => `${row.partnerId}:${row.quarterId}`));
      }
    }
    // Spot checks of what a reader sees first.
    expect((await view("?sort=late&dir=desc")).page.rows.slice(0, 2).map((row) => `${row.companyName} ${row.quarterName}`)).toEqual([
      `${ZENITH} ${quarterBack(0)}`,
      `${ZENITH} ${quarterBack(1)}`,
    ]);
    expect((await view("?sort=avgDays&dir=desc")).page.rows[0]).toMatchObject({ companyName: ZENITH, avgDaysToApproval: 3 });
    expect((await view("?sort=avgDays&dir=asc")).page.rows[0]).toMatchObject({ companyName: ACME, avgDaysToApproval: 2 });
    expect((await view("?sort=rejections&dir=desc")).page.rows[0]).toMatchObject({ companyName: ZENITH, rejections: 2 });
    expect((await view("?sort=reminders&dir=desc")).page.rows.slice(0, 2).map((row) => row.reminders)).toEqual([2, 1]);
    expect((await view("?sort=quarter&dir=asc")).page.rows[0]).toMatchObject({ companyName: ACME, quarterName: quarterBack(3) });
    expect((await view("?sort=company&dir=desc")).page.rows[0]).toMatchObject({ companyName: ZENITH, quarterName: quarterBack(0) });
  });

  it("50 a page; the last page holds the rest; a page past the end is the last page", async () => {
    await zenith();
    await fillers();
    const first = await view();
    expect(first.page).toMatchObject({ total: 56, page: 1, pages: 2, pageSize: 50 });
    expect(first.page.rows).toHaveLength(50);
    const last = await view("?page=2");
    expect(last.page.rows).toHaveLength(6);
    expect(last.page.rows.slice(-4).map((row) => `${row.companyName} ${row.quarterName}`)).toEqual(
      [0, 1, 2, 3].map((back) => `${ZENITH} ${quarterBack(back)}`),
    );
    const past = await view("?page=9");
    expect(past.page.page).toBe(2);
    expect(past.page.rows).toEqual(last.page.rows);
    expect(past.state.page).toBe(2);
    // Filters and sort together page too.
    const late = await view("?sort=late&dir=desc&page=2");
    expect(late.page.rows).toHaveLength(6);
  });
});

// ---------------------------------------------------------------- the database does the counting

describe("the work per request", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** How many SQL statements a request runs (every Drizzle query goes through the session's prepareQuery). */
  async function statementsOf(run: () => Promise<unknown>) {
    const session = (db as unknown as { session: { prepareQuery: (...args: never[]) => unknown } }).session;
    const spy = vi.spyOn(session, "prepareQuery");
    await run();
    const statements = spy.mock.calls.length;
    spy.mockRestore();
    return statements;
  }
  const requests = {
    page: () => view("?sort=avgDays&dir=desc&page=2"),
    csv: () => csvOf("?sort=rejections"),
    xlsx: () => xlsxOf(`?quarter=${encodeURIComponent(quarterBack(1))}`),
  };

  it("is the same handful of queries whatever the number of partners, reports, messages and reminders", async () => {
    const before: Record<string, number> = {};
    for (const [name, run] of Object.entries(requests)) before[name] = await statementsOf(run);

    // 150 more partners, each with its three reports in each of the four quarters, messages and reminders.
    const added = await db
      .insert(partners)
      .values(
        Array.from({ length: 150 }, (_, index) => ({
          companyName: `Bulk ${String(index).padStart(3, "0")}`,
          email: `bulk-${index}@example.org`,
          contactNumber: "9876543210",
          region: "Asia",
        })),
      )
      .returning({ id: partners.id });
    const quarterIds = await Promise.all([0, 1, 2, 3].map(quarterIdBack));
    const submitted = new Date(Date.UTC(2020, 0, 1));
    const inserted = await db
      .insert(reports)
      .values(
        added.flatMap(({ id }, index) =>
          quarterIds.flatMap((quarterId) =>
            (["pdt", "filing", "sales"] as const).map((type) => ({
              partnerId: id,
              quarterId,
              type,
              status: "Approved" as const,
              isLate: index % 2 === 0,
              firstSubmittedAt: submitted,
              submittedAt: submitted,
              decidedAt: new Date(submitted.getTime() + (index % 5) * DAY),
            })),
          ),
        ),
      )
      .returning({ id: reports.id, partnerId: reports.partnerId, quarterId: reports.quarterId });
    await db
      .insert(reportMessages)
      .values(inserted.map((report) => ({ reportId: report.id, isPartnerMessage: false, isApproved: false, message: "Please correct." })));
    await db
      .insert(reminders)
      .values(inserted.map((report) => ({ partnerId: report.partnerId, quarterId: report.quarterId, reportType: "pdt" as const, kind: "manual" as const })));

    for (const [name, run] of Object.entries(requests)) {
      const statements = await statementsOf(run);
      expect(statements, name).toBe(before[name]);
      expect(statements, name).toBeLessThanOrEqual(10);
    }
    const data = await view("?sort=late&dir=desc");
    expect(data.page).toMatchObject({ total: 153 * 4, pages: Math.ceil((153 * 4) / 50) });
    expect(data.page.rows[0]).toMatchObject({ companyName: "Bulk 000", submitted: 3, onTime: 0, late: 3, avgDaysToApproval: 0, rejections: 3, reminders: 3 });
    expect((await csvOf()).rows).toHaveLength(153 * 4);
  });
});

// ---------------------------------------------------------------- downloads

describe("downloads", () => {
  it("the CSV is every filtered row of every page, in the page's sort", async () => {
    await zenith();
    await fillers();
    const { header, rows } = await csvOf();
    expect(header).toEqual(["Company Name", "Quarter", "Submitted", "On time", "Late", "Average days to approval", "Rejections", "Reminders"]);
    expect(rows).toHaveLength(56);
    expect(rows).toEqual((await allRows()).map(csvCells));
    expect(rows.filter((row) => row[0] === ZENITH)).toEqual([
      [ZENITH, quarterBack(0), "2 / 3", "1", "1", "3.0", "2", "2"],
      [ZENITH, quarterBack(1), "2 / 3", "1", "1", "2.8", "0", "1"],
      [ZENITH, quarterBack(2), "0 / 3", "0", "0", "", "0", "0"],
      [ZENITH, quarterBack(3), "0 / 3", "0", "0", "", "0", "0"],
    ]);
    // The sort of the link is the download's; its page is not a limit.
    for (const search of ["?sort=late&dir=desc&page=2", "?sort=quarter", "?sort=avgDays&dir=desc"]) {
      expect((await csvOf(search)).rows).toEqual((await allRows(search.replace(/&page=\d+/, ""))).map(csvCells));
    }
    // The filters too.
    const quarter = `?quarter=${encodeURIComponent(quarterBack(1))}&sort=reminders&dir=desc`;
    const filtered = await csvOf(quarter);
    expect(filtered.rows).toHaveLength(14);
    expect(filtered.rows[0]).toEqual([ZENITH, quarterBack(1), "2 / 3", "1", "1", "2.8", "0", "1"]);
    expect(filtered.rows).toEqual((await allRows(quarter)).map(csvCells));
  });

  it("the Excel workbook holds the same rows, counts and averages as numbers", async () => {
    const { id } = await zenith();
    const search = `?partner=${id}`;
    const { header, rows } = await xlsxOf(search);
    expect(header).toEqual((await csvOf()).header);
    expect(rows).toEqual([
      [ZENITH, quarterBack(0), "2 / 3", 1, 1, 3, 2, 2],
      [ZENITH, quarterBack(1), "2 / 3", 1, 1, 2.8, 0, 1],
      // exceljs leaves an empty cell out of a row's values.
      [ZENITH, quarterBack(2), "0 / 3", 0, 0, undefined, 0, 0],
      [ZENITH, quarterBack(3), "0 / 3", 0, 0, undefined, 0, 0],
    ]);
    const all = await xlsxOf("?sort=submitted&dir=desc");
    expect(all.rows.map((row) => [row[0], row[1]])).toEqual((await allRows("?sort=submitted&dir=desc")).map((row) => [row.companyName, row.quarterName]));
  });

  it("a company name a spreadsheet would run is neutralised in both; the page shows it as it is", async () => {
    const id = await addPartner('=HYPERLINK("http://x.test","Zed")');
    const csv = await csvOf(`?partner=${id}`);
    expect(new Set(csv.rows.map((row) => row[0]))).toEqual(new Set(['\'=HYPERLINK("http://x.test","Zed")']));
    const xlsx = await xlsxOf(`?partner=${id}`);
    expect(xlsx.rows[0][0]).toBe('\'=HYPERLINK("http://x.test","Zed")');
    expect((await view(`?partner=${id}`)).page.rows[0].companyName).toBe('=HYPERLINK("http://x.test","Zed")');
  });
});

// ---------------------------------------------------------------- roles

describe("who may read", () => {
  it("ADMIN and STAFF read the page and both downloads", async () => {
    for (const email of [ADMIN, STAFF]) {
      expect((await page("", email)).status).toBe(200);
      expect((await download(csvLoader, "csv", "", email)).status).toBe(200);
      expect((await download(xlsxLoader, "xlsx", "", email)).status).toBe(200);
    }
  });

  it("a partner is refused the page and both downloads; without a session, the sign-in page", async () => {
    const cookie = await sessionCookieFor(ACME_LOGIN);
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

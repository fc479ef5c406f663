/**
 * The proof of a submission (issue 33): the PDF of a submission, drawn by Chromium from the stored
 * snapshot, read back with poppler's pdftotext (and a page drawn with pdftoppm), as a partner, an
 * auditor or an administrator would read it: whose report, which quarter, who submitted it and
 * when, every row as submitted, the totals, and the SHA-256 the snapshot was stored with. Drawn
 * once and kept: by the job queued with the submission, or by whatever asks for it first.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { countries, outbox, partners, products, quarters, reports, reportSnapshots, salesRows, stages, submissionPdfs, users } from "~/db/schema";
import { startWorker } from "~/jobs/worker.server";
import { getOpenQuarter } from "~/models/quarter.server";
import { action as partnerAction, loader as partnerLoader } from "~/routes/_shell.partner.sales-report";
import { loader as pdfLoader } from "~/routes/submissions.$snapshotId.pdf";
import { canonicalJson } from "~/reports/frame/workflow.server";
import type { SalesReportPageData } from "~/reports/sales/page.server";
import { apiGridRow, fdfGridRow } from "../support/sales-grid-rows";
import { buildRequest, runRoute, sessionCookieFor, testContext } from "../support/remix";
import { apiToken, callApi, expectDocumented } from "../support/api";
import crypto from "node:crypto";

const CEDAR = "partner3@example.org";
const ACME = "partner1@example.org";
const year = String(new Date().getUTCFullYear());

/** The PDF's text as pdftotext reads it (its own layout: one table row a line). */
function pdfText(bytes: Uint8Array): string {
  return execFileSync("pdftotext", ["-layout", "-enc", "UTF-8", "-", "-"], { input: bytes, maxBuffer: 64 * 1024 * 1024 }).toString("utf8");
}

/** The share of dark pixels on page 1, drawn at 40 dpi in grey (a blank page: 0). */
function inkOnFirstPage(bytes: Uint8Array): number {
  const directory = mkdtempSync(path.join(os.tmpdir(), "submission-pdf-"));
  let pgm: Buffer;
  try {
    execFileSync("pdftoppm", ["-f", "1", "-l", "1", "-r", "40", "-gray", "-singlefile", "-", path.join(directory, "page")], { input: bytes });
    pgm = readFileSync(path.join(directory, "page.pgm"));
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  // Binary PGM: "P5\n<width> <height>\n<max>\n" then a byte per pixel.
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 40).toString("latin1"))!;
  const pixels = pgm.subarray(header[0].length);
  let dark = 0;
  for (const value of pixels) if (value < 128) dark++;
  return dark / pixels.length;
}

async function userOf(email: string) {
  const [user] = await db.select().from(users).where(eq(users.email, email));
  return user;
}

async function partnerOf(email: string) {
  const [partner] = await db.select().from(partners).where(eq(partners.email, email));
  return partner;
}

async function salesPage(email: string): Promise<SalesReportPageData> {
  const result = await runRoute<SalesReportPageData>(partnerLoader, buildRequest("/partner/sales-report", { cookie: await sessionCookieFor(email) }));
  expect(result.status).toBe(200);
  return result.data!;
}

/** Cedar submits its open quarter's Sales Report with these rows and comment; answers the snapshot taken. */
async function submitSales(rows: { API: object[]; FDF: object[] }, comment: string) {
  const page = await salesPage(CEDAR);
  const result = await runRoute(
    partnerAction,
    buildRequest("/partner/sales-report", {
      cookie: await sessionCookieFor(CEDAR),
      form: {
        intent: "submit",
        quarterId: String((await getOpenQuarter()).id),
        version: String(page.view.report.version),
        comment,
        payload: JSON.stringify({ ...rows, deletedIds: [] }),
      },
    }),
  );
  expect(result.status, JSON.stringify(result.data)).toBe(302);
  const partner = await partnerOf(CEDAR);
  const [snapshot] = await db
    .select({ snapshot: reportSnapshots })
    .from(reportSnapshots)
    .innerJoin(reports, eq(reports.id, reportSnapshots.reportId))
    .where(and(eq(reports.partnerId, partner.id), eq(reports.type, "sales"), eq(reportSnapshots.event, "submit")))
    .orderBy(desc(reportSnapshots.id))
    .limit(1);
  return snapshot.snapshot;
}

/** The PDF as the history's link downloads it. */
async function download(email: string | null, snapshotId: number) {
  const cookie = email ? await sessionCookieFor(email) : undefined;
  const request = buildRequest(`/submissions/${snapshotId}/pdf`, { cookie });
  try {
    const response = (await pdfLoader({ request, params: { snapshotId: String(snapshotId) }, context: testContext() })) as Response;
    return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, headers: thrown.headers, bytes: new Uint8Array() };
    throw thrown;
  }
}

/** Cedar's submission: two API rows and one FDF row, worked out by hand below. */
const CEDAR_ROWS = {
  API: [
    apiGridRow({ year, month: "March", purchaser: "PEPFAR Supply Chain", quantity: "10", totalValue: "1000" }),
    apiGridRow({ year, month: "April", purchaser: "UNICEF Copenhagen", quantity: "2.5", totalValue: "250.75" }),
  ],
  // 1,000 packs of 30 at 2.50 USD: 2,500 gross, 100 deducted, 2,400 net, 5 % royalty: 120.
  FDF: [fdfGridRow({ year, month: "May", purchaser: "KEMSA", quantity: "1000" })],
};

describe("the proof of a submission (PDF)", () => {
  it("holds the partner, quarter, report, submitter, comment, every row, the totals and the snapshot's SHA-256", async () => {
    const snapshot = await submitSales(CEDAR_ROWS, "Sales for the quarter, as agreed with the Global Fund.");
    // The hash stored is the hash of the rows stored: the PDF drawn from them matches it.
    const canonical = canonicalJson(snapshot.explanations ? { rows: snapshot.rows, explanations: snapshot.explanations } : snapshot.rows);
    expect(crypto.createHash("sha256").update(canonical).digest("hex")).toBe(snapshot.sha256);

    const started = Date.now();
    const answer = await download(CEDAR, snapshot.id);
    const took = Date.now() - started;
    expect(answer.status).toBe(200);
    if (process.env.PDF_DUMP) (await import("node:fs")).writeFileSync(`${process.env.PDF_DUMP}-large.pdf`, answer.bytes);
    expect(answer.headers.get("Content-Type")).toBe("application/pdf");
    const quarter = (await getOpenQuarter()).name;
    const [, quarterNumber, quarterYear] = /^Q(\d) (\d{4})$/.exec(quarter)!;
    expect(answer.headers.get("Content-Disposition")).toBe(
      `attachment; filename="sales-report_Cedar-Life-Sciences_${quarterYear}-Q${quarterNumber}_submission.pdf"`,
    );
    expect(Buffer.from(answer.bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");

    const text = pdfText(answer.bytes);
    const cedarUser = await userOf(CEDAR);
    for (const expected of [
      "Proof of submission: Sales Report",
      "Cedar Life Sciences",
      quarter,
      cedarUser.name,
      "Sales for the quarter, as agreed with the Global Fund.",
      snapshot.sha256,
      "API sales",
      "FDF sales",
    ]) {
      expect(text, expected).toContain(expected);
    }
    const lines = text.split("\n");
    const lineWith = (needle: string) => lines.find((line) => line.includes(needle)) ?? "";
    // Each row on a line of its own, with the screen's values: names, not ids.
    expect(lineWith("PEPFAR Supply Chain")).toMatch(new RegExp(`1\\s+${year}\\s+March\\s+India\\s+PEPFAR Supply Chain\\s+Abacavir API\\s+10\\s+1000`));
    expect(lineWith("UNICEF Copenhagen")).toMatch(/2\s+\d{4}\s+April\s+India\s+UNICEF Copenhagen\s+Abacavir API\s+2\.5\s+250\.75/);
    // (A cell too long for its column goes on under it: the strength "50 mg" may.)
    expect(lineWith("KEMSA")).toMatch(
      new RegExp(
        `1\\s+${year}\\s+May\\s+Kenya\\s+KEMSA\\s+Dolutegravir 50 mg\\s+(50 mg\\s+)?Tablet\\s+30\\s+1000\\s+USD\\s+2\\.5\\s+1\\s+2\\.5\\s+2500\\s+100\\s+2400\\s+5\\s+120\\s+Kenya`,
      ),
    );
    // The totals: 12.5 kg and 1,250.75 USD of API; 2,500 gross, 100 deducted, 2,400 net and 120 royalty of FDF.
    const totals = lines.filter((line) => /^\s*Total\s/.test(line));
    expect(totals).toHaveLength(2);
    expect(totals[0]).toMatch(/Total\s+12\.5\s+1250\.75\s*$/);
    expect(totals[1]).toMatch(/Total\s+1000\s+2500\s+100\s+2400\s+120\s*$/);
    expect(inkOnFirstPage(answer.bytes)).toBeGreaterThan(0.005);
    console.log(`submission PDF of ${snapshot.rowCount} rows drawn in ${took} ms (the first includes Chromium's launch)`);
  });

  it("is drawn from the snapshot, not the live rows: a later save does not change it", async () => {
    const snapshot = await submitSales(CEDAR_ROWS, "First submission.");
    const report = (await db.select().from(reports).where(eq(reports.id, snapshot.reportId)))[0];
    await db.update(salesRows).set({ purchaser: "Changed After Submission" }).where(eq(salesRows.reportId, report.id));
    const text = pdfText((await download(CEDAR, snapshot.id)).bytes);
    expect(text).toContain("PEPFAR Supply Chain");
    expect(text).not.toContain("Changed After Submission");
  });

  it("in Arabic: right to left, the labels in Arabic, the figures and the hash as stored", async () => {
    await db.update(users).set({ language: "ar" }).where(eq(users.email, CEDAR));
    const snapshot = await submitSales(CEDAR_ROWS, "تقرير المبيعات للربع");
    const answer = await download("admin@example.org", snapshot.id);
    expect(answer.status).toBe(200);
    const text = pdfText(answer.bytes);
    if (process.env.PDF_DUMP) (await import("node:fs")).writeFileSync(`${process.env.PDF_DUMP}-ar.pdf`, answer.bytes);
    // The document's own words (public/locales/ar): "Proof of submission", "Partner", "Country", "API sales".
    for (const arabic of ["إثبات التقديم", "شريك", "البلد", "تقرير المبيعات للربع"]) expect(text, arabic).toContain(arabic);
    expect(text).toContain(snapshot.sha256);
    expect(text).toContain("PEPFAR Supply Chain");
    expect(text).toMatch(/2400/);
    // Arabic month and country names (Intl), not the English ones stored.
    expect(text).toContain("الهند");
    expect(inkOnFirstPage(answer.bytes)).toBeGreaterThan(0.005);
  });

  it("in Chinese: the labels and names in Chinese characters", async () => {
    await db.update(users).set({ language: "zh" }).where(eq(users.email, CEDAR));
    const snapshot = await submitSales(CEDAR_ROWS, "本季度销售报告");
    const answer = await download("staff@example.org", snapshot.id);
    expect(answer.status).toBe(200);
    const text = pdfText(answer.bytes);
    if (process.env.PDF_DUMP) (await import("node:fs")).writeFileSync(`${process.env.PDF_DUMP}-zh.pdf`, answer.bytes);
    // "Proof of submission", "Partner", "Country", "India", "Total", and the comment.
    for (const chinese of ["提交证明", "合作伙伴", "国家", "印度", "合计", "本季度销售报告"]) expect(text, chinese).toContain(chinese);
    expect(text).toContain(snapshot.sha256);
    expect(inkOnFirstPage(answer.bytes)).toBeGreaterThan(0.005);
  });
});

/** A hand-made submission of a partner's latest report of `type`: these rows, their hash as the workflow computes it. */
async function handMadeSubmission(email: string, type: "pdt" | "filing", rows: Record<string, unknown>[]) {
  const partner = await partnerOf(email);
  const [report] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.partnerId, partner.id), eq(reports.type, type)))
    .orderBy(desc(reports.id))
    .limit(1);
  const stored = JSON.parse(canonicalJson(rows)) as unknown[];
  const sha256 = crypto.createHash("sha256").update(canonicalJson(stored)).digest("hex");
  const [snapshot] = await db
    .insert(reportSnapshots)
    .values({
      reportId: report.id,
      event: "submit",
      version: report.version,
      rows: stored,
      rowCount: rows.length,
      sha256,
      comment: "Hand-made",
      createdBy: (await userOf(email)).id,
    })
    .returning();
  const [quarter] = await db.select({ name: quarters.name }).from(quarters).where(eq(quarters.id, report.quarterId));
  return { snapshot, quarter: quarter.name };
}

const idOf = async (table: typeof products | typeof countries, name: string) =>
  (await db.select({ id: table.id }).from(table).where(eq(table.name, name)))[0].id;

describe("the Development Timeline's and the Filing Plans' proofs", () => {
  it("PDT: a row per product and stage, in the stages' order, the dates named, the notes", async () => {
    const product = await idOf(products, "Dolutegravir 50 mg");
    const fdfStages = await db.select().from(stages).where(eq(stages.category, "FDF")).orderBy(asc(stages.sortOrder));
    const [first, second] = fdfStages;
    // Stored in the reverse order: the document puts the stages in theirs.
    const { snapshot, quarter } = await handMadeSubmission(CEDAR, "pdt", [
      { id: 2, reportId: 0, productId: product, stageId: second.id, startDate: "2026-07-01", endDate: null, notes: null },
      { id: 1, reportId: 0, productId: product, stageId: first.id, startDate: "2026-01-15", endDate: "2026-06-30", notes: "Bioequivalence study" },
    ]);
    const text = pdfText((await download("admin@example.org", snapshot.id)).bytes);
    expect(text).toContain("Proof of submission: Development Timeline");
    expect(text).toContain(`Start Date (${quarter})`);
    expect(text).toContain(snapshot.sha256);
    const lines = text.split("\n");
    const firstLine = lines.findIndex((line) => line.includes("Bioequivalence study"));
    expect(lines[firstLine]).toMatch(new RegExp(`Dolutegravir 50 mg\\s+${first.name}\\s+15 January 2026\\s+30 June 2026\\s+Bioequivalence study`));
    const secondLine = lines.findIndex((line) => line.includes("1 July 2026"));
    expect(secondLine).toBeGreaterThan(firstLine);
    expect(lines[secondLine]).toMatch(new RegExp(`^\\s*${second.name}\\s+1 July 2026\\s*$`));
  });

  it("Filing Plans: a row per country, a column per product, the statuses", async () => {
    const dolutegravir = await idOf(products, "Dolutegravir 50 mg");
    const abacavir = await idOf(products, "Abacavir API");
    const { snapshot } = await handMadeSubmission(CEDAR, "filing", [
      { id: 1, reportId: 0, countryId: await idOf(countries, "Kenya"), productId: dolutegravir, status: "Filed" },
      { id: 2, reportId: 0, countryId: await idOf(countries, "India"), productId: abacavir, status: "Approved" },
    ]);
    const text = pdfText((await download(CEDAR, snapshot.id)).bytes);
    expect(text).toContain("Proof of submission: Filing Plans");
    expect(text).toContain(snapshot.sha256);
    expect(text).toMatch(/Country\s+Abacavir API\s+Dolutegravir 50 mg/);
    expect(text).toMatch(/India\s+Approved\n/);
    expect(text).toMatch(/Kenya\s+Filed\n/);
  });
});

/** The kept copy of a submission's PDF, or undefined. */
async function keptPdf(snapshotId: number) {
  const [kept] = await db.select().from(submissionPdfs).where(eq(submissionPdfs.snapshotId, snapshotId));
  return kept;
}

describe("the kept PDF", () => {
  it("is stored by the first download and served again as stored, not drawn again", async () => {
    const snapshot = await submitSales(CEDAR_ROWS, "Kept once drawn.");
    expect(await keptPdf(snapshot.id)).toBeUndefined();
    const first = await download(CEDAR, snapshot.id);
    expect(first.status).toBe(200);
    const kept = await keptPdf(snapshot.id);
    expect(Buffer.from(first.bytes).equals(kept.pdf)).toBe(true);

    // What is served is what is stored: a mark added to the stored bytes comes back with the next download.
    await db
      .update(submissionPdfs)
      .set({ pdf: sql`${submissionPdfs.pdf} || convert_to('%kept', 'UTF8')` })
      .where(eq(submissionPdfs.snapshotId, snapshot.id));
    const second = await download("admin@example.org", snapshot.id);
    expect(second.status).toBe(200);
    expect(Buffer.from(second.bytes).equals(Buffer.concat([kept.pdf, Buffer.from("%kept")]))).toBe(true);
    expect(second.headers.get("Content-Length")).toBe(String(kept.pdf.length + 5));
    expect((await keptPdf(snapshot.id)).createdAt).toEqual(kept.createdAt);
    // The API serves the same copy.
    const api = await callApi("GET", `/template/sales/submissions/${snapshot.id}/pdf`, { token: await apiToken(CEDAR, "partner-pass-3") });
    expect(Buffer.from(api.body).equals(Buffer.from(second.bytes))).toBe(true);
  });

  it("is drawn and stored by the job queued with the submission, before anyone asks", async () => {
    const snapshot = await submitSales(CEDAR_ROWS, "Drawn ahead.");
    const queued = (await db.execute(sql`select data from pgboss.job where name = 'submission-pdf'`)) as unknown as
      { rows?: { data: unknown }[] } | { data: unknown }[];
    expect(Array.isArray(queued) ? queued : queued.rows).toEqual([{ data: { snapshotId: snapshot.id } }]);
    stopWorker = await startWorker();
    const kept = await until(
      () => keptPdf(snapshot.id),
      (row) => row !== undefined,
    );
    expect(kept).toBeDefined();
    expect(pdfText(kept!.pdf)).toContain(snapshot.sha256);
    const answer = await download(CEDAR, snapshot.id);
    expect(Buffer.from(answer.bytes).equals(kept!.pdf)).toBe(true);
  });

  it("the job of a submission deleted since (its report deleted) keeps nothing and fails nothing", async () => {
    const snapshot = await submitSales(CEDAR_ROWS, "Deleted before its PDF.");
    await db.delete(reports).where(eq(reports.id, snapshot.reportId));
    stopWorker = await startWorker();
    const state = async () => {
      const jobs = (await db.execute(sql`select state from pgboss.job where name = 'submission-pdf'`)) as unknown as
        { rows?: { state: string }[] } | { state: string }[];
      return (Array.isArray(jobs) ? jobs : (jobs.rows ?? []))[0]?.state;
    };
    expect(await until(state, (value) => value === "completed")).toBe("completed");
    expect(await db.select().from(submissionPdfs)).toEqual([]);
  });

  it("a long table is printed in several documents joined in order, every row, its heads on each page, numbered pages", async () => {
    const rows = Array.from({ length: 1700 }, (_, index) =>
      apiGridRow({ year, month: "March", purchaser: `Purchaser ${String(index + 1).padStart(4, "0")}`, quantity: "1", totalValue: "2.5" }),
    );
    const snapshot = await submitSales({ API: rows, FDF: CEDAR_ROWS.FDF }, "A long one.");
    const answer = await download(CEDAR, snapshot.id);
    expect(answer.status).toBe(200);
    const text = pdfText(answer.bytes);
    const purchasers = [...text.matchAll(/Purchaser (\d{4})/g)].map((match) => Number(match[1]));
    expect(purchasers).toEqual(Array.from({ length: 1700 }, (_, index) => index + 1));
    const pages = text.split("\f").filter((page) => page.trim());
    const numbers = pages.map((page) => /(\d+) \/ (\d+)\s*$/.exec(page.trim())?.slice(1).map(Number));
    expect(numbers).toEqual(pages.map((_, index) => [index + 1, pages.length]));
    // Every page of the API table starts with its heads; its totals come once, after the last row.
    for (const page of pages.filter((page) => /Purchaser \d{4}/.test(page))) expect(page).toMatch(/Sr\.No\s+Year\s+Month/);
    expect(text).toMatch(/Total\s+1700\s+4250\s*$/m);
    expect(text).toContain("FDF sales");
  }, 120_000);
});

describe("who may download a submission's PDF", () => {
  it("the page: the partner its own, administrators and staff any; another partner and a visitor signed out are refused", async () => {
    const snapshot = await submitSales(CEDAR_ROWS, "For the access checks.");
    expect((await download(CEDAR, snapshot.id)).status).toBe(200);
    expect((await download("admin@example.org", snapshot.id)).status).toBe(200);
    expect((await download("staff@example.org", snapshot.id)).status).toBe(200);
    // Acme asking for Cedar's, kept by now: told the page does not exist, given nothing.
    expect(await keptPdf(snapshot.id)).toBeDefined();
    const other = await download(ACME, snapshot.id);
    expect(other.status).toBe(302);
    expect(other.headers.get("Location")).toBe("/error-404");
    expect(other.bytes.length).toBe(0);
    const anonymous = await download(null, snapshot.id);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toMatch(/^\/login/);
    // A decision's snapshot is no submission.
    expect((await download("admin@example.org", 2_000_000_000)).status).toBe(302);
  });

  it("the API: the same rules, the answers documented", async () => {
    const snapshot = await submitSales(CEDAR_ROWS, "For the API checks.");
    const path = `/template/sales/submissions/${snapshot.id}/pdf`;
    const documented = "/template/sales/submissions/{snapshotId}/pdf";
    const call = async (token?: string) => {
      const answer = await callApi("GET", path, { token });
      expectDocumented("GET", documented, answer);
      return answer;
    };
    const own = await call(await apiToken(CEDAR, "partner-pass-3"));
    expect(own.status).toBe(200);
    expect(own.headers.get("Content-Type")).toBe("application/pdf");
    expect(pdfText(own.body)).toContain(snapshot.sha256);
    expect((await call(await apiToken("admin@example.org", "admin-pass-1"))).status).toBe(200);
    expect((await call(await apiToken("staff@example.org", "staff-pass-1"))).status).toBe(200);
    const other = await call(await apiToken(ACME, "partner-pass-1"));
    expect(other.status).toBe(404);
    expect((await call()).status).toBe(401);
    // Under another report's path it is not found either.
    expect((await callApi("GET", `/template/pdt/submissions/${snapshot.id}/pdf`, { token: await apiToken("admin@example.org", "admin-pass-1") })).status).toBe(
      404,
    );
  });
});

// ---------------------------------------------------------------- the receipt mail

/** An SMTP server on a free port that keeps each message's source. */
async function mailbox() {
  const received: { to: string[]; source: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    size: 50 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), source: Buffer.concat(chunks).toString("latin1") });
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.server.address() as net.AddressInfo).port)));
  return { received, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((done) => server.close(() => done())) };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

let stopWorker: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stopWorker?.();
  stopWorker = undefined;
  delete process.env.SMTP_URL;
});

describe("the receipt mail", () => {
  it("is queued naming the snapshot, and carries its PDF when the worker sends it", async () => {
    const snapshot = await submitSales(CEDAR_ROWS, "With the receipt.");
    const receipts = () => db.select().from(outbox).where(eq(outbox.kind, "report-receipt")).orderBy(asc(outbox.id));
    const [queued] = await receipts();
    expect(queued).toMatchObject({ toAddress: CEDAR, status: "pending", attachmentSnapshotId: snapshot.id });
    expect(queued.textBody).toContain("The attached PDF shows the rows you submitted.");

    const smtp = await mailbox();
    process.env.SMTP_URL = smtp.url;
    try {
      stopWorker = await startWorker();
      const [sent] = await until(receipts, ([mail]) => mail.status === "sent");
      expect(sent.status).toBe("sent");
      const message = smtp.received.find((mail) => mail.to.includes(CEDAR))!;
      expect(message.source).toMatch(/Content-Type: application\/pdf;\s+name=sales-report_Cedar-Life-Sciences_\d{4}-Q\d_submission\.pdf/);
      expect(message.source).toMatch(/Content-Disposition: attachment;\s+filename=sales-report_Cedar-Life-Sciences_\d{4}-Q\d_submission\.pdf/);
      // The attachment is the PDF of the snapshot: its text holds the snapshot's hash.
      const base64 = /Content-Type: application\/pdf[\s\S]*?\r\n\r\n([A-Za-z0-9+/=\r\n]+)/.exec(message.source)![1];
      const attached = Buffer.from(base64.replace(/\r\n/g, ""), "base64");
      expect(pdfText(attached)).toContain(snapshot.sha256);
    } finally {
      await smtp.close();
    }
  });

  it("a drawing that fails is retried like a refused delivery: the mail stays pending with the error", async () => {
    const snapshot = await submitSales(CEDAR_ROWS, "With the receipt.");
    const { deliverMail } = await import("~/models/mail.server");
    const [queued] = await db.select().from(outbox).where(eq(outbox.attachmentSnapshotId, snapshot.id));
    const smtp = await mailbox();
    process.env.SMTP_URL = smtp.url;
    try {
      await expect(
        deliverMail(queued.id, {
          finalAttempt: false,
          attachmentOf: () => Promise.reject(new Error("Chromium could not be launched")),
        }),
      ).rejects.toThrow("Chromium could not be launched");
      const [after] = await db.select().from(outbox).where(eq(outbox.id, queued.id));
      expect(after).toMatchObject({ status: "pending", attempts: 1, error: "Chromium could not be launched" });
      expect(smtp.received).toEqual([]);
    } finally {
      await smtp.close();
    }
  });
});

/**
 * A burst of refused uploads and refused large saves against the built portal, on a Sales Report
 * of 20,000 rows: six workbooks of about 10 MB with a wrong year on every row (three posted as the
 * page posts them with JavaScript, three as the form without it) and two grid saves of 10,000 wrong
 * rows, all at once, while /healthz is asked every 50 ms and the server's memory is read every
 * 25 ms. /healthz answers within a second throughout, the server stays under 500 MB, and every
 * post is answered by its errors or by 503 with Retry-After: none is lost, none fails.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import { PassThrough } from "node:stream";
import ExcelJS from "exceljs";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "./support/portal-http";
import { apiGridRow, fdfGridRow, sheetHeaders } from "../support/sales-grid-rows";
import { freePort, freshDatabase, startPortal, type PortalProcess } from "./support/server";

const PARTNER = { email: "partner1@example.org", password: "partner-pass-1" };
const REPORT_ROWS_PER_KIND = 10_000;
const WORKBOOK_ROWS = 10_000;
/** Characters of each row's purchaser (random, so that the file does not compress): about 10 MB in all. */
const PURCHASER_CHARS = 1_120;
const UPLOADS = 6;
const LARGE_SAVES = 2;
const HEALTH_BOUND_MS = 1000;
const RSS_BOUND_MB = 500;
const BUSY_MESSAGE = "The portal is busy with other large uploads and saves.";

let portal: PortalProcess;
let database: postgres.Sql;
let cookie: string;
let report: { quarterId: number; version: number; year: number };

const year = new Date().getUTCFullYear();
const apiRow = (index: number, overrides: Record<string, string> = {}) =>
  apiGridRow({
    year: String(year),
    month: "March",
    purchaser: `Buyer ${index}`,
    quantity: String(10 + (index % 90)),
    totalValue: String(1000 + index),
    ...overrides,
  });
const fdfRow = (index: number) => fdfGridRow({ year: String(year), month: "February", purchaser: `FDF buyer ${index}`, quantity: String(1000 + index) });

async function openReport() {
  const [row] = await database<{ quarterId: number; version: number }[]>`
    select r.quarter_id as "quarterId", r.version
    from reports r join partners p on p.id = r.partner_id join quarters q on q.id = r.quarter_id
    where p.email = ${PARTNER.email} and r.type = 'sales'
    order by q.start_date desc limit 1`;
  return { ...row, year };
}

/** The grid's JSON save of the page (`.data`: with JavaScript). */
function gridSave(rows: { API: object[]; FDF: object[] }, path = "/partner/sales-report") {
  return fetch(`${portal.baseUrl}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, origin: portal.baseUrl, "content-type": "application/json" },
    body: JSON.stringify({
      intent: "save",
      quarterId: String(report.quarterId),
      version: String(report.version),
      tab: "API",
      payload: { ...rows, deletedIds: [] },
    }),
  });
}

/** A workbook of the download's layout, every row with a wrong year, written as a stream. */
async function refusedWorkbook(): Promise<Buffer> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: false, useStyles: false });
  const api = workbook.addWorksheet("API");
  api.addRow(sheetHeaders("API")).commit();
  for (let index = 0; index < WORKBOOK_ROWS; index++) {
    const purchaser = crypto.randomBytes(PURCHASER_CHARS).toString("base64").slice(0, PURCHASER_CHARS);
    api.addRow(["not a year", "March", "India", purchaser, "Abacavir API", 12.5, 1000 + index]).commit();
  }
  api.commit();
  const fdf = workbook.addWorksheet("FDF");
  fdf.addRow(sheetHeaders("FDF")).commit();
  fdf.commit();
  await workbook.commit();
  return Buffer.concat(chunks);
}

/** The upload form as the page posts it: replacing the saved rows, confirmed. `.data` when the page has JavaScript. */
function upload(file: Buffer, withJavaScript: boolean) {
  const form = new FormData();
  form.set("intent", "upload");
  form.set("quarter", "");
  form.set("mode", "replace");
  form.set("confirmReplace", "yes");
  form.set("version", String(report.version));
  form.set("file", new Blob([new Uint8Array(file)]), "sales-report.xlsx");
  return fetch(`${portal.baseUrl}/partner/sales-report${withJavaScript ? ".data" : ""}`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, origin: portal.baseUrl },
    body: form,
  });
}

function memoryMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]) / 1024;
}

beforeAll(async () => {
  const databaseUrl = await freshDatabase("portal_upload_burst");
  portal = startPortal({ DATABASE_URL: databaseUrl, REMINDER_SCHEDULER: "off" }, await freePort());
  await portal.ready();
  cookie = await signIn(portal.baseUrl, PARTNER.email, PARTNER.password);
  database = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  report = await openReport();
  const rows = {
    API: Array.from({ length: REPORT_ROWS_PER_KIND }, (_, index) => apiRow(index)),
    FDF: Array.from({ length: REPORT_ROWS_PER_KIND }, (_, index) => fdfRow(index)),
  };
  const saved = await gridSave(rows);
  expect(saved.status, await saved.text()).toBe(302);
  report = await openReport();
});

afterAll(async () => {
  await portal?.stop();
  await database?.end();
});

interface Answer {
  kind: "upload (JavaScript)" | "upload (no JavaScript)" | "large save";
  status: number;
  retryAfter: string | null;
  body: string;
  ms: number;
}

describe("a burst of refused uploads and large saves", () => {
  it("keeps /healthz under a second and the server under 500 MB; every post gets its errors or 503 with Retry-After", async () => {
    const file = await refusedWorkbook();
    expect(file.length).toBeGreaterThan(8 * 1024 * 1024);
    expect(file.length).toBeLessThan(10 * 1024 * 1024);
    const wrongRows = { API: Array.from({ length: REPORT_ROWS_PER_KIND }, (_, index) => apiRow(index, { year: "not a year" })), FDF: [] };
    const pid = portal.child.pid!;
    const rssBefore = memoryMb(pid, "VmRSS");

    let sampling = true;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, memoryMb(pid, "VmRSS"))), 25);
    const health: { status: number; ms: number }[] = [];
    const polling = (async () => {
      while (sampling) {
        const started = performance.now();
        const answer = await fetch(`${portal.baseUrl}/healthz`, { signal: AbortSignal.timeout(10_000) });
        await answer.arrayBuffer();
        health.push({ status: answer.status, ms: performance.now() - started });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    const started = performance.now();
    const timed = async (kind: Answer["kind"], post: Promise<Response>): Promise<Answer> => {
      const answer = await post;
      const body = await answer.text();
      return { kind, status: answer.status, retryAfter: answer.headers.get("Retry-After"), body, ms: Math.round(performance.now() - started) };
    };
    const answers = await Promise.all([
      ...Array.from({ length: UPLOADS }, (_, index) =>
        index % 2 ? timed("upload (no JavaScript)", upload(file, false)) : timed("upload (JavaScript)", upload(file, true)),
      ),
      ...Array.from({ length: LARGE_SAVES }, () => timed("large save", gridSave(wrongRows, "/partner/sales-report.data"))),
    ]);
    const burstMs = Math.round(performance.now() - started);
    sampling = false;
    await polling;
    clearInterval(sampler);

    const healthMax = Math.round(Math.max(...health.map((answer) => answer.ms)));
    console.log(
      [
        `report rows ${2 * REPORT_ROWS_PER_KIND}, workbook ${(file.length / 1e6).toFixed(1)} MB, burst ${burstMs} ms`,
        ...answers.map(
          (answer) =>
            `  ${answer.kind}: ${answer.status}${answer.retryAfter ? ` Retry-After ${answer.retryAfter}` : ""}, ${answer.ms} ms, ${answer.body.length} characters`,
        ),
        `/healthz: ${health.length} answers, slowest ${healthMax} ms`,
        `RSS before ${rssBefore.toFixed(0)} MB, peak ${rssPeak.toFixed(0)} MB, VmHWM ${memoryMb(pid, "VmHWM").toFixed(0)} MB`,
      ].join("\n"),
    );

    for (const answer of answers) {
      if (answer.status === 503) {
        expect(answer.retryAfter, answer.kind).toMatch(/^\d+$/);
        expect(answer.body, answer.kind).toContain(BUSY_MESSAGE);
        continue;
      }
      expect(answer.status, `${answer.kind}: ${answer.body.slice(0, 300)}`).toBe(400);
      // Its errors: the sheet's first wrong rows (an upload), or the wrong rows (a save).
      expect(answer.body, answer.kind).toContain(answer.kind === "large save" ? "problems" : "upload-problems");
      if (answer.kind === "upload (JavaScript)") expect(answer.body).toContain("Sheet {{sheet}}, row {{row}}: {{columns}}");
      // Without JavaScript, the page of the refusal alone, not the report's 20,000 rows.
      if (answer.kind === "upload (no JavaScript)") expect(answer.body.length).toBeLessThan(100_000);
    }
    expect(answers.some((answer) => answer.status === 400 && answer.kind !== "large save")).toBe(true);
    expect(health.every((answer) => answer.status === 200)).toBe(true);
    expect(healthMax).toBeLessThan(HEALTH_BOUND_MS);
    expect(rssPeak).toBeLessThan(RSS_BOUND_MB);
  });
});

/**
 * A refused post to a report page is answered by its errors alone: the page keeps the report it
 * loaded (no route of a report reloads after a refusal), and the answer carries no rows. Uploads
 * and posts of many rows take turns: beyond HEAVY_POSTS_AT_ONCE at once, a post is refused with
 * 503 and Retry-After instead of adding its memory to the others'. Without JavaScript, the page
 * drawn after such a post is its refusal alone, or the report loaded in a turn of its own.
 */
import ExcelJS from "exceljs";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ShouldRevalidateFunctionArgs } from "@remix-run/react";
import { db } from "~/db/client.server";
import { partners, reports } from "~/db/schema";
import { getOpenQuarter } from "~/models/quarter.server";
import { HEAVY_POST_RETRY_SECONDS, HEAVY_POSTS_AT_ONCE, SERVER_BUSY } from "~/reports/frame/heavy-posts.server";
import { REPLACE_NOT_CONFIRMED } from "~/reports/sales/page.server";
import type { ReportActionData } from "~/reports/frame/contract";
import * as adminFiling from "~/routes/_shell.admin.filing-plans.$id";
import * as adminPdt from "~/routes/_shell.admin.development-timeline.$id";
import * as adminSales from "~/routes/_shell.admin.sales-report.$id";
import * as partnerFiling from "~/routes/_shell.partner.filing-plans";
import * as partnerPdt from "~/routes/_shell.partner.development-timeline";
import * as partnerSales from "~/routes/_shell.partner.sales-report";
import { REFUSAL_PAGE } from "~/reports/frame/contract";
import { buildRequest, runRoute, sessionCookieFor, testContext, type RouteResult } from "../support/remix";
import { sheetHeaders } from "../support/sales-grid-rows";

const ACME = "partner1@example.org";
const year = String(new Date().getUTCFullYear());
const apiRow = (purchaser: string, overrides: Record<string, string> = {}) => ({
  year,
  month: "March",
  country: "India",
  purchaser,
  productName: "Abacavir API",
  quantity: "12.5",
  totalValue: "98000",
  ...overrides,
});

let cookie: string;
let quarterId: number;
beforeEach(async () => {
  cookie = await sessionCookieFor(ACME);
  quarterId = (await getOpenQuarter()).id;
});

async function version(): Promise<string> {
  const [partner] = await db.select().from(partners).where(eq(partners.email, ACME));
  const [report] = await db
    .select({ version: reports.version })
    .from(reports)
    .where(and(eq(reports.partnerId, partner.id), eq(reports.quarterId, quarterId), eq(reports.type, "sales")));
  return String(report?.version ?? 0);
}

/** The grid's save, with the body's length declared as a browser declares it. */
async function gridSave(rows: object[]) {
  const json = { intent: "save", quarterId: String(quarterId), version: await version(), tab: "API", payload: { API: rows, FDF: [], deletedIds: [] } };
  const length = String(Buffer.byteLength(JSON.stringify(json)));
  return runRoute(partnerSales.action, buildRequest("/partner/sales-report", { cookie, json, headers: { "Content-Length": length } }));
}

async function workbookWith(rows: unknown[][]): Promise<Blob> {
  const workbook = new ExcelJS.Workbook();
  const api = workbook.addWorksheet("API");
  api.addRow(sheetHeaders("API"));
  for (const row of rows) api.addRow(row);
  workbook.addWorksheet("FDF").addRow(sheetHeaders("FDF"));
  return new Blob([await workbook.xlsx.writeBuffer()]);
}

async function uploadForm(file: Blob, { mode = "append" } = {}): Promise<FormData> {
  const form = new FormData();
  form.set("intent", "upload");
  form.set("mode", mode);
  form.set("version", await version());
  form.set("file", file, "sales-report.xlsx");
  return form;
}

const upload = async (file: Blob, context = testContext(), options: { mode?: string } = {}) =>
  runRoute(
    partnerSales.action,
    new Request("http://localhost/partner/sales-report", { method: "POST", body: await uploadForm(file, options), headers: { Cookie: cookie } }),
    { context },
  );

/** The saved rows a page's data carries. */
const savedRowsOf = (page: RouteResult<any>) => page.data.view.rows.API.length + page.data.view.rows.FDF.length;

/** The page Remix draws after a post without JavaScript: the loader, in the post's own request context. */
const pageAfter = (context: ReturnType<typeof testContext>) => runRoute(partnerSales.loader, buildRequest("/partner/sales-report", { cookie }), { context });

/**
 * An upload whose body stops halfway until `finish()`: it holds its turn while its body is read,
 * as a large file on a slow line does.
 */
async function stalledUpload(file: Blob) {
  const encoded = new Response(await uploadForm(file));
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  let finish!: () => void;
  const rest = new Promise<void>((resolve) => (finish = resolve));
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(bytes.subarray(0, bytes.length / 2));
      await rest;
      controller.enqueue(bytes.subarray(bytes.length / 2));
      controller.close();
    },
  });
  const headers = { Cookie: cookie, "Content-Type": encoded.headers.get("Content-Type")!, "Content-Length": String(bytes.length) };
  const request = new Request("http://localhost/partner/sales-report", { method: "POST", body, headers, duplex: "half" } as RequestInit);
  return { answer: runRoute(partnerSales.action, request), finish };
}

const REPORT_ROUTES = { partnerSales, adminSales, partnerPdt, adminPdt, partnerFiling, adminFiling };

function revalidates(route: (typeof REPORT_ROUTES)[keyof typeof REPORT_ROUTES], actionResult: ReportActionData | undefined) {
  const url = new URL("http://localhost/partner/sales-report");
  const args = { currentUrl: url, nextUrl: url, currentParams: {}, nextParams: {}, formMethod: "POST", actionResult, defaultShouldRevalidate: true };
  return route.shouldRevalidate(args as unknown as ShouldRevalidateFunctionArgs);
}

describe("a refused post answers its errors alone", () => {
  it("no report route reloads its report after a refusal, a busy refusal included; after anything else they reload as usual", () => {
    const refusals: ReportActionData[] = [
      { kind: "problems", intent: "save", problems: { API: [{ rowNumber: 1, columns: ["Year"], keys: ["year"] }] } },
      { kind: "error", intent: "submit", message: "Please enter a comment.", field: "comment" },
      { kind: "error", intent: "save", message: SERVER_BUSY, values: { seconds: HEAVY_POST_RETRY_SECONDS } },
      { kind: "upload-problems", intent: "upload", problems: [{ message: SERVER_BUSY, values: { seconds: HEAVY_POST_RETRY_SECONDS } }] },
      { kind: "verification-errors", intent: "verify-product", verificationId: 1, errors: {} },
    ];
    for (const [name, route] of Object.entries(REPORT_ROUTES)) {
      for (const refusal of refusals) expect(revalidates(route, refusal), `${name} after ${refusal.kind}`).toBe(false);
      expect(revalidates(route, { kind: "messages-read", intent: "read-messages", unreadMessageCount: 0 }), name).toBe(true);
      expect(revalidates(route, undefined), name).toBe(true);
    }
  });

  it("a refused save of a 2,000-row report answers a few hundred bytes: its problems, no rows", async () => {
    const saved = await gridSave(Array.from({ length: 2_000 }, (_, index) => apiRow(`Purchaser ${index}`)));
    expect(saved.status).toBe(302);
    const refused = await gridSave([apiRow("Bad year", { year: "not a year" })]);
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({ kind: "problems", intent: "save", problems: { API: [{ rowNumber: 1, keys: ["year"] }], FDF: [] } });
    expect(JSON.stringify(refused.data).length).toBeLessThan(500);
  });

  it("a refused upload of 300 wrong rows lists the first 50 and counts the others", async () => {
    const refused = await upload(
      await workbookWith(Array.from({ length: 300 }, (_, index) => ["not a year", "March", "India", `Purchaser ${index}`, "Abacavir API", 1, 2])),
    );
    expect(refused.status).toBe(400);
    const data = refused.data as Extract<ReportActionData, { kind: "upload-problems" }>;
    expect(data.problems).toHaveLength(50);
    expect(data.more).toBe(250);
    expect(data.problems[0]).toMatchObject({ sheet: "API", row: 2, columns: ["Year"], values: { columns: "Year: “not a year”" } });
    // Each problem echoes what its cell holds (here 12 characters more than the column's name alone).
    expect(JSON.stringify(data).length).toBeLessThan(9_000);
  });
});

describe("uploads and posts of many rows take turns", () => {
  const stalled: Awaited<ReturnType<typeof stalledUpload>>[] = [];
  afterEach(async () => {
    for (const upload of stalled.splice(0)) {
      upload.finish();
      await upload.answer;
    }
  });

  it(`beyond ${HEAVY_POSTS_AT_ONCE} at once, an upload or a large save is refused with 503 and Retry-After; a small post is not held`, async () => {
    const file = await workbookWith([["not a year", "March", "India", "Purchaser", "Abacavir API", 1, 2]]);
    for (let i = 0; i < HEAVY_POSTS_AT_ONCE; i++) stalled.push(await stalledUpload(file));

    const busyUpload = await upload(file);
    expect(busyUpload.status).toBe(503);
    expect(busyUpload.headers.get("Retry-After")).toBe(String(HEAVY_POST_RETRY_SECONDS));
    expect(busyUpload.data).toEqual({
      kind: "upload-problems",
      intent: "upload",
      problems: [{ message: SERVER_BUSY, values: { seconds: HEAVY_POST_RETRY_SECONDS } }],
    });

    const busySave = await gridSave(Array.from({ length: 3_000 }, (_, index) => apiRow(`Purchaser ${index}`)));
    expect(busySave.status).toBe(503);
    expect(busySave.headers.get("Retry-After")).toBe(String(HEAVY_POST_RETRY_SECONDS));
    expect(busySave.data).toMatchObject({ kind: "error", message: SERVER_BUSY, values: { seconds: HEAVY_POST_RETRY_SECONDS } });

    // A one-row save does not wait for a turn.
    expect((await gridSave([apiRow("One row")])).status).toBe(302);

    // Once the held uploads are read, the next one has its turn.
    for (const held of stalled.splice(0)) {
      held.finish();
      expect((await held.answer).status).toBe(400);
    }
    const served = await upload(file);
    expect(served.status).toBe(400);
    expect(served.data).toMatchObject({ kind: "upload-problems", problems: [{ sheet: "API", row: 2, columns: ["Year"] }] });
  });

  it("an upload waiting for its turn is served when a turn comes free within the wait", async () => {
    const file = await workbookWith([["not a year", "March", "India", "Purchaser", "Abacavir API", 1, 2]]);
    for (let i = 0; i < HEAVY_POSTS_AT_ONCE; i++) stalled.push(await stalledUpload(file));
    const waiting = upload(file);
    await new Promise((resolve) => setTimeout(resolve, 200));
    stalled[0].finish();
    expect((await waiting).status).toBe(400);
  });

  it("without JavaScript, the page after an upload is its refusal alone when the upload had no turn or its rows were wrong; else the report, in a turn of its own", async () => {
    const file = await workbookWith([["not a year", "March", "India", "Purchaser", "Abacavir API", 1, 2]]);
    await gridSave([apiRow("Saved row")]);

    const wrongRows = testContext();
    expect((await upload(file, wrongRows)).status).toBe(400);
    expect((await pageAfter(wrongRows)).data).toEqual(REFUSAL_PAGE);

    // A replace to confirm is answered on the report, where the box to tick is.
    const unconfirmed = testContext();
    const refused = await upload(file, unconfirmed, { mode: "replace" });
    expect(refused.data).toMatchObject({ problems: [{ message: REPLACE_NOT_CONFIRMED }] });
    expect(savedRowsOf(await pageAfter(unconfirmed))).toBeGreaterThan(0);

    for (let i = 0; i < HEAVY_POSTS_AT_ONCE; i++) stalled.push(await stalledUpload(file));
    const busy = testContext();
    expect((await upload(file, busy)).status).toBe(503);
    expect((await pageAfter(busy)).data).toEqual(REFUSAL_PAGE);

    // The report after a refusal waits for a turn like the upload did, and is the refusal alone when none comes.
    stalled.pop()!.finish();
    const unconfirmedWhileBusy = testContext();
    expect((await upload(file, unconfirmedWhileBusy, { mode: "replace" })).status).toBe(400);
    stalled.push(await stalledUpload(file));
    expect((await pageAfter(unconfirmedWhileBusy)).data).toEqual(REFUSAL_PAGE);

    // A small post is no heavy post: the page after it is the report.
    const small = testContext();
    const form = { intent: "save", quarterId: String(quarterId), version: await version(), "api[0][year]": "x" };
    expect(
      (await runRoute(partnerSales.action, buildRequest("/partner/sales-report", { cookie, form, headers: { "Content-Length": "80" } }), { context: small }))
        .status,
    ).toBe(400);
    expect(savedRowsOf(await pageAfter(small))).toBeGreaterThan(0);
  });
});

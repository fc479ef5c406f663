/**
 * Comments on a report's rows and cells (issue "Review conversation and proof"): a partner and the
 * administrators open, answer, resolve and reopen threads on the Sales Report's saved rows through
 * the report's page; STAFF reads; a partner never reaches another partner's threads; a removed row
 * keeps its thread; the rejection mail and the partner's dashboard name the open ones. Row numbers worked out by hand: FDF rows
 * are numbered by id within the FDF table. The Development Timeline's rows are numbered as its screen lists them.
 */
import { and, asc, desc, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import {
  auditLog,
  countries,
  outbox,
  partners,
  products,
  productVerifications,
  reports,
  reportThreadMessages,
  reportThreads,
  salesRows,
  users,
} from "~/db/schema";
import { ensureQuarter, openQuarterRef } from "~/models/quarter.server";
import { partnerGuidance } from "~/models/report-overview.server";
import { placeText, THREAD_MESSAGES, type ReportThreadsView } from "~/reports/frame/threads";
import { action as partnerSalesAction, loader as partnerSalesLoader } from "~/routes/_shell.partner.sales-report";
import { action as adminSalesAction, loader as adminSalesLoader } from "~/routes/_shell.admin.sales-report.$id";
import { loader as partnerPdtLoader } from "~/routes/_shell.partner.development-timeline";
import { action as adminPdtAction } from "~/routes/_shell.admin.development-timeline.$id";
import { loadPdtReport } from "~/reports/pdt/model.server";
import { loadFilingPlan, saveFilingPlan } from "~/reports/filing/model.server";
import { getAuthUser } from "~/models/user.server";
import { action as partnerFilingAction, loader as partnerFilingLoader } from "~/routes/_shell.partner.filing-plans";
import { action as adminFilingAction } from "~/routes/_shell.admin.filing-plans.$id";
import { callApi, demoSignInBeforeEach, expectDocumented, expectRefused, expectStatus } from "../support/api";
import { buildRequest, runRoute, sessionCookieFor } from "../support/remix";

let acme: number;
let borealis: number;
let quarterId: number;
let acmeReport: number;
/** Acme's rows by name: API row 1, FDF rows 1 to 3 (Kenya, India, Brazil). */
let rows: { api1: number; fdf1: number; fdf2: number; fdf3: number };
let borealisRow: number;

const idOf = async (table: typeof products | typeof countries, name: string) => (await db.select().from(table).where(eq(table.name, name)))[0].id;

async function reportOf(partnerId: number) {
  const [found] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.partnerId, partnerId), eq(reports.quarterId, quarterId), eq(reports.type, "sales")));
  if (found) {
    await db.update(reports).set({ status: "Saved" }).where(eq(reports.id, found.id));
    await db.delete(salesRows).where(eq(salesRows.reportId, found.id));
    return found.id;
  }
  return (await db.insert(reports).values({ partnerId, quarterId, type: "sales", status: "Saved" }).returning())[0].id;
}

beforeEach(async () => {
  await db.delete(reportThreads);
  await db.delete(outbox);
  acme = (await db.select().from(partners).where(eq(partners.email, "partner1@example.org")))[0].id;
  borealis = (await db.select().from(partners).where(eq(partners.email, "partner2@example.org")))[0].id;
  quarterId = (await ensureQuarter(openQuarterRef())).id;
  acmeReport = await reportOf(acme);
  const borealisReport = await reportOf(borealis);
  const dtg = await idOf(products, "Dolutegravir 50 mg");
  const dtgApi = await idOf(products, "Dolutegravir API");
  const country = (name: string) => idOf(countries, name);
  const row = async (reportId: number, kind: "API" | "FDF", countryName: string) =>
    (
      await db
        .insert(salesRows)
        .values({
          reportId,
          kind,
          year: 2026,
          month: 1,
          countryId: await country(countryName),
          purchaser: "Central Medical Stores",
          productId: kind === "FDF" ? dtg : dtgApi,
          quantity: "10",
          totalValue: "100",
        })
        .returning()
    )[0].id;
  // Inserted one by one: the ids, and so the rows' numbers, in this order.
  rows = { fdf1: await row(acmeReport, "FDF", "Kenya"), api1: await row(acmeReport, "API", "India"), fdf2: 0, fdf3: 0 };
  rows.fdf2 = await row(acmeReport, "FDF", "India");
  rows.fdf3 = await row(acmeReport, "FDF", "Brazil");
  borealisRow = await row(borealisReport, "FDF", "Kenya");
});

const partnerPost = async (email: string, form: Record<string, string>) =>
  runRoute(
    partnerSalesAction,
    buildRequest("/partner/sales-report", { cookie: await sessionCookieFor(email), form: { quarterId: String(quarterId), ...form } }),
  );
const adminPost = async (email: string, form: Record<string, string>) =>
  runRoute(
    adminSalesAction,
    buildRequest(`/admin/sales-report/${acme}`, { cookie: await sessionCookieFor(email), form: { quarterId: String(quarterId), ...form } }),
    { params: { id: String(acme) } },
  );
const openOn = (email: string, row: number, column: string | null, body: string) =>
  partnerPost(email, { intent: "thread-open", threadTable: "FDF", threadRow: String(row), ...(column ? { threadColumn: column } : {}), threadBody: body });

async function threadsSeenBy(email: string, search = ""): Promise<ReportThreadsView> {
  const cookie = await sessionCookieFor(email);
  const page = email.startsWith("partner")
    ? await runRoute(partnerSalesLoader, buildRequest(`/partner/sales-report${search}`, { cookie }))
    : await runRoute(adminSalesLoader, buildRequest(`/admin/sales-report/${acme}${search}`, { cookie }), { params: { id: String(acme) } });
  expect(page.status).toBe(200);
  return (page.data as { threads: ReportThreadsView }).threads;
}

const threadIds = async () => (await db.select({ id: reportThreads.id }).from(reportThreads).orderBy(asc(reportThreads.id))).map((thread) => thread.id);

describe("threads on the Sales Report's rows and cells", () => {
  it("the partner opens a thread on a cell; the administrator sees it where it is and answers; STAFF reads and cannot write", async () => {
    const opened = await openOn("partner1@example.org", rows.fdf2, "royaltyDue", "  Royalty is 0 here: the sale was donated.  ");
    const [id] = await threadIds();
    expect(opened.status).toBe(302);
    expect(opened.location).toBe(`/partner/sales-report#thread-${id}`);

    const seen = await threadsSeenBy("admin@example.org");
    expect(seen.open).toBe(1);
    expect(seen.canWrite).toBe(true);
    expect(seen.threads).toMatchObject([
      {
        id,
        table: "FDF",
        row: 2,
        column: "royaltyDue",
        rowLabel: "Dolutegravir 50 mg · India · Central Medical Stores",
        open: true,
        messages: [{ author: "Acme Generics Ltd", fromPartner: true, body: "Royalty is 0 here: the sale was donated." }],
      },
    ]);

    const replied = await adminPost("admin@example.org", { intent: "thread-reply", threadId: String(id), threadBody: "Please attach the donation letter." });
    expect(replied.status).toBe(302);
    expect((await threadsSeenBy("partner1@example.org")).threads[0].messages.map((message) => [message.fromPartner, message.body])).toEqual([
      [true, "Royalty is 0 here: the sale was donated."],
      [false, "Please attach the donation letter."],
    ]);

    const staffView = await threadsSeenBy("staff@example.org");
    expect(staffView.canWrite).toBe(false);
    expect(staffView.threads[0].messages).toHaveLength(2);
    const staffPost = await adminPost("staff@example.org", { intent: "thread-reply", threadId: String(id), threadBody: "Noted." });
    expect(staffPost.status).toBe(403);
    expect(await db.select().from(reportThreadMessages)).toHaveLength(2);

    const audited = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(acmeReport)))
      .orderBy(desc(auditLog.id))
      .limit(2);
    expect(audited.map((entry) => entry.action)).toEqual(["report.thread.reply", "report.thread.open"]);
    expect(audited[1].after).toMatchObject({ threadId: id, table: "FDF", rowId: rows.fdf2, column: "royaltyDue" });
  });

  it("an empty comment is refused beside its form and nothing is saved", async () => {
    const refused = await openOn("partner1@example.org", rows.fdf1, null, "   ");
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({ kind: "thread-problem", intent: "thread-open", message: THREAD_MESSAGES.empty, threadId: null });
    expect(await threadIds()).toEqual([]);
  });

  it("a partner never reaches another partner's rows or threads", async () => {
    await openOn("partner1@example.org", rows.fdf1, null, "Kenya: check the purchaser.");
    const [id] = await threadIds();

    // Borealis names Acme's row: it is not in Borealis's report.
    const onOthersRow = await openOn("partner2@example.org", rows.fdf1, null, "Mine now?");
    expect(onOthersRow.status).toBe(409);
    expect(onOthersRow.data).toMatchObject({ message: THREAD_MESSAGES.rowGone });
    // Borealis answers and resolves Acme's thread by its id: not in its report.
    const reply = await partnerPost("partner2@example.org", { intent: "thread-reply", threadId: String(id), threadBody: "Hello" });
    const resolve = await partnerPost("partner2@example.org", { intent: "thread-resolve", threadId: String(id) });
    expect([reply.status, resolve.status]).toEqual([404, 404]);
    expect(await threadIds()).toEqual([id]);
    expect(await db.select().from(reportThreadMessages)).toHaveLength(1);
    expect((await db.select().from(reportThreads))[0].resolvedAt).toBeNull();

    // Borealis's page lists none of Acme's threads, and a link to Acme's row opens no form.
    const borealisView = await threadsSeenBy("partner2@example.org", `?comment=FDF:${rows.fdf1}`);
    expect(borealisView.threads).toEqual([]);
    expect(borealisView.draft).toBeNull();
    // Its own row's link does.
    expect((await threadsSeenBy("partner2@example.org", `?comment=FDF:${borealisRow}:quantity`)).draft).toMatchObject({
      table: "FDF",
      rowId: borealisRow,
      row: 1,
      column: "quantity",
      rowLabel: "Dolutegravir 50 mg · Kenya · Central Medical Stores",
    });
  });

  it("a removed row keeps its thread, named as removed; the rows after it are numbered again", async () => {
    await openOn("partner1@example.org", rows.fdf2, null, "India row.");
    await openOn("partner1@example.org", rows.fdf3, "quantity", "Brazil quantity.");
    await db.delete(salesRows).where(eq(salesRows.id, rows.fdf2));
    const seen = await threadsSeenBy("admin@example.org");
    expect(seen.threads.map((thread) => [thread.row, thread.column, thread.rowLabel])).toEqual([
      [null, null, "Dolutegravir 50 mg · India · Central Medical Stores"],
      [2, "quantity", "Dolutegravir 50 mg · Brazil · Central Medical Stores"],
    ]);
    // A new thread on the removed row is refused.
    const refused = await openOn("partner1@example.org", rows.fdf2, null, "Again?");
    expect(refused.status).toBe(409);
  });

  it("resolved and reopened by either side; the count of open threads follows", async () => {
    await openOn("partner1@example.org", rows.fdf1, null, "Kenya.");
    const [id] = await threadIds();
    const resolved = await adminPost("admin@example.org", { intent: "thread-resolve", threadId: String(id) });
    expect(resolved.status).toBe(302);
    let seen = await threadsSeenBy("partner1@example.org");
    expect(seen.open).toBe(0);
    expect(seen.threads[0]).toMatchObject({ open: false, resolvedBy: "Portal Administrator" });
    await partnerPost("partner1@example.org", { intent: "thread-reopen", threadId: String(id) });
    seen = await threadsSeenBy("partner1@example.org");
    expect(seen.open).toBe(1);
    expect(seen.threads[0]).toMatchObject({ open: true, resolvedBy: null, resolvedAt: null });
  });

  it("the rejection mail lists the open threads, where they are and what was said; resolved ones are left out", async () => {
    await openOn("partner1@example.org", rows.fdf3, "quantity", "Brazil: 10 packs only.");
    await adminPost("admin@example.org", { intent: "thread-open", threadTable: "FDF", threadRow: String(rows.fdf1), threadBody: "Kenya: wrong purchaser." });
    const [brazil, kenya] = await threadIds();
    await adminPost("admin@example.org", { intent: "thread-reply", threadId: String(brazil), threadBody: "Then correct the quantity." });
    await adminPost("admin@example.org", { intent: "thread-resolve", threadId: String(kenya) });
    await db.update(reports).set({ status: "Submitted", submittedAt: new Date() }).where(eq(reports.id, acmeReport));
    // The demo's product waiting for verification would hold the rejection up.
    await db.delete(productVerifications).where(eq(productVerifications.partnerId, acme));

    const rejected = await adminPost("admin@example.org", { intent: "reject", comment: "See the comments on the rows." });
    expect(rejected.status, JSON.stringify(rejected.data)).toBe(302);
    const [mail] = await db.select().from(outbox).where(eq(outbox.kind, "report-reject"));
    expect(mail.textBody).toContain(
      [
        "Open comments on rows (1):",
        "- FDF row 3, Quantity (Dolutegravir 50 mg · Brazil · Central Medical Stores): Acme Generics Ltd: Brazil: 10 packs only. / Portal Administrator: Then correct the quantity.",
      ].join("\n"),
    );
    expect(mail.textBody).not.toContain("Kenya: wrong purchaser.");
    // The partner's dashboard says so on the report sent back.
    const sales = (await partnerGuidance(acme)).tiles.find((tile) => tile.type === "sales");
    expect(sales?.sentBack).toEqual({ by: "rejected", comment: "See the comments on the rows.", openComments: 1 });
  });
});

describe("a new comment is mailed to the other side", () => {
  const commentMails = () => db.select().from(outbox).where(eq(outbox.kind, "report-comment")).orderBy(asc(outbox.id));

  // Acme reads French in the first case; the other cases read the mails in English.
  afterEach(() => db.update(users).set({ language: "en" }).where(eq(users.email, "partner1@example.org")));

  it("an administrator's comment goes to the partner in its language, with the place, the words and a link to the thread", async () => {
    await db.update(users).set({ language: "fr" }).where(eq(users.email, "partner1@example.org"));
    await adminPost("admin@example.org", {
      intent: "thread-open",
      threadTable: "FDF",
      threadRow: String(rows.fdf2),
      threadColumn: "quantity",
      threadBody: "India: 10 packs only?",
    });
    const [id] = await threadIds();
    const [mail] = await commentMails();
    expect(mail.toAddress).toBe("partner1@example.org");
    expect(mail.subject).toMatch(/^Nouveau commentaire sur votre .+ de Q[1-4] \d{4}$/);
    expect(mail.textBody.split("\n")[0]).toBe("À l'attention de Acme Generics Ltd,");
    expect(mail.textBody).toContain("Portal Administrator a écrit sur FDF");
    expect(mail.textBody).toContain("(Dolutegravir 50 mg · India · Central Medical Stores) :\nIndia: 10 packs only?");
    expect(mail.textBody).toMatch(new RegExp(`/partner/sales-report#thread-${id}$`));
  });

  it("the partner's answer goes to every active administrator; resolving mails nothing", async () => {
    await adminPost("admin@example.org", { intent: "thread-open", threadTable: "FDF", threadRow: String(rows.fdf1), threadBody: "Kenya: which purchaser?" });
    const [id] = await threadIds();
    await partnerPost("partner1@example.org", { intent: "thread-reply", threadId: String(id), threadBody: "Kenya Medical Supplies Authority." });
    await partnerPost("partner1@example.org", { intent: "thread-resolve", threadId: String(id) });
    const toAdmins = (await commentMails()).filter((mail) => mail.toAddress !== "partner1@example.org");
    expect(toAdmins.map((mail) => mail.toAddress)).toContain("admin@example.org");
    expect(toAdmins.map((mail) => mail.toAddress)).not.toContain("staff@example.org");
    const [notice] = toAdmins;
    expect(notice.subject).toMatch(/^Acme Generics Ltd commented on its Sales Report for Q[1-4] \d{4}$/);
    expect(notice.textBody).toContain(
      "Acme Generics Ltd wrote on FDF row 1 (Dolutegravir 50 mg · Kenya · Central Medical Stores):\nKenya Medical Supplies Authority.",
    );
    expect(notice.textBody).toMatch(new RegExp(`/admin/sales-report/${acme}#thread-${id}$`));
    expect(await commentMails()).toHaveLength(1 + toAdmins.length);
  });

  it("an administrator's comment on a report awaiting the decision is not mailed: the decision's mail lists it", async () => {
    await db.update(reports).set({ status: "Submitted", submittedAt: new Date() }).where(eq(reports.id, acmeReport));
    await adminPost("admin@example.org", { intent: "thread-open", threadTable: "FDF", threadRow: String(rows.fdf3), threadBody: "Brazil: check the price." });
    expect(await threadIds()).toHaveLength(1);
    expect(await commentMails()).toEqual([]);
  });
});

describe("threads on the Development Timeline's rows and cells", () => {
  const demo = demoSignInBeforeEach(["partner1", "partner2"]);
  /** Acme's saved timeline of the open quarter (the demo's), its third row as the screen lists it. */
  async function acmeTimeline() {
    const view = await loadPdtReport({ viewer: { id: 0, role: "ADMIN", partnerId: null }, partnerId: acme });
    await db.update(reports).set({ status: "Submitted", submittedAt: new Date() }).where(eq(reports.id, view.report.id!));
    return { reportId: view.report.id!, third: view.rows[2] };
  }
  const adminPdtPost = async (email: string, form: Record<string, string>) =>
    runRoute(
      adminPdtAction,
      buildRequest(`/admin/development-timeline/${acme}`, { cookie: await sessionCookieFor(email), form: { quarterId: String(quarterId), ...form } }),
      { params: { id: String(acme) } },
    );

  it("the administrator comments on a stage's end date; the partner sees it on that row; STAFF cannot write; the rejection mail names the row and the column", async () => {
    const { third } = await acmeTimeline();
    expect(third.id).not.toBeNull();
    const opened = await adminPdtPost("admin@example.org", {
      intent: "thread-open",
      threadTable: "PDT",
      threadRow: String(third.id),
      threadColumn: "endDate",
      threadBody: "This end date moved two quarters: what held it up?",
    });
    expect(opened.status, JSON.stringify(opened.data)).toBe(302);

    const page = await runRoute(partnerPdtLoader, buildRequest("/partner/development-timeline", { cookie: await sessionCookieFor("partner1@example.org") }));
    const seen = (page.data as { threads: ReportThreadsView }).threads;
    expect(seen).toMatchObject({
      open: 1,
      canWrite: true,
      threads: [{ table: "PDT", rowId: third.id, row: 3, column: "endDate", rowLabel: `${third.productName} · ${third.stageName}`, open: true }],
    });

    const staff = await adminPdtPost("staff@example.org", { intent: "thread-resolve", threadId: String(seen.threads[0].id) });
    expect(staff.status).toBe(403);

    const rejected = await adminPdtPost("admin@example.org", { intent: "reject", comment: "See the comment on the timeline." });
    expect(rejected.status, JSON.stringify(rejected.data)).toBe(302);
    const [mail] = await db.select().from(outbox).where(eq(outbox.kind, "report-reject"));
    expect(mail.textBody).toContain(
      [
        "Open comments on rows (1):",
        `- PDT row 3, End Date (${third.productName} · ${third.stageName}): Portal Administrator: This end date moved two quarters: what held it up?`,
      ].join("\n"),
    );
  });

  it("in the API: the partner reads its own timeline's comments and answers; Borealis cannot open one on Acme's row", async () => {
    const { third } = await acmeTimeline();
    const opened = await callApi("POST", "/template/pdt/threads/", {
      token: demo.partner1,
      body: { action: "open", table: "PDT", row_id: third.id, body: "Stability data came late." },
    });
    expectStatus(opened, 200);
    expectDocumented("POST", "/template/pdt/threads/", opened);
    expect(opened.body).toMatchObject({ open: 1, threads: [{ table: "PDT", row_id: third.id, row: 3, column: null, open: true }] });
    expectRefused(
      "POST",
      "/template/pdt/threads/",
      await callApi("POST", "/template/pdt/threads/", { token: demo.partner2, body: { action: "open", table: "PDT", row_id: third.id, body: "Mine?" } }),
      409,
    );
    expect(await db.select().from(reportThreads)).toHaveLength(1);
  });
});

describe("threads in the API", () => {
  const demo = demoSignInBeforeEach(["admin", "staff", "partner1", "partner2"]);
  const OWN = "/template/sales/threads/";
  const acmes = () => `/template/sales/threads/${demo.acme}/`;

  it("the partner opens a thread on its own cell and the administrator answers; STAFF reads; another partner reaches neither", async () => {
    const opened = await callApi("POST", OWN, {
      token: demo.partner1,
      body: { action: "open", table: "FDF", row_id: rows.fdf3, column: "royaltyDue", body: "Royalty waived in Brazil." },
    });
    expectStatus(opened, 200);
    expectDocumented("POST", OWN, opened);
    expect(opened.body).toMatchObject({
      open: 1,
      threads: [
        { table: "FDF", row_id: rows.fdf3, row: 3, column: "royaltyDue", row_label: "Dolutegravir 50 mg · Brazil · Central Medical Stores", open: true },
      ],
    });
    const threadId = opened.body.threads[0].id as number;

    const answered = await callApi("POST", acmes(), { token: demo.admin, body: { action: "reply", thread_id: threadId, body: "Show the waiver." } });
    expectStatus(answered, 200);
    expect(answered.body.threads[0].messages.map((message: { from_partner: boolean; body: string }) => [message.from_partner, message.body])).toEqual([
      [true, "Royalty waived in Brazil."],
      [false, "Show the waiver."],
    ]);
    const staff = await callApi("GET", acmes(), { token: demo.staff });
    expectStatus(staff, 200);
    expectDocumented("GET", "/template/sales/threads/{partnerId}/", staff);
    expect(staff.body.threads).toHaveLength(1);
    expectRefused(
      "POST",
      "/template/sales/threads/{partnerId}/",
      await callApi("POST", acmes(), { token: demo.staff, body: { action: "resolve", thread_id: threadId } }),
      403,
    );

    // Borealis: its own list is empty, Acme's list is refused, and Acme's thread and rows are not in its report.
    const borealisOwn = await callApi("GET", OWN, { token: demo.partner2 });
    expect(borealisOwn.body).toMatchObject({ open: 0, threads: [] });
    expectRefused("GET", "/template/sales/threads/{partnerId}/", await callApi("GET", acmes(), { token: demo.partner2 }), 403);
    expectRefused("POST", OWN, await callApi("POST", OWN, { token: demo.partner2, body: { action: "resolve", thread_id: threadId } }), 404);
    expectRefused(
      "POST",
      OWN,
      await callApi("POST", OWN, { token: demo.partner2, body: { action: "open", table: "FDF", row_id: rows.fdf1, body: "Mine?" } }),
      409,
    );
    expect((await db.select().from(reportThreads))[0].resolvedAt).toBeNull();
    expect(await db.select().from(reportThreadMessages)).toHaveLength(2);

    // An empty comment is refused beside its field.
    const empty = await callApi("POST", OWN, { token: demo.partner1, body: { action: "reply", thread_id: threadId, body: " " } });
    expectRefused("POST", OWN, empty, 400);
    expect(empty.body.errors).toEqual({ body: [THREAD_MESSAGES.empty] });
  });
});

describe("threads on the Filing Plans' cells", () => {
  const filingDemo = demoSignInBeforeEach(["admin", "partner1", "partner2"]);
  /** Kenya is the 116th of the 250 countries by name (the grid's order), so its cells are on Filing row 116. */
  const KENYA_ROW = 116;
  const ADMIN = "admin@example.org";

  /** Acme's saved plan of the open quarter with Kenya filed for its first product; that cell's stored id and the product. */
  async function acmePlan() {
    const actor = (await getAuthUser((await db.select().from(users).where(eq(users.email, "partner1@example.org")))[0].id))!;
    const before = await loadFilingPlan({ viewer: actor, partnerId: acme });
    const product = before.products[0];
    const kenya = await idOf(countries, "Kenya");
    const status = before.statusLists[product.category][0];
    await saveFilingPlan({ actor, partnerId: acme, quarterId, cells: [{ countryId: kenya, productId: product.id, status }], action: "save" });
    const view = await loadFilingPlan({ viewer: actor, partnerId: acme });
    const row = view.rows.find((each) => each.countryId === kenya)!;
    return { actor, kenya, product, cellId: row.ids[String(product.id)], otherStatus: before.statusLists[product.category][1] };
  }
  const filingPost = async (email: string, form: Record<string, string>) =>
    email.startsWith("partner")
      ? runRoute(
          partnerFilingAction,
          buildRequest("/partner/filing-plans", { cookie: await sessionCookieFor(email), form: { quarterId: String(quarterId), ...form } }),
        )
      : runRoute(
          adminFilingAction,
          buildRequest(`/admin/filing-plans/${acme}`, { cookie: await sessionCookieFor(email), form: { quarterId: String(quarterId), ...form } }),
          { params: { id: String(acme) } },
        );
  const filingThreadsOf = async (email: string) => {
    const page = await runRoute(partnerFilingLoader, buildRequest("/partner/filing-plans", { cookie: await sessionCookieFor(email) }));
    return (page.data as { threads: ReportThreadsView }).threads;
  };

  it("the administrator comments on a stored cell; the partner sees it on Kenya's row; Borealis reaches neither; the rejection mail names the row and the cell", async () => {
    const { cellId, product } = await acmePlan();
    expect(cellId).toEqual(expect.any(Number));
    const opened = await filingPost(ADMIN, {
      intent: "thread-open",
      threadTable: "Filing",
      threadRow: String(cellId),
      threadBody: "Which dossier is this filing?",
    });
    expect(opened.status, JSON.stringify(opened.data)).toBe(302);

    const seen = await filingThreadsOf("partner1@example.org");
    expect(seen).toMatchObject({
      open: 1,
      canWrite: true,
      threads: [{ table: "Filing", rowId: cellId, row: KENYA_ROW, column: null, rowLabel: `Kenya · ${product.name}`, open: true }],
    });
    expect((await filingThreadsOf("partner2@example.org")).threads).toEqual([]);
    const borealis = await filingPost("partner2@example.org", { intent: "thread-open", threadTable: "Filing", threadRow: String(cellId), threadBody: "Mine?" });
    expect(borealis.status).toBe(409);
    expect(await threadIds()).toHaveLength(1);

    await db
      .update(reports)
      .set({ status: "Submitted", submittedAt: new Date() })
      .where(and(eq(reports.partnerId, acme), eq(reports.quarterId, quarterId), eq(reports.type, "filing")));
    const rejected = await filingPost(ADMIN, { intent: "reject", comment: "See the comment on Kenya." });
    expect(rejected.status, JSON.stringify(rejected.data)).toBe(302);
    const [mail] = await db.select().from(outbox).where(eq(outbox.kind, "report-reject")).orderBy(desc(outbox.id)).limit(1);
    expect(mail.textBody).toContain(
      ["Open comments on rows (1):", `- Filing row ${KENYA_ROW} (Kenya · ${product.name}): Portal Administrator: Which dossier is this filing?`].join("\n"),
    );
  });

  it("in the API: the partner opens one on its own cell; the administrator reads it on Kenya's row; Borealis cannot open one on Acme's cell", async () => {
    const { cellId, product } = await acmePlan();
    const opened = await callApi("POST", "/template/filing/threads/", {
      token: filingDemo.partner1,
      body: { action: "open", table: "Filing", row_id: cellId, body: "Filed in March with the national agency." },
    });
    expectStatus(opened, 200);
    expectDocumented("POST", "/template/filing/threads/", opened);
    // A cell is the whole stored row: a column is refused, and nothing is written.
    const withColumn = await callApi("POST", "/template/filing/threads/", {
      token: filingDemo.partner1,
      body: { action: "open", table: "Filing", row_id: cellId, column: "status", body: "On the status." },
    });
    expectRefused("POST", "/template/filing/threads/", withColumn, 400);
    expect(JSON.stringify(withColumn.body)).toContain(THREAD_MESSAGES.noColumn);
    const read = await callApi("GET", `/template/filing/threads/${acme}/`, { token: filingDemo.admin });
    expectStatus(read, 200);
    expect(read.body).toMatchObject({
      open: 1,
      threads: [{ table: "Filing", row_id: cellId, row: KENYA_ROW, column: null, row_label: `Kenya · ${product.name}`, open: true }],
    });
    expectRefused(
      "POST",
      "/template/filing/threads/",
      await callApi("POST", "/template/filing/threads/", {
        token: filingDemo.partner2,
        body: { action: "open", table: "Filing", row_id: cellId, body: "Mine?" },
      }),
      409,
    );
    expect(await threadIds()).toHaveLength(1);
  });

  it("a cell's thread follows its status when it changes, and is named as removed once the cell is emptied", async () => {
    const { actor, kenya, product, cellId, otherStatus } = await acmePlan();
    const opened = await filingPost("partner1@example.org", {
      intent: "thread-open",
      threadTable: "Filing",
      threadRow: String(cellId),
      threadBody: "Filed in March.",
    });
    expect(opened.status, JSON.stringify(opened.data)).toBe(302);

    await saveFilingPlan({ actor, partnerId: acme, quarterId, cells: [{ countryId: kenya, productId: product.id, status: otherStatus }], action: "save" });
    expect((await filingThreadsOf("partner1@example.org")).threads).toMatchObject([{ rowId: cellId, row: KENYA_ROW, open: true }]);

    await saveFilingPlan({ actor, partnerId: acme, quarterId, cells: [{ countryId: kenya, productId: product.id, status: "0" }], action: "save" });
    const afterEmptied = await filingThreadsOf("partner1@example.org");
    expect(afterEmptied.threads).toMatchObject([{ rowId: cellId, row: null, rowLabel: `Kenya · ${product.name}`, open: true }]);
    expect(
      placeText(
        afterEmptied.threads[0],
        (key, values) => key.replace("{{table}}", String(values?.table)),
        (_table, column) => column,
      ),
    ).toBe("Filing row removed");
  });
});

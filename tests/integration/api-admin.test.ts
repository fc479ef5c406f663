/**
 * The administrators' JSON API calls (partners, products, product verification, cut-off date,
 * reminders), the country list and the partner dashboard: each allowed call with its documented
 * answer and the effect a user would notice, a refused role, a partner reaching for another
 * partner's record, and bad input answered with field errors.
 */
import { and, asc, count, eq, inArray, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import {
  auditLog,
  countries,
  employees,
  outbox,
  partnerProducts,
  partners,
  productVerifications,
  products,
  reportMessages,
  reports,
  settings,
} from "~/db/schema";
import { listPartners } from "~/models/partner-list.server";
import { getOpenQuarter, openQuarterSpan } from "~/models/quarter.server";
import type { PartnerGuidance } from "~/models/report-overview.server";
import { markReportMessagesRead } from "~/reports/frame/screen.server";
import { findUserByEmail } from "~/models/user.server";
import { loader as partnerDashboardLoader } from "~/routes/_shell.partner.dashboard";
import { CUT_OFF_BEFORE_OPEN_QUARTER } from "~/schemas/settings";
import { formatDate } from "~/utils/dates";
import { parsePartnerListQuery } from "~/utils/partner-list";
import { apiToken, callApi, demoSignInBeforeEach, expectDocumented, type ApiAnswer } from "../support/api";
import { buildRequest, runRoute, sessionCookieFor } from "../support/remix";
import { counted } from "../support/statements";

const UNVERIFIED = "Efavirenz/Lamivudine/TDF 600/300/300 mg";

const demo = demoSignInBeforeEach(["admin", "staff", "partner1"]);

/** The answer is documented and has this status. */
function expectAnswer(method: string, documentedPath: string, answer: ApiAnswer, status: number) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expectDocumented(method, documentedPath, answer);
}

function expectForbidden(method: string, documentedPath: string, answer: ApiAnswer) {
  expectAnswer(method, documentedPath, answer, 403);
  expect(answer.body).toMatchObject({ status: "forbidden", detail: "YOU ARE NOT AUTHORIZED TO USE THE PAGE" });
}

function expectInvalid(method: string, documentedPath: string, answer: ApiAnswer, fields: string[]) {
  expectAnswer(method, documentedPath, answer, 400);
  expect(answer.body.status).toBe("invalid");
  for (const field of fields) expect(answer.body.errors?.[field], `errors.${field} in ${JSON.stringify(answer.body.errors)}`).toEqual(expect.any(Array));
}

const mails = () => db.select().from(outbox).orderBy(asc(outbox.id));

async function productNamed(name: string) {
  const [row] = await db.select().from(products).where(eq(products.name, name));
  return row;
}

/** A product of the catalogue that the partner has (active), and one it does not have. */
async function productsOf(partnerId: number) {
  const rows = await db
    .select({ id: products.id, name: products.name, active: partnerProducts.isActive, status: partnerProducts.projectStatus })
    .from(products)
    .leftJoin(partnerProducts, and(eq(partnerProducts.productId, products.id), eq(partnerProducts.partnerId, partnerId)))
    .where(eq(products.isActive, true))
    .orderBy(asc(products.id));
  return { assigned: rows.find((row) => row.active)!, unassigned: rows.find((row) => !row.active)! };
}

const NEW_PARTNER = {
  company_name: "Delta Pharma Ltd",
  email: "Contact@Delta-Pharma.example",
  contact_number: "+91 98765 43210",
  address: "12 Industrial Estate, Hyderabad",
  region: "Asia",
  active_products: [] as { product_id: number; status: string }[],
  employee: [{ employee_id: 0, first_name: "Asha", last_name: "Rao", contact_number: "+919123456780" }],
};

interface TemplateDataEntry {
  template_type: string;
  is_read: boolean;
}

/** The partner's reports of the open quarter as stored, under the spec's template_type. */
async function storedReports(partnerId: number) {
  const quarter = await getOpenQuarter();
  const rows = await db
    .select()
    .from(reports)
    .where(and(eq(reports.partnerId, partnerId), eq(reports.quarterId, quarter.id)));
  return { quarter, byType: new Map(rows.map((row) => [row.type === "filing" ? "filing plan" : row.type, row])) };
}

/** How many of the report's messages from the other side `side` has not opened. */
async function storedUnread(reportId: number, side: "admin" | "partner") {
  const [{ value }] = await db
    .select({ value: count() })
    .from(reportMessages)
    .where(
      and(
        eq(reportMessages.reportId, reportId),
        eq(reportMessages.isPartnerMessage, side === "admin"),
        isNull(side === "admin" ? reportMessages.readByAdminAt : reportMessages.readByPartnerAt),
      ),
    );
  return value;
}

/** Spec §3's template_data: one entry per report of the open quarter, as stored and as `side` has read its messages. */
async function expectTemplateData(templateData: TemplateDataEntry[], partnerId: number, side: "admin" | "partner" = "admin") {
  const { quarter, byType } = await storedReports(partnerId);
  expect(templateData.map((entry) => entry.template_type)).toEqual(["pdt", "filing plan", "sales"]);
  for (const entry of templateData) {
    const row = byType.get(entry.template_type);
    expect(entry).toEqual({
      template_type: entry.template_type,
      report_status: row?.status ?? "not started",
      is_approved: row?.status === "Approved" ? true : row?.status === "Rejected" ? false : null,
      quarter_name: quarter.name,
      submission_time: row?.submittedAt?.toISOString() ?? null,
      updated_at: row?.updatedAt.toISOString() ?? null,
      partner_id: partnerId,
      is_read: row ? (await storedUnread(row.id, side)) === 0 : true,
    });
  }
}

/** The partner's active products as stored, with its project status of each, by product id. */
async function storedActiveProducts(partnerId: number) {
  return db
    .select({ product_id: products.id, status: partnerProducts.projectStatus, product_name: products.name })
    .from(partnerProducts)
    .innerJoin(products, eq(products.id, partnerProducts.productId))
    .where(and(eq(partnerProducts.partnerId, partnerId), eq(partnerProducts.isActive, true), eq(products.isActive, true)))
    .orderBy(asc(products.id));
}

const byProductId = (rows: { product_id: number }[]) => [...rows].sort((a, b) => a.product_id - b.product_id);

// ---------------------------------------------------------------- partners

describe("GET /admin/partner/", () => {
  it("STAFF reads the partner list with products and their status and spec §3's template_data; a search narrows it", async () => {
    // A status other than the default, so that the answer's is the stored one.
    const [first] = await storedActiveProducts(demo.acme);
    await db
      .update(partnerProducts)
      .set({ projectStatus: "ON_HOLD" })
      .where(and(eq(partnerProducts.partnerId, demo.acme), eq(partnerProducts.productId, first.product_id)));

    const answer = await callApi("GET", "/admin/partner/", { token: demo.staff });
    expectAnswer("GET", "/admin/partner/", answer, 200);
    expect(answer.body.quarter_name).toBe((await getOpenQuarter()).name);
    const row = answer.body.partners.find((partner: { partner_id: number }) => partner.partner_id === demo.acme);
    expect(row).toMatchObject({ company_name: "Acme Generics Ltd", email: "partner1@example.org", is_active: true });
    expect(row.active_products.length).toBeGreaterThan(0);
    expect(row.active_products).toContainEqual({ product_id: first.product_id, status: "ON_HOLD", product_name: first.product_name });
    for (const partner of answer.body.partners) {
      expect(byProductId(partner.active_products)).toEqual(await storedActiveProducts(partner.partner_id));
      await expectTemplateData(partner.template_data, partner.partner_id);
    }
    const borealisRow = answer.body.partners.find((partner: { partner_id: number }) => partner.partner_id === demo.borealis);
    // Demo seed: Borealis's Sales Report is Approved.
    expect(borealisRow.template_data[2]).toMatchObject({ template_type: "sales", report_status: "Approved", is_approved: true });

    const searched = await callApi("GET", "/admin/partner/", { token: demo.staff, query: { q: "borealis" } });
    expectAnswer("GET", "/admin/partner/", searched, 200);
    expect(searched.body.partners.map((partner: { partner_id: number }) => partner.partner_id)).toEqual([demo.borealis]);
  });

  it("is_read: whether the reader's side has read the report's messages", async () => {
    const { quarter, byType } = await storedReports(demo.acme);
    const [unread] = await db
      .select({ reportId: reportMessages.reportId })
      .from(reportMessages)
      .where(
        and(
          inArray(
            reportMessages.reportId,
            [...byType.values()].map((row) => row.id),
          ),
          eq(reportMessages.isPartnerMessage, true),
          isNull(reportMessages.readByAdminAt),
        ),
      );
    const type = [...byType.entries()].find(([, row]) => row.id === unread.reportId)![0];
    const isRead = async (token: string) => {
      const answer = await callApi("GET", `/admin/partner/${demo.acme}/`, { token });
      return answer.body.template_data.find((entry: TemplateDataEntry) => entry.template_type === type).is_read;
    };
    const isReadInList = async (token: string) => {
      const answer = await callApi("GET", "/admin/partner/", { token });
      const row = answer.body.partners.find((partner: { partner_id: number }) => partner.partner_id === demo.acme);
      return row.template_data.find((entry: TemplateDataEntry) => entry.template_type === type).is_read;
    };
    expect(await isRead(demo.admin)).toBe(false);
    expect(await isReadInList(demo.admin)).toBe(false);
    const adminUser = await findUserByEmail("admin@example.org");
    await markReportMessagesRead(adminUser!, demo.acme, quarter.id, byType.get(type)!.type);
    expect(await isRead(demo.admin)).toBe(true);
    expect(await isRead(demo.staff)).toBe(true);
    expect(await isReadInList(demo.staff)).toBe(true);
  });

  it("reads the list in the same number of statements whatever the number of partners (at most 4 for the list itself)", async () => {
    const list = () => callApi("GET", "/admin/partner/", { token: demo.staff });
    // The token's first use of the test writes its last use.
    await list();
    const before = await counted(list);
    expectAnswer("GET", "/admin/partner/", before.result, 200);

    // 20 more partners, each with a product and three reports of the open quarter, one with a message unread by the administrators.
    const quarter = await getOpenQuarter();
    const { assigned } = await productsOf(demo.acme);
    const extra = await db
      .insert(partners)
      .values(
        Array.from({ length: 20 }, (_, i) => ({ companyName: `Extra ${i}`, email: `extra${i}@example.org`, contactNumber: "+911234567890", region: "Asia" })),
      )
      .returning({ id: partners.id });
    await db.insert(partnerProducts).values(extra.map((partner) => ({ partnerId: partner.id, productId: assigned.id, projectStatus: "FILED" as const })));
    const added = await db
      .insert(reports)
      .values(
        extra.flatMap((partner) =>
          (["pdt", "filing", "sales"] as const).map((type) => ({
            partnerId: partner.id,
            quarterId: quarter.id,
            type,
            status: "Submitted" as const,
            submittedAt: new Date(),
          })),
        ),
      )
      .returning({ id: reports.id, type: reports.type });
    await db
      .insert(reportMessages)
      .values(added.filter((report) => report.type === "sales").map((report) => ({ reportId: report.id, isPartnerMessage: true, message: "Please check." })));

    const after = await counted(list);
    expectAnswer("GET", "/admin/partner/", after.result, 200);
    expect(after.result.body.partners).toHaveLength(before.result.body.partners.length + 20);
    expect(after.statements.length, after.statements.join("\n")).toBe(before.statements.length);
    const { statements } = await counted(() => listPartners(parsePartnerListQuery(new URLSearchParams())));
    expect(statements.length, statements.join("\n")).toBeLessThanOrEqual(4);
    // Beside the list's, the call reads only the token and its user.
    expect(after.statements.length).toBeLessThanOrEqual(statements.length + 2);

    const row = after.result.body.partners.find((partner: { partner_id: number }) => partner.partner_id === extra[0].id);
    expect(row.active_products).toEqual([{ product_id: assigned.id, status: "FILED", product_name: assigned.name }]);
    expect(row.template_data.map((entry: TemplateDataEntry) => [entry.template_type, entry.is_read])).toEqual([
      ["pdt", true],
      ["filing plan", true],
      ["sales", false],
    ]);
    await expectTemplateData(row.template_data, extra[0].id);
  });

  it("refuses a partner (403) and an unknown filter value (400)", async () => {
    expectForbidden("GET", "/admin/partner/", await callApi("GET", "/admin/partner/", { token: demo.partner1 }));
    expectInvalid("GET", "/admin/partner/", await callApi("GET", "/admin/partner/", { token: demo.staff, query: { dir: "sideways" } }), ["query.dir"]);
  });
});

describe("POST /admin/partner/", () => {
  it("ADMIN adds a partner in spec §3's names: listed, a contact with employee_id 0 added, its login created without password, a set-password link mailed", async () => {
    const { assigned } = await productsOf(demo.acme);
    const body = { ...NEW_PARTNER, active_products: [{ product_id: assigned.id, status: "FILED" }] };
    const answer = await callApi("POST", "/admin/partner/", { token: demo.admin, body });
    expectAnswer("POST", "/admin/partner/", answer, 200);
    expect(answer.body).toMatchObject({ status: "OK", detail: "Partner added succcessfully!", partner_id: expect.any(Number) });

    const read = await callApi("GET", `/admin/partner/${answer.body.partner_id}/`, { token: demo.staff });
    expectAnswer("GET", "/admin/partner/{id}/", read, 200);
    expect(read.body).toMatchObject({
      partner_id: answer.body.partner_id,
      company_name: "Delta Pharma Ltd",
      email: "contact@delta-pharma.example",
      contact_number: "+919876543210",
      address: "12 Industrial Estate, Hyderabad",
      region: "Asia",
      active_products: [{ product_id: assigned.id, status: "FILED", product_name: assigned.name }],
      employee: [{ employee_id: expect.any(Number), first_name: "Asha", last_name: "Rao", contact_number: "+919123456780" }],
    });
    expect(read.body.employee[0].employee_id).toBeGreaterThan(0);
    await expectTemplateData(read.body.template_data, answer.body.partner_id);
    const [mail] = await mails();
    expect(mail).toMatchObject({ toAddress: "contact@delta-pharma.example" });
    expect(mail.textBody).toContain("/set-password/");
  });

  it("refuses STAFF and a partner (403) and adds nothing", async () => {
    const before = await db.select({ id: partners.id }).from(partners);
    expectForbidden("POST", "/admin/partner/", await callApi("POST", "/admin/partner/", { token: demo.staff, body: NEW_PARTNER }));
    expectForbidden("POST", "/admin/partner/", await callApi("POST", "/admin/partner/", { token: demo.partner1, body: NEW_PARTNER }));
    expect(await db.select({ id: partners.id }).from(partners)).toHaveLength(before.length);
  });

  it("answers 400 by the body's field names: the form's rules, the database's rules and unknown fields", async () => {
    const bad = await callApi("POST", "/admin/partner/", {
      token: demo.admin,
      body: { ...NEW_PARTNER, company_name: " ", contact_number: "12ab", employee: [{ ...NEW_PARTNER.employee[0], first_name: "" }] },
    });
    expectInvalid("POST", "/admin/partner/", bad, ["company_name", "contact_number", "employee.0.first_name"]);
    expect(bad.body.errors.company_name).toEqual(["Please input Company name!"]);
    expect(bad.body.errors.contact_number).toEqual(["Contact should have only numbers!"]);
    expect(bad.body.errors["employee.0.first_name"]).toEqual(["Please enter first name."]);

    const short = await callApi("POST", "/admin/partner/", {
      token: demo.admin,
      body: { ...NEW_PARTNER, employee: [{ ...NEW_PARTNER.employee[0], contact_number: "+91912345" }] },
    });
    expectInvalid("POST", "/admin/partner/", short, ["employee.0.contact_number"]);
    const unknownProduct = await callApi("POST", "/admin/partner/", {
      token: demo.admin,
      body: { ...NEW_PARTNER, active_products: [{ product_id: 999999, status: "FILED" }] },
    });
    expectInvalid("POST", "/admin/partner/", unknownProduct, ["active_products.0.product_id"]);
    expect(unknownProduct.body.errors["active_products.0.product_id"]).toEqual(["Please select product."]);

    const duplicate = await callApi("POST", "/admin/partner/", { token: demo.admin, body: { ...NEW_PARTNER, email: "PARTNER2@example.org" } });
    expectInvalid("POST", "/admin/partner/", duplicate, ["email"]);
    expect(duplicate.body.errors.email).toEqual(["A partner or user with this e-mail already exists."]);

    // The old form names are not the body's.
    const old = await callApi("POST", "/admin/partner/", { token: demo.admin, body: { ...NEW_PARTNER, companyName: "Delta" } });
    expectInvalid("POST", "/admin/partner/", old, ["companyName"]);
    expect(await mails()).toHaveLength(0);
  });
});

describe("GET /admin/partner/{id}/", () => {
  it("STAFF reads a partner in spec §3's fields: products, contacts and the reports of the open quarter", async () => {
    const answer = await callApi("GET", `/admin/partner/${demo.borealis}/`, { token: demo.staff });
    expectAnswer("GET", "/admin/partner/{id}/", answer, 200);
    expect(answer.body).toMatchObject({ partner_id: demo.borealis, company_name: "Borealis Pharma Pvt", email: "partner2@example.org", is_active: true });
    expect(answer.body.contact_number).toMatch(/^\+\d{1,4}\d{10}$/);
    const assigned = await db
      .select()
      .from(partnerProducts)
      .where(and(eq(partnerProducts.partnerId, demo.borealis), eq(partnerProducts.isActive, true)));
    expect(answer.body.active_products.map((row: { product_id: number }) => row.product_id).sort()).toEqual(assigned.map((row) => row.productId).sort());
    expect(answer.body.active_products.every((row: { product_name: string; status: string }) => row.product_name && row.status)).toBe(true);
    const people = await db.select().from(employees).where(eq(employees.partnerId, demo.borealis));
    expect(answer.body.employee.map((person: { employee_id: number }) => person.employee_id).sort()).toEqual(people.map((person) => person.id).sort());
    await expectTemplateData(answer.body.template_data, demo.borealis);
    expect(answer.body).not.toHaveProperty("form");
  });

  it("refuses a partner, even for its own id or another partner's (403); unknown id 404; bad id 400", async () => {
    expectForbidden("GET", "/admin/partner/{id}/", await callApi("GET", `/admin/partner/${demo.borealis}/`, { token: demo.partner1 }));
    expectForbidden("GET", "/admin/partner/{id}/", await callApi("GET", `/admin/partner/${demo.acme}/`, { token: demo.partner1 }));
    const missing = await callApi("GET", "/admin/partner/999999/", { token: demo.admin });
    expectAnswer("GET", "/admin/partner/{id}/", missing, 404);
    expect(missing.body.status).toBe("notfound");
    expectInvalid("GET", "/admin/partner/{id}/", await callApi("GET", "/admin/partner/abc/", { token: demo.admin }), ["path.id"]);
  });
});

describe("PUT /admin/partner/{id}/", () => {
  it("round trip: the partner as read, sent back unchanged, is accepted and nothing changes", async () => {
    const read = await callApi("GET", `/admin/partner/${demo.borealis}/`, { token: demo.admin });
    const employeesBefore = await db.select().from(employees).where(eq(employees.partnerId, demo.borealis));
    const answer = await callApi("PUT", `/admin/partner/${demo.borealis}/`, { token: demo.admin, body: read.body });
    expectAnswer("PUT", "/admin/partner/{id}/", answer, 200);
    expect((await callApi("GET", `/admin/partner/${demo.borealis}/`, { token: demo.admin })).body).toEqual(read.body);
    expect(await db.select().from(employees).where(eq(employees.partnerId, demo.borealis))).toEqual(employeesBefore);
  });

  it("ADMIN edits a partner: changed fields saved, contacts kept by employee_id, a contact with employee_id 0 added, one left out removed", async () => {
    const read = await callApi("GET", `/admin/partner/${demo.borealis}/`, { token: demo.admin });
    expect(read.body.employee.length).toBeGreaterThan(0);
    const [kept, ...dropped] = read.body.employee;
    const body = {
      ...read.body,
      company_name: "Borealis Pharma International",
      address: null,
      employee: [
        { ...kept, first_name: "Renamed" },
        { employee_id: 0, first_name: "Nadia", last_name: "Khan", contact_number: "+441234567890" },
      ],
    };
    const answer = await callApi("PUT", `/admin/partner/${demo.borealis}/`, { token: demo.admin, body });
    expectAnswer("PUT", "/admin/partner/{id}/", answer, 200);
    expect(answer.body).toEqual({ status: "OK", detail: "Partner edited succcessfully!", partner_id: demo.borealis });

    const again = await callApi("GET", `/admin/partner/${demo.borealis}/`, { token: demo.staff });
    expect(again.body).toMatchObject({ company_name: "Borealis Pharma International", address: null });
    expect(again.body.employee).toEqual([
      { ...kept, first_name: "Renamed" },
      { employee_id: expect.any(Number), first_name: "Nadia", last_name: "Khan", contact_number: "+441234567890" },
    ]);
    const ids = again.body.employee.map((person: { employee_id: number }) => person.employee_id);
    for (const person of dropped) expect(ids).not.toContain(person.employee_id);
  });

  it("a client written against the spec (spec §3's fields only) reads and saves a partner", async () => {
    const { body: read } = await callApi("GET", `/admin/partner/${demo.borealis}/`, { token: demo.admin });
    const specOnly = {
      partner_id: read.partner_id,
      company_name: read.company_name,
      email: read.email,
      contact_number: read.contact_number,
      address: read.address,
      region: read.region,
      active_products: read.active_products.map(({ product_id, status, product_name }: Record<string, unknown>) => ({ product_id, status, product_name })),
      employee: [
        ...read.employee.map(({ employee_id, first_name, last_name, contact_number }: Record<string, unknown>) => ({
          employee_id,
          first_name,
          last_name,
          contact_number,
        })),
        { employee_id: 0, first_name: "New", last_name: "Contact", contact_number: "+919000000001" },
      ],
      template_data: read.template_data.map(
        ({ template_type, report_status, is_approved, quarter_name, submission_time, updated_at, partner_id, is_read }: Record<string, unknown>) => ({
          template_type,
          report_status,
          is_approved,
          quarter_name,
          submission_time,
          updated_at,
          partner_id,
          is_read,
        }),
      ),
    };
    const answer = await callApi("PUT", `/admin/partner/${demo.borealis}/`, { token: demo.admin, body: specOnly });
    expectAnswer("PUT", "/admin/partner/{id}/", answer, 200);
    const again = await callApi("GET", `/admin/partner/${demo.borealis}/`, { token: demo.admin });
    expect(again.body.employee).toHaveLength(read.employee.length + 1);
    expect(again.body.employee.at(-1)).toMatchObject({ first_name: "New", last_name: "Contact", contact_number: "+919000000001" });
  });

  it("refuses STAFF and a partner reaching for another partner (403): nothing changes", async () => {
    const read = await callApi("GET", `/admin/partner/${demo.borealis}/`, { token: demo.admin });
    const body = { ...read.body, company_name: "Taken Over" };
    expectForbidden("PUT", "/admin/partner/{id}/", await callApi("PUT", `/admin/partner/${demo.borealis}/`, { token: demo.partner1, body }));
    expectForbidden(
      "PUT",
      "/admin/partner/{id}/",
      await callApi("PUT", `/admin/partner/${demo.acme}/`, { token: demo.partner1, body: { ...body, partner_id: demo.acme } }),
    );
    expectForbidden("PUT", "/admin/partner/{id}/", await callApi("PUT", `/admin/partner/${demo.borealis}/`, { token: demo.staff, body }));
    const [row] = await db.select().from(partners).where(eq(partners.id, demo.borealis));
    expect(row.companyName).toBe("Borealis Pharma Pvt");
  });

  it("answers 400 by field (another partner's id in the body among them) and 404 for an unknown partner: nothing changes", async () => {
    const read = await callApi("GET", `/admin/partner/${demo.borealis}/`, { token: demo.admin });
    const bad = await callApi("PUT", `/admin/partner/${demo.borealis}/`, {
      token: demo.admin,
      body: { ...read.body, contact_number: "+9112345", region: "Mars" },
    });
    expectInvalid("PUT", "/admin/partner/{id}/", bad, ["contact_number", "region"]);
    expect(bad.body.errors.contact_number).toEqual(["Contact number too short!"]);
    const taken = await callApi("PUT", `/admin/partner/${demo.borealis}/`, { token: demo.admin, body: { ...read.body, email: "partner1@example.org" } });
    expectInvalid("PUT", "/admin/partner/{id}/", taken, ["email"]);
    const elsewhere = await callApi("PUT", `/admin/partner/${demo.borealis}/`, { token: demo.admin, body: { ...read.body, partner_id: demo.acme } });
    expectInvalid("PUT", "/admin/partner/{id}/", elsewhere, ["partner_id"]);
    const missing = await callApi("PUT", "/admin/partner/999999/", { token: demo.admin, body: { ...read.body, partner_id: undefined } });
    expectAnswer("PUT", "/admin/partner/{id}/", missing, 404);
    expect((await callApi("GET", `/admin/partner/${demo.borealis}/`, { token: demo.admin })).body).toEqual(read.body);
  });
});

describe("DELETE /admin/partner/{id}/", () => {
  it("ADMIN deactivates a partner: listed as inactive, its token ends and it cannot sign in", async () => {
    const partner2 = await apiToken("partner2@example.org", "partner-pass-2");
    const answer = await callApi("DELETE", `/admin/partner/${demo.borealis}/`, { token: demo.admin });
    expectAnswer("DELETE", "/admin/partner/{id}/", answer, 200);
    expect(answer.body).toEqual({ status: "OK", detail: "Partner successfully removed!" });

    const active = await callApi("GET", "/admin/partner/", { token: demo.staff });
    expect(active.body.partners.map((partner: { partner_id: number }) => partner.partner_id)).not.toContain(demo.borealis);
    const inactive = await callApi("GET", "/admin/partner/", { token: demo.staff, query: { status: "inactive" } });
    expect(inactive.body.partners.map((partner: { partner_id: number }) => partner.partner_id)).toContain(demo.borealis);
    expect((await callApi("GET", "/partner/dashboard/", { token: partner2 })).status).toBe(401);
    expect((await callApi("POST", "/login/", { body: { email: "partner2@example.org", password: "partner-pass-2" } })).status).toBe(401);
  });

  it("refuses STAFF and a partner reaching for another partner (403); unknown id 404", async () => {
    expectForbidden("DELETE", "/admin/partner/{id}/", await callApi("DELETE", `/admin/partner/${demo.borealis}/`, { token: demo.partner1 }));
    expectForbidden("DELETE", "/admin/partner/{id}/", await callApi("DELETE", `/admin/partner/${demo.borealis}/`, { token: demo.staff }));
    const [row] = await db.select().from(partners).where(eq(partners.id, demo.borealis));
    expect(row.isActive).toBe(true);
    expectAnswer("DELETE", "/admin/partner/{id}/", await callApi("DELETE", "/admin/partner/999999/", { token: demo.admin }), 404);
    expectInvalid("DELETE", "/admin/partner/{id}/", await callApi("DELETE", "/admin/partner/0/", { token: demo.admin }), ["path.id"]);
  });
});

// ---------------------------------------------------------------- products

const NEW_PRODUCT = { product_name: "Lenacapavir 300 mg", category: "FDF", therapy_area: "HIV" };

describe("GET /admin/product/", () => {
  it("STAFF lists products by name; ?recent=true lists the one added last first; filters apply", async () => {
    const answer = await callApi("GET", "/admin/product/", { token: demo.staff });
    expectAnswer("GET", "/admin/product/", answer, 200);
    const names = answer.body.products.map((product: { product_name: string }) => product.product_name);
    expect(names.length).toBeGreaterThanOrEqual(12);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));

    await callApi("POST", "/admin/product/", { token: demo.admin, body: { ...NEW_PRODUCT, product_name: "Zz Newest Product" } });
    const recent = await callApi("GET", "/admin/product/", { token: demo.staff, query: { recent: "true" } });
    expectAnswer("GET", "/admin/product/", recent, 200);
    expect(recent.body.products[0].product_name).toBe("Zz Newest Product");
    const byName = await callApi("GET", "/admin/product/", { token: demo.staff, query: { recent: "false" } });
    expect(byName.body.products[0].product_name).not.toBe("Zz Newest Product");

    const api = await callApi("GET", "/admin/product/", { token: demo.staff, query: { category: "API" } });
    expect(api.body.products.length).toBeGreaterThan(0);
    expect(api.body.products.every((product: { category: string }) => product.category === "API")).toBe(true);
  });

  it("refuses a partner (403) and a bad flag (400)", async () => {
    expectForbidden("GET", "/admin/product/", await callApi("GET", "/admin/product/", { token: demo.partner1 }));
    expectInvalid("GET", "/admin/product/", await callApi("GET", "/admin/product/", { token: demo.staff, query: { recent: "maybe" } }), ["query.recent"]);
    expectInvalid("GET", "/admin/product/", await callApi("GET", "/admin/product/", { token: demo.staff, query: { sort: "price" } }), ["query.sort"]);
  });
});

describe("POST /admin/product/", () => {
  it("ADMIN adds a product: saved and readable", async () => {
    const answer = await callApi("POST", "/admin/product/", { token: demo.admin, body: NEW_PRODUCT });
    expectAnswer("POST", "/admin/product/", answer, 200);
    expect(answer.body).toMatchObject({
      status: "OK",
      detail: "Product added succcessfully!",
      product: {
        product_name: "Lenacapavir 300 mg",
        category: "FDF",
        therapy_area: "HIV",
        product_status: null,
        does_product_exist: true,
        active_product_id: null,
        is_active: true,
      },
    });
    expect(await productNamed("Lenacapavir 300 mg")).toMatchObject({ id: answer.body.product.product_id, category: "FDF" });
  });

  it("refuses STAFF and a partner (403): nothing added", async () => {
    expectForbidden("POST", "/admin/product/", await callApi("POST", "/admin/product/", { token: demo.staff, body: NEW_PRODUCT }));
    expectForbidden("POST", "/admin/product/", await callApi("POST", "/admin/product/", { token: demo.partner1, body: NEW_PRODUCT }));
    expect(await productNamed("Lenacapavir 300 mg")).toBeUndefined();
  });

  it("answers 400 by field: empty name, unknown category, duplicate name, unknown therapy area, the old form names", async () => {
    const bad = await callApi("POST", "/admin/product/", { token: demo.admin, body: { product_name: "", category: "Tablet", therapy_area: "HIV" } });
    expectInvalid("POST", "/admin/product/", bad, ["product_name", "category"]);
    expect(bad.body.errors.product_name).toEqual(["Please enter product name!"]);
    const [existing] = await db.select().from(products).limit(1);
    const duplicate = await callApi("POST", "/admin/product/", { token: demo.admin, body: { ...NEW_PRODUCT, product_name: existing.name.toUpperCase() } });
    expectInvalid("POST", "/admin/product/", duplicate, ["product_name"]);
    expect(duplicate.body.errors.product_name).toEqual(["A product with this name already exists."]);
    const area = await callApi("POST", "/admin/product/", { token: demo.admin, body: { ...NEW_PRODUCT, therapy_area: "Malaria" } });
    expectInvalid("POST", "/admin/product/", area, ["therapy_area"]);
    expect(area.body.errors.therapy_area).toEqual(["Please select therapy area!"]);
    const old = await callApi("POST", "/admin/product/", { token: demo.admin, body: { name: "Lenacapavir 300 mg", category: "FDF", therapyArea: "HIV" } });
    expectInvalid("POST", "/admin/product/", old, ["name", "therapyArea"]);
    expect(await productNamed("Lenacapavir 300 mg")).toBeUndefined();
  });
});

describe("GET /admin/product/{id}/", () => {
  it("STAFF reads a product with its category's stages", async () => {
    const { assigned } = await productsOf(demo.acme);
    const answer = await callApi("GET", `/admin/product/${assigned.id}/`, { token: demo.staff });
    expectAnswer("GET", "/admin/product/{id}/", answer, 200);
    expect(answer.body).toMatchObject({ product_id: assigned.id, product_name: assigned.name, does_product_exist: true, is_active: true });
    const firstStage = answer.body.category === "FDF" ? "Development set-up" : "Investigation and route selection";
    expect(answer.body.stages[0].stage).toBe(firstStage);
  });

  it("refuses a partner, even for its own product (403); unknown id 404", async () => {
    const { assigned } = await productsOf(demo.acme);
    expectForbidden("GET", "/admin/product/{id}/", await callApi("GET", `/admin/product/${assigned.id}/`, { token: demo.partner1 }));
    expectAnswer("GET", "/admin/product/{id}/", await callApi("GET", "/admin/product/999999/", { token: demo.staff }), 404);
  });
});

describe("PUT /admin/product/{id}/", () => {
  it("ADMIN renames a product and changes its therapy area", async () => {
    const created = await callApi("POST", "/admin/product/", { token: demo.admin, body: NEW_PRODUCT });
    const id = created.body.product.product_id;
    const answer = await callApi("PUT", `/admin/product/${id}/`, {
      token: demo.admin,
      body: { product_name: "Lenacapavir 300 mg tablets", therapy_area: "HBV" },
    });
    expectAnswer("PUT", "/admin/product/{id}/", answer, 200);
    expect(answer.body).toMatchObject({
      detail: "Product edited succcessfully!",
      product: { product_id: id, product_name: "Lenacapavir 300 mg tablets", therapy_area: "HBV" },
    });
    const read = await callApi("GET", `/admin/product/${id}/`, { token: demo.staff });
    expect(read.body).toMatchObject({ product_name: "Lenacapavir 300 mg tablets", therapy_area: "HBV", category: "FDF" });
  });

  it("round trip: the product as read, sent back unchanged, is accepted and nothing changes; a spec client's product too", async () => {
    const { assigned } = await productsOf(demo.acme);
    const read = await callApi("GET", `/admin/product/${assigned.id}/`, { token: demo.admin });
    const answer = await callApi("PUT", `/admin/product/${assigned.id}/`, { token: demo.admin, body: read.body });
    expectAnswer("PUT", "/admin/product/{id}/", answer, 200);
    expect((await callApi("GET", `/admin/product/${assigned.id}/`, { token: demo.admin })).body).toEqual(read.body);

    const { product_id, product_name, category, therapy_area, product_status, does_product_exist, active_product_id } = read.body;
    const specOnly = { product_id, product_name: `${product_name} (renamed)`, category, therapy_area, product_status, does_product_exist, active_product_id };
    expectAnswer("PUT", "/admin/product/{id}/", await callApi("PUT", `/admin/product/${assigned.id}/`, { token: demo.admin, body: specOnly }), 200);
    expect((await callApi("GET", `/admin/product/${assigned.id}/`, { token: demo.admin })).body).toEqual({
      ...read.body,
      product_name: `${product_name} (renamed)`,
    });
  });

  it("refuses STAFF and a partner (403); a changed category or another product's id (400); unknown id 404", async () => {
    const { assigned } = await productsOf(demo.acme);
    const body = { product_name: "Renamed", therapy_area: "HIV" };
    expectForbidden("PUT", "/admin/product/{id}/", await callApi("PUT", `/admin/product/${assigned.id}/`, { token: demo.staff, body }));
    expectForbidden("PUT", "/admin/product/{id}/", await callApi("PUT", `/admin/product/${assigned.id}/`, { token: demo.partner1, body }));
    const product = await productNamed(assigned.name);
    const locked = await callApi("PUT", `/admin/product/${assigned.id}/`, {
      token: demo.admin,
      body: { ...body, category: product.category === "FDF" ? "API" : "FDF" },
    });
    expectInvalid("PUT", "/admin/product/{id}/", locked, ["category"]);
    const elsewhere = await callApi("PUT", `/admin/product/${assigned.id}/`, { token: demo.admin, body: { ...body, product_id: assigned.id + 1 } });
    expectInvalid("PUT", "/admin/product/{id}/", elsewhere, ["product_id"]);
    expectInvalid(
      "PUT",
      "/admin/product/{id}/",
      await callApi("PUT", `/admin/product/${assigned.id}/`, { token: demo.admin, body: { product_name: " ", therapy_area: "HIV" } }),
      ["product_name"],
    );
    expect((await productNamed(assigned.name))?.id).toBe(assigned.id);
    expectAnswer("PUT", "/admin/product/{id}/", await callApi("PUT", "/admin/product/999999/", { token: demo.admin, body }), 404);
  });
});

describe("DELETE /admin/product/{id}/", () => {
  it("ADMIN deactivates a product: it leaves the active list for the inactive one", async () => {
    const { assigned } = await productsOf(demo.acme);
    const answer = await callApi("DELETE", `/admin/product/${assigned.id}/`, { token: demo.admin });
    expectAnswer("DELETE", "/admin/product/{id}/", answer, 200);
    expect(answer.body).toEqual({ status: "OK", detail: "Product Deactivated!" });
    const ids = async (query: Record<string, string>) =>
      (await callApi("GET", "/admin/product/", { token: demo.staff, query })).body.products.map((product: { product_id: number }) => product.product_id);
    expect(await ids({})).not.toContain(assigned.id);
    expect(await ids({ status: "inactive" })).toContain(assigned.id);
  });

  it("refuses STAFF and a partner (403): the product stays active; unknown id 404", async () => {
    const { assigned } = await productsOf(demo.acme);
    expectForbidden("DELETE", "/admin/product/{id}/", await callApi("DELETE", `/admin/product/${assigned.id}/`, { token: demo.staff }));
    expectForbidden("DELETE", "/admin/product/{id}/", await callApi("DELETE", `/admin/product/${assigned.id}/`, { token: demo.partner1 }));
    expect((await productNamed(assigned.name)).isActive).toBe(true);
    expectAnswer("DELETE", "/admin/product/{id}/", await callApi("DELETE", "/admin/product/999999/", { token: demo.admin }), 404);
  });
});

describe("POST /admin/product_detail/", () => {
  it("answers a product's details for a partner: assigned, not assigned, unknown name", async () => {
    const { assigned, unassigned } = await productsOf(demo.acme);
    const answer = await callApi("POST", "/admin/product_detail/", {
      token: demo.admin,
      body: { product_name: assigned.name.toUpperCase(), partner_id: demo.acme },
    });
    expectAnswer("POST", "/admin/product_detail/", answer, 200);
    const [assignment] = await db
      .select()
      .from(partnerProducts)
      .where(and(eq(partnerProducts.partnerId, demo.acme), eq(partnerProducts.productId, assigned.id)));
    expect(answer.body).toMatchObject({
      product_name: assigned.name,
      partner_id: demo.acme,
      does_product_exist: true,
      product_id: assigned.id,
      active_product_id: assignment.id,
      product_status: assignment.projectStatus,
    });

    const other = await callApi("POST", "/admin/product_detail/", { token: demo.staff, body: { product_name: unassigned.name, partner_id: demo.acme } });
    expectAnswer("POST", "/admin/product_detail/", other, 200);
    expect(other.body).toMatchObject({ does_product_exist: true, product_id: unassigned.id, active_product_id: null, product_status: null });

    const unknown = await callApi("POST", "/admin/product_detail/", { token: demo.admin, body: { product_name: UNVERIFIED, partner_id: demo.acme } });
    expectAnswer("POST", "/admin/product_detail/", unknown, 200);
    expect(unknown.body).toMatchObject({ product_name: UNVERIFIED, does_product_exist: false, product_id: null, category: null });
  });

  it("refuses a partner asking about another partner or itself (403); 400 by field; unknown partner 404", async () => {
    const { assigned } = await productsOf(demo.borealis);
    expectForbidden(
      "POST",
      "/admin/product_detail/",
      await callApi("POST", "/admin/product_detail/", { token: demo.partner1, body: { product_name: assigned.name, partner_id: demo.borealis } }),
    );
    expectForbidden(
      "POST",
      "/admin/product_detail/",
      await callApi("POST", "/admin/product_detail/", { token: demo.partner1, body: { product_name: assigned.name, partner_id: demo.acme } }),
    );
    const bad = await callApi("POST", "/admin/product_detail/", { token: demo.admin, body: { product_name: "", partner_id: "first" } });
    expectInvalid("POST", "/admin/product_detail/", bad, ["product_name", "partner_id"]);
    const missing = await callApi("POST", "/admin/product_detail/", { token: demo.admin, body: { product_name: assigned.name, partner_id: 999999 } });
    expectAnswer("POST", "/admin/product_detail/", missing, 404);
  });
});

// ---------------------------------------------------------------- product verification

describe("GET /template/product_verification/{partnerId}", () => {
  it("ADMIN and STAFF read the names waiting in the partner's open-quarter Sales Report", async () => {
    const answer = await callApi("GET", `/template/product_verification/${demo.acme}`, { token: demo.admin });
    expectAnswer("GET", "/template/product_verification/{partnerId}", answer, 200);
    expect(answer.body).toMatchObject({ partner_id: demo.acme, quarter_name: (await getOpenQuarter()).name, pending_product_count: 1 });
    expect(answer.body.pending_products).toEqual([
      expect.objectContaining({ product_name: UNVERIFIED, is_approved: null, category: "FDF", does_product_exist: false, row_count: 1 }),
    ]);
    const asStaff = await callApi("GET", `/template/product_verification/${demo.acme}`, { token: demo.staff });
    expectAnswer("GET", "/template/product_verification/{partnerId}", asStaff, 200);
    expect(asStaff.body.pending_products).toHaveLength(1);

    const other = await callApi("GET", `/template/product_verification/${demo.borealis}`, { token: demo.admin });
    expectAnswer("GET", "/template/product_verification/{partnerId}", other, 200);
    expect(other.body.pending_products).toEqual([]);
  });

  it("refuses a partner for another partner or itself (403); bad id 400; unknown partner 404", async () => {
    expectForbidden(
      "GET",
      "/template/product_verification/{partnerId}",
      await callApi("GET", `/template/product_verification/${demo.borealis}`, { token: demo.partner1 }),
    );
    expectForbidden(
      "GET",
      "/template/product_verification/{partnerId}",
      await callApi("GET", `/template/product_verification/${demo.acme}`, { token: demo.partner1 }),
    );
    expectInvalid("GET", "/template/product_verification/{partnerId}", await callApi("GET", "/template/product_verification/x1", { token: demo.admin }), [
      "path.partnerId",
    ]);
    expectAnswer(
      "GET",
      "/template/product_verification/{partnerId}",
      await callApi("GET", "/template/product_verification/999999", { token: demo.admin }),
      404,
    );
  });
});

describe("POST /template/product_verification/{partnerId}", () => {
  async function pendingId() {
    const [row] = await db.select().from(productVerifications).where(eq(productVerifications.productName, UNVERIFIED));
    return row.id;
  }

  it("ADMIN approves a name with a new product: created, assigned to the partner, no longer pending", async () => {
    const id = await pendingId();
    const answer = await callApi("POST", `/template/product_verification/${demo.acme}`, {
      token: demo.admin,
      body: { product_verification_id: id, is_approved: true, product_name: UNVERIFIED, therapy_area: "HIV", product_status: "FILED" },
    });
    expectAnswer("POST", "/template/product_verification/{partnerId}", answer, 200);
    expect(answer.body).toMatchObject({
      status: "OK",
      detail: "Product approved and assigned to the partner.",
      is_approved: true,
      created_product: true,
      rows_mapped: 1,
    });

    const product = await productNamed(UNVERIFIED);
    expect(product).toMatchObject({ id: answer.body.product_id, category: "FDF", therapyArea: "HIV" });
    const detail = await callApi("POST", "/admin/product_detail/", { token: demo.admin, body: { product_name: UNVERIFIED, partner_id: demo.acme } });
    expect(detail.body).toMatchObject({ does_product_exist: true, product_status: "FILED", active_product_id: expect.any(Number) });
    const list = await callApi("GET", `/template/product_verification/${demo.acme}`, { token: demo.admin });
    expect(list.body.pending_products).toEqual([]);
    expect(list.body.pending_product_count).toBe(0);
    expect(list.body.existing_products).toEqual([expect.objectContaining({ product_verification_id: id, is_approved: true, product_id: product.id })]);

    const again = await callApi("POST", `/template/product_verification/${demo.acme}`, {
      token: demo.admin,
      body: { product_verification_id: id, is_approved: false },
    });
    expectAnswer("POST", "/template/product_verification/{partnerId}", again, 409);
  });

  it("ADMIN rejects a pending item by sending it back as read with its decision", async () => {
    const list = await callApi("GET", `/template/product_verification/${demo.acme}`, { token: demo.admin });
    const [item] = list.body.pending_products;
    const answer = await callApi("POST", `/template/product_verification/${demo.acme}`, { token: demo.admin, body: { ...item, is_approved: false } });
    expectAnswer("POST", "/template/product_verification/{partnerId}", answer, 200);
    expect(answer.body).toMatchObject({ is_approved: false, created_product: false });
    const after = await callApi("GET", `/template/product_verification/${demo.acme}`, { token: demo.admin });
    expect(after.body.pending_products).toEqual([]);
    expect(after.body.existing_products).toEqual([expect.objectContaining({ product_verification_id: item.product_verification_id, is_approved: false })]);
  });

  it("refuses STAFF and partners (403), another partner's path (404), and missing fields (400): still pending", async () => {
    const id = await pendingId();
    const reject = { product_verification_id: id, is_approved: false };
    expectForbidden(
      "POST",
      "/template/product_verification/{partnerId}",
      await callApi("POST", `/template/product_verification/${demo.acme}`, { token: demo.staff, body: reject }),
    );
    expectForbidden(
      "POST",
      "/template/product_verification/{partnerId}",
      await callApi("POST", `/template/product_verification/${demo.acme}`, { token: demo.partner1, body: reject }),
    );
    const elsewhere = await callApi("POST", `/template/product_verification/${demo.borealis}`, { token: demo.admin, body: reject });
    expectAnswer("POST", "/template/product_verification/{partnerId}", elsewhere, 404);

    const noArea = await callApi("POST", `/template/product_verification/${demo.acme}`, {
      token: demo.admin,
      body: { product_verification_id: id, is_approved: true, product_name: "A Brand New Name", product_status: "FILED" },
    });
    expectInvalid("POST", "/template/product_verification/{partnerId}", noArea, ["therapy_area"]);
    const noName = await callApi("POST", `/template/product_verification/${demo.acme}`, {
      token: demo.admin,
      body: { product_verification_id: id, is_approved: true, product_status: "FILED" },
    });
    expectInvalid("POST", "/template/product_verification/{partnerId}", noName, ["product_name"]);
    const noStatus = await callApi("POST", `/template/product_verification/${demo.acme}`, {
      token: demo.admin,
      body: { product_verification_id: id, is_approved: true, product_name: "A Brand New Name", therapy_area: "HIV" },
    });
    expectInvalid("POST", "/template/product_verification/{partnerId}", noStatus, ["product_status"]);
    expectInvalid(
      "POST",
      "/template/product_verification/{partnerId}",
      await callApi("POST", `/template/product_verification/${demo.acme}`, { token: demo.admin, body: { product_verification_id: id, is_approved: "yes" } }),
      ["is_approved"],
    );
    const [row] = await db.select().from(productVerifications).where(eq(productVerifications.id, id));
    expect(row.status).toBe("pending");
  });
});

// ---------------------------------------------------------------- cut-off date

describe("GET /admin/cut_off_date/", () => {
  it("STAFF reads the cut-off date as DD-MM-YYYY", async () => {
    const [stored] = await db.select().from(settings).where(eq(settings.key, "cut_off_date"));
    const answer = await callApi("GET", "/admin/cut_off_date/", { token: demo.staff });
    expectAnswer("GET", "/admin/cut_off_date/", answer, 200);
    expect(answer.body).toEqual({ cut_off_date: formatDate(stored.value as string) });
    expect(answer.body.cut_off_date).toMatch(/^\d{2}-\d{2}-\d{4}$/);
  });

  it("refuses a partner (403)", async () => {
    expectForbidden("GET", "/admin/cut_off_date/", await callApi("GET", "/admin/cut_off_date/", { token: demo.partner1 }));
  });
});

describe("POST /admin/cut_off_date/", () => {
  it("ADMIN sets the date: read back, stored, audited, shown on the partner dashboard", async () => {
    const answer = await callApi("POST", "/admin/cut_off_date/", { token: demo.admin, body: { cut_off_date: "20-12-2030" } });
    expectAnswer("POST", "/admin/cut_off_date/", answer, 200);
    expect(answer.body).toEqual({ status: "OK", detail: "Submission Date set successfully!" });
    expect((await callApi("GET", "/admin/cut_off_date/", { token: demo.staff })).body).toEqual({ cut_off_date: "20-12-2030" });
    const [stored] = await db.select().from(settings).where(eq(settings.key, "cut_off_date"));
    expect(stored.value).toBe("2030-12-20");
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, "setting.cut_off_date"));
    expect(audit.after).toBe("2030-12-20");
    expect((await callApi("GET", "/partner/dashboard/", { token: demo.partner1 })).body.cut_off_date).toBe("20-12-2030");
  });

  it("refuses STAFF and a partner (403), a date that does not exist or is before the open quarter (400): unchanged", async () => {
    const before = (await callApi("GET", "/admin/cut_off_date/", { token: demo.staff })).body.cut_off_date;
    expectForbidden("POST", "/admin/cut_off_date/", await callApi("POST", "/admin/cut_off_date/", { token: demo.staff, body: { cut_off_date: "20-12-2030" } }));
    expectForbidden(
      "POST",
      "/admin/cut_off_date/",
      await callApi("POST", "/admin/cut_off_date/", { token: demo.partner1, body: { cut_off_date: "20-12-2030" } }),
    );
    const bad = await callApi("POST", "/admin/cut_off_date/", { token: demo.admin, body: { cut_off_date: "31-02-2026" } });
    expectInvalid("POST", "/admin/cut_off_date/", bad, ["cut_off_date"]);
    expect(bad.body.errors.cut_off_date).toEqual(["Please select a valid date!"]);
    // The settings page's rule: not before the open quarter starts.
    const lastDayBefore = formatDate(new Date(Date.parse(`${openQuarterSpan().startDate}T00:00:00Z`) - 86_400_000));
    const early = await callApi("POST", "/admin/cut_off_date/", { token: demo.admin, body: { cut_off_date: lastDayBefore } });
    expectInvalid("POST", "/admin/cut_off_date/", early, ["cut_off_date"]);
    expect(early.body.errors.cut_off_date).toEqual([CUT_OFF_BEFORE_OPEN_QUARTER]);
    expectInvalid("POST", "/admin/cut_off_date/", await callApi("POST", "/admin/cut_off_date/", { token: demo.admin, body: { date: "20-12-2030" } }), ["date"]);
    expect((await callApi("GET", "/admin/cut_off_date/", { token: demo.staff })).body.cut_off_date).toBe(before);
  });
});

// ---------------------------------------------------------------- reminders

describe("POST /template/reminder/", () => {
  it("ADMIN reminds a partner: 'Reminder sent!' and the mail is in the outbox", async () => {
    const answer = await callApi("POST", "/template/reminder/", { token: demo.admin, body: { partner_id: demo.acme, template_type: "sales" } });
    expectAnswer("POST", "/template/reminder/", answer, 200);
    expect(answer.body).toEqual({ status: "OK", detail: "Reminder sent!", sent: [demo.acme], skipped: [] });
    const quarter = await getOpenQuarter();
    const [mail] = await mails();
    expect(mail).toMatchObject({ kind: "reminder", toAddress: "partner1@example.org", partnerId: demo.acme, reportType: "sales" });
    expect(mail.subject).toBe(`Reminder: your Sales Report for ${quarter.name} is due`);

    const filing = await callApi("POST", "/template/reminder/", { token: demo.admin, body: { partner_id: demo.acme, template_type: "filing plan" } });
    expect(filing.body.detail).toBe("Reminder sent!");
    expect((await mails())[1]).toMatchObject({ reportType: "filing" });

    // The page's rule: one reminder per partner and report an hour.
    const again = await callApi("POST", "/template/reminder/", { token: demo.admin, body: { partner_id: demo.acme, template_type: "sales" } });
    expectAnswer("POST", "/template/reminder/", again, 200);
    expect(again.body).toMatchObject({ detail: "No reminder sent: 1 skipped (already reminded in the last hour).", sent: [] });
    expect(await mails()).toHaveLength(2);
  });

  it("refuses STAFF and a partner reminding another partner (403); 400 by field; unknown partner 404: no mail", async () => {
    const body = { partner_id: demo.borealis, template_type: "pdt" };
    expectForbidden("POST", "/template/reminder/", await callApi("POST", "/template/reminder/", { token: demo.staff, body }));
    expectForbidden("POST", "/template/reminder/", await callApi("POST", "/template/reminder/", { token: demo.partner1, body }));
    const bad = await callApi("POST", "/template/reminder/", { token: demo.admin, body: { partner_id: -3, template_type: "invoice" } });
    expectInvalid("POST", "/template/reminder/", bad, ["partner_id", "template_type"]);
    expectAnswer(
      "POST",
      "/template/reminder/",
      await callApi("POST", "/template/reminder/", { token: demo.admin, body: { ...body, partner_id: 999999 } }),
      404,
    );
    expect(await mails()).toHaveLength(0);
  });
});

describe("POST /template/bulkReminder/", () => {
  it("ADMIN reminds several partners: one mail each, unknown ids and reports already submitted skipped with the reason", async () => {
    const answer = await callApi("POST", "/template/bulkReminder/", {
      token: demo.admin,
      body: { partner_ids: [demo.acme, demo.borealis], template_type: "filing plan" },
    });
    expectAnswer("POST", "/template/bulkReminder/", answer, 200);
    expect(answer.body).toEqual({ status: "OK", detail: "Reminder sent!", sent: [demo.acme, demo.borealis], skipped: [] });
    expect((await mails()).map((mail) => [mail.toAddress, mail.reportType])).toEqual([
      ["partner1@example.org", "filing"],
      ["partner2@example.org", "filing"],
    ]);

    // Demo seed: Acme's Sales Report is Saved, Borealis's is Approved.
    const mixed = await callApi("POST", "/template/bulkReminder/", {
      token: demo.admin,
      body: { partner_ids: [999999, demo.acme, demo.borealis], template_type: "sales" },
    });
    expectAnswer("POST", "/template/bulkReminder/", mixed, 200);
    expect(mixed.body).toMatchObject({
      sent: [demo.acme],
      skipped: [
        { partner_id: demo.borealis, reason: "report already submitted or approved" },
        { partner_id: 999999, reason: "partner not found" },
      ],
    });
    expect(mixed.body.detail).toContain("Reminder sent!");
  });

  it("without template_type each partner gets one mail listing every report it owes", async () => {
    // Demo seed, open quarter: Acme owes Filing Plans and Sales Report; Borealis owes Filing Plans.
    const answer = await callApi("POST", "/template/bulkReminder/", { token: demo.admin, body: { partner_ids: [demo.acme, demo.borealis] } });
    expectAnswer("POST", "/template/bulkReminder/", answer, 200);
    expect(answer.body).toEqual({ status: "OK", detail: "Reminder sent!", sent: [demo.acme, demo.borealis], skipped: [] });
    const [toAcme, toBorealis] = await mails();
    expect(toAcme.reportType).toBeNull();
    expect(toAcme.textBody).toContain("/partner/filing-plans");
    expect(toAcme.textBody).toContain("/partner/sales-report");
    expect(toAcme.textBody).not.toContain("/partner/development-timeline");
    expect(toBorealis).toMatchObject({ reportType: "filing" });
  });

  it("refuses STAFF and a partner (403) and an empty list (400): no mail", async () => {
    const body = { partner_ids: [demo.acme, demo.borealis], template_type: "sales" };
    expectForbidden("POST", "/template/bulkReminder/", await callApi("POST", "/template/bulkReminder/", { token: demo.staff, body }));
    expectForbidden("POST", "/template/bulkReminder/", await callApi("POST", "/template/bulkReminder/", { token: demo.partner1, body }));
    const empty = await callApi("POST", "/template/bulkReminder/", { token: demo.admin, body: { partner_ids: [], template_type: "sales" } });
    expectInvalid("POST", "/template/bulkReminder/", empty, ["partner_ids"]);
    expect(empty.body.errors.partner_ids).toEqual(["Please select a partner."]);
    expectInvalid(
      "POST",
      "/template/bulkReminder/",
      await callApi("POST", "/template/bulkReminder/", { token: demo.admin, body: { partner_id: demo.acme, template_type: "sales" } }),
      ["partner_id"],
    );
    expect(await mails()).toHaveLength(0);
  });
});

// ---------------------------------------------------------------- reference data and partner dashboard

describe("GET /country_list/", () => {
  it("every role reads the countries with their calling codes", async () => {
    for (const token of [demo.admin, demo.staff, demo.partner1]) {
      const answer = await callApi("GET", "/country_list/", { token });
      expectAnswer("GET", "/country_list/", answer, 200);
      expect(answer.body.countries).toContainEqual(expect.objectContaining({ country: "India", iso_code: "IN", calling_code: "+91" }));
    }
    const [{ total }] = await db.select({ total: count() }).from(countries);
    expect((await callApi("GET", "/country_list/", { token: demo.staff })).body.countries).toHaveLength(Number(total));
  });

  it("refuses a caller without a token (401)", async () => {
    const answer = await callApi("GET", "/country_list/");
    expectAnswer("GET", "/country_list/", answer, 401);
    expect(answer.body).toEqual({ status: "unauthorized", detail: "Session timeout!" });
  });
});

describe("GET /partner/dashboard/", () => {
  async function pageFigures(email: string) {
    const page = await runRoute(partnerDashboardLoader, buildRequest("/partner/dashboard", { cookie: await sessionCookieFor(email) }));
    expect(page.status).toBe(200);
    return page.data as PartnerGuidance;
  }

  it("a partner reads the figures of its dashboard page, and only its own", async () => {
    for (const [email, password] of [
      ["partner1@example.org", "partner-pass-1"],
      ["partner2@example.org", "partner-pass-2"],
    ]) {
      const answer = await callApi("GET", "/partner/dashboard/", { token: await apiToken(email, password) });
      expectAnswer("GET", "/partner/dashboard/", answer, 200);
      const page = await pageFigures(email);
      expect(answer.body.cut_off_date).toBe(formatDate(page.cutOff?.date));
      expect(answer.body.template_data).toMatchObject(
        page.tiles.map((tile) => ({
          template_type: tile.type === "filing" ? "filing plan" : tile.type,
          quarter_name: page.quarterName,
          report_status: tile.state,
          submission_time: tile.submittedAt ? new Date(tile.submittedAt).toISOString() : null,
          last_message: tile.lastMessage,
        })),
      );
      const partnerId = (await findUserByEmail(email))!.partnerId!;
      await expectTemplateData(
        answer.body.template_data.map(({ last_message: _, ...entry }: TemplateDataEntry & { last_message: string | null }) => entry),
        partnerId,
        "partner",
      );
    }
    const one = await callApi("GET", "/partner/dashboard/", { token: demo.partner1 });
    const two = await callApi("GET", "/partner/dashboard/", { token: await apiToken("partner2@example.org", "partner-pass-2") });
    expect(one.body.template_data.some((tile: { report_status: string }) => tile.report_status !== "not started")).toBe(true);
    expect(one.body.template_data).not.toEqual(two.body.template_data);
  });

  it("refuses ADMIN and STAFF (403)", async () => {
    expectForbidden("GET", "/partner/dashboard/", await callApi("GET", "/partner/dashboard/", { token: demo.admin }));
    expectForbidden("GET", "/partner/dashboard/", await callApi("GET", "/partner/dashboard/", { token: demo.staff }));
  });
});

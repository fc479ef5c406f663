import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { productVerifications } from "~/db/schema";
import { decideProductVerification } from "~/models/product-verification.server";
import { findUserByEmail } from "~/models/user.server";
import { apiToken, callApi, expectDocumented } from "../support/api";

const ADMIN = ["admin@example.org", "admin-pass-1"] as const;
const STAFF = ["staff@example.org", "staff-pass-1"] as const;
const ACME = ["partner1@example.org", "partner-pass-1"] as const;
const BOREALIS = ["partner2@example.org", "partner-pass-2"] as const;

const partnerIdOf = async (email: string) => (await findUserByEmail(email))!.partnerId!;

/** A saved API row of the report as a new row (no id), with another purchaser. */
function newRowFrom(row: Record<string, unknown>, purchaser: string) {
  const { id: _id, ...cells } = row;
  return { ...cells, purchaser };
}

describe("JSON API: the Sales Report", () => {
  it("a partner reads its own report; an administrator and STAFF read any partner's; a partner is refused another's", async () => {
    const acme = await partnerIdOf(ACME[0]);
    const own = await callApi("GET", "/template/sales/", { token: await apiToken(...ACME) });
    expect(own.status).toBe(200);
    expectDocumented("GET", "/template/sales/", own);
    expect(own.body.partner_id).toBe(acme);
    expect(own.body.template_data.API.length).toBeGreaterThan(0);
    expect(own.body.quarter_dropdown[0].name).toBe(own.body.quarter);

    const earlier = await callApi("GET", "/template/sales/", { token: await apiToken(...ACME), query: { quarter: own.body.quarter_dropdown[1].name } });
    expect(earlier.body.quarter).toBe(own.body.quarter_dropdown[1].name);

    for (const [email, password] of [ADMIN, STAFF]) {
      const read = await callApi("GET", "/template/sales/{partnerId}/".replace("{partnerId}", String(acme)), { token: await apiToken(email, password) });
      expect(read.status).toBe(200);
      expectDocumented("GET", "/template/sales/{partnerId}/", read);
      expect(read.body.template_data).toEqual(own.body.template_data);
    }
    const reaching = await callApi("GET", `/template/sales/${acme}/`, { token: await apiToken(...BOREALIS) });
    expect(reaching.status).toBe(403);
    expectDocumented("GET", "/template/sales/{partnerId}/", reaching);
    const adminOwn = await callApi("GET", "/template/sales/", { token: await apiToken(...ADMIN) });
    expect(adminOwn.status).toBe(403);
    expect((await callApi("GET", "/template/sales/99999/", { token: await apiToken(...ADMIN) })).status).toBe(404);
    expect((await callApi("GET", "/template/sales/abc/", { token: await apiToken(...ADMIN) })).status).toBe(400);
  });

  it("a save adds, changes and deletes rows in one go; an invalid row or a stale version saves nothing", async () => {
    const token = await apiToken(...ACME);
    const before = (await callApi("GET", "/template/sales/", { token })).body;
    const [first, second] = before.template_data.API;
    const body = {
      version: before.sales_meta.version,
      sales_report_id: [second.id],
      API: [
        { ...first, purchaser: "Changed Buyer Ltd" },
        // Typed loosely: the month as a number, the names in other cases; saved in their canonical spelling.
        { ...newRowFrom(first, "New Buyer Ltd"), month: "10", country: ` ${first.country.toUpperCase()} `, productName: first.productName.toLowerCase() },
      ],
      FDF: [],
    };

    const invalid = await callApi("POST", "/template/sales/", { token, body: { ...body, API: [{ ...newRowFrom(first, "Bad"), year: "1800" }] } });
    expect(invalid.status).toBe(400);
    expectDocumented("POST", "/template/sales/", invalid);
    expect(invalid.body.errors).toEqual({ "API.0": ["Year"] });
    const onlyYear = await callApi("POST", "/template/sales/", { token, body: { ...body, API: [{ year: first.year }] } });
    expect(onlyYear.status).toBe(400);
    expect(onlyYear.body.errors).toEqual({ "API.0": ["Month", "Country", "Api Name", "Quantity (Kg)"] });
    const unknownColumn = await callApi("POST", "/template/sales/", { token, body: { ...body, API: [{ ...first, royalty: "1" }] } });
    expect(unknownColumn.status).toBe(400);
    expect((await callApi("GET", "/template/sales/", { token })).body.template_data).toEqual(before.template_data);

    const saved = await callApi("POST", "/template/sales/", { token, body });
    expect(saved.status).toBe(200);
    expectDocumented("POST", "/template/sales/", saved);
    expect(saved.body.detail).toMatch(/^Data successfully recorded\. Total Rows: \d+/);
    const after = (await callApi("GET", "/template/sales/", { token })).body;
    const purchasers = after.template_data.API.map((row: { purchaser: string }) => row.purchaser);
    expect(purchasers).toContain("Changed Buyer Ltd");
    expect(after.template_data.API.find((row: { purchaser: string }) => row.purchaser === "New Buyer Ltd")).toMatchObject({
      month: "October",
      country: first.country,
      productName: first.productName,
    });
    expect(after.template_data.API.map((row: { id: number }) => row.id)).not.toContain(second.id);
    expect(after.template_data.API).toHaveLength(before.template_data.API.length);
    expect(after.sales_meta.version).toBe(saved.body.version);

    const stale = await callApi("POST", "/template/sales/", { token, body });
    expect(stale.status).toBe(409);
    expectDocumented("POST", "/template/sales/", stale);
    expect(stale.body.detail).toContain("after you opened it");
  });

  it("STAFF saves nothing; a partner cannot save through the administrators' path; another partner's rows are not reachable", async () => {
    const acme = await partnerIdOf(ACME[0]);
    const borealisToken = await apiToken(...BOREALIS);
    const borealis = (await callApi("GET", "/template/sales/", { token: borealisToken })).body;
    const staff = await callApi("POST", `/template/sales/${acme}/`, { token: await apiToken(...STAFF), body: { version: 0 } });
    expect(staff.status).toBe(403);
    expectDocumented("POST", "/template/sales/{partnerId}/", staff);
    expect((await callApi("POST", `/template/sales/${acme}/`, { token: borealisToken, body: { version: 0 } })).status).toBe(403);

    // Acme's token naming a Borealis row id: refused, Borealis's row unchanged.
    const acmeToken = await apiToken(...ACME);
    const acmeReport = (await callApi("GET", "/template/sales/", { token: acmeToken })).body;
    const foreign = borealis.template_data.API[0];
    const reaching = await callApi("POST", "/template/sales/", { token: acmeToken, body: { version: acmeReport.sales_meta.version, API: [{ ...foreign, purchaser: "Hijacked" }] } });
    expect(reaching.status).toBeGreaterThanOrEqual(400);
    expect(reaching.status).toBeLessThan(500);
    expect((await callApi("GET", "/template/sales/", { token: borealisToken })).body.template_data).toEqual(borealis.template_data);
  });

  it("the partner submits with a comment; the administrator rejects, the partner reads the message; resubmitted and approved", async () => {
    const acme = await partnerIdOf(ACME[0]);
    const token = await apiToken(...ACME);
    const admin = await apiToken(...ADMIN);
    const version = (await callApi("GET", "/template/sales/", { token })).body.sales_meta.version;

    const noComment = await callApi("POST", "/template/sales/submit/", { token, body: { message: "", version } });
    expect(noComment.status, JSON.stringify(noComment.body)).toBe(400);
    expect(noComment.body.detail).toBe("Enter comments for admin");
    expect((await callApi("POST", "/template/sales/submit/", { token: admin, body: { message: "x", version } })).status).toBe(403);

    const submitted = await callApi("POST", "/template/sales/submit/", { token, body: { message: "Q4 as agreed.", version } });
    expect(submitted.status).toBe(200);
    expectDocumented("POST", "/template/sales/submit/", submitted);
    expect(submitted.body.detail).toBe("Report has been submitted to the admin!");
    expect((await callApi("GET", `/template/sales/${acme}/`, { token: admin })).body.sales_meta.status).toBe("Submitted");

    const staffDecision = await callApi("POST", "/template/sales/message/", { token: await apiToken(...STAFF), body: { partner_id: acme, message: "No.", is_approved: false } });
    expect(staffDecision.status).toBe(403);
    expectDocumented("POST", "/template/sales/message/", staffDecision);
    // The administrator first settles the product name Acme's seeded report asks to verify.
    const adminUser = (await findUserByEmail(ADMIN[0]))!;
    for (const pending of await db.select().from(productVerifications).where(eq(productVerifications.status, "pending"))) {
      await decideProductVerification({ actor: adminUser, verificationId: pending.id, decision: "reject", mapToProductId: null, newProduct: null, projectStatus: null });
    }
    const rejected = await callApi("POST", "/template/sales/message/", { token: admin, body: { partner_id: acme, message: "Please add October.", is_approved: false } });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expectDocumented("POST", "/template/sales/message/", rejected);
    expect(rejected.body.detail).toBe("Report Rejected!");

    const unread = (await callApi("GET", "/template/sales/", { token })).body;
    expect(unread.sales_meta.status).toBe("Rejected");
    expect(unread.unread_message_count).toBe(1);
    expect(unread.messages.at(-1)).toMatchObject({ from: "admin", message: "Please add October.", is_approved: false });
    const read = await callApi("POST", "/template/sales/inbox/partner", { token, body: {} });
    expect(read.status).toBe(200);
    expectDocumented("POST", "/template/sales/inbox/{who}", read);
    expect((await callApi("GET", "/template/sales/", { token })).body.unread_message_count).toBe(0);
    expect((await callApi("POST", "/template/sales/inbox/admin", { token, body: {} })).status).toBe(400);

    const resubmitted = await callApi("POST", "/template/sales/submit/", { token, body: { message: "October added.", version: unread.sales_meta.version } });
    expect(resubmitted.status).toBe(200);
    const approved = await callApi("POST", "/template/sales/message/", { token: admin, body: { partner_id: acme, message: "Thank you.", is_approved: true } });
    expect(approved.body.detail).toBe("Report Approved!");
    const final = (await callApi("GET", "/template/sales/", { token })).body;
    expect(final.sales_meta.status).toBe("Approved");
    expect(final.sales_meta.can_edit).toBe(false);
  });
});

describe("JSON API: one quarter by machine alone", () => {
  it("a partner saves and submits sales rows, the administrator approves; the consolidated report and the dashboard show them", async () => {
    const token = await apiToken(...ACME);
    const report = (await callApi("GET", "/template/sales/", { token })).body;
    const template = report.template_data.API[0];
    const saved = await callApi("POST", "/template/sales/", {
      token,
      body: { version: report.sales_meta.version, API: [{ ...newRowFrom(template, "Machine Buyer Ltd"), quantity: "1000", totalValue: "777777" }] },
    });
    expect(saved.status).toBe(200);
    const submitted = await callApi("POST", "/template/sales/submit/", { token, body: { message: "Sent by our ERP.", version: saved.body.version } });
    expect(submitted.status).toBe(200);

    const admin = await apiToken(...ADMIN);
    const acme = report.partner_id;
    const pending = await callApi("GET", `/template/product_verification/${acme}`, { token: admin });
    expect(pending.status).toBe(200);
    // Settle the seeded pending product names by API too, then approve.
    for (const verification of await db.select().from(productVerifications).where(eq(productVerifications.status, "pending"))) {
      const decided = await callApi("POST", `/template/product_verification/${acme}`, { token: admin, body: { product_verification_id: verification.id, is_approved: false } });
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    }
    const approved = await callApi("POST", "/template/sales/message/", { token: admin, body: { partner_id: acme, message: "Approved by API.", is_approved: true } });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);

    const consolidated = await callApi("POST", "/report/sales/api", { token: admin, body: { partner_id: acme, purchaser: "Machine Buyer" } });
    expect(consolidated.status, JSON.stringify(consolidated.body)).toBe(200);
    expectDocumented("POST", "/report/sales/{x}", consolidated);
    expect(consolidated.body.count).toBe(1);
    expect(JSON.stringify(consolidated.body.rows[0])).toContain("Machine Buyer Ltd");
    expect(JSON.stringify(consolidated.body.rows[0])).toContain("Approved");

    // The dashboard counts approved reports only: the row's value is in Acme's sales value now.
    const byCompany = await callApi("GET", "/admin/dashboard/sales/", { token: admin, query: { map_with: "company", for: "product" } });
    expect(byCompany.status, JSON.stringify(byCompany.body)).toBe(200);
    expectDocumented("GET", "/admin/dashboard/sales/", byCompany);
    const acmeRows = byCompany.body.rows.filter((row: Record<string, unknown>) => Object.values(row).includes(report.company_name));
    const values = acmeRows.flatMap((row: Record<string, unknown>) => Object.values(row)).map(String);
    expect(values.some((value: string) => Number(value.replace(/,/g, "")) >= 777777)).toBe(true);
  });
});

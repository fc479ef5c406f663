/**
 * The JSON API of the Filing Plans (spec section 7): every call allowed (answer documented, effect read
 * back), refused for a role, for another partner's report, on a stale version or a state that
 * does not allow it, and on invalid input.
 */
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { products } from "~/db/schema";
import { openQuarterRef } from "~/models/quarter.server";
import { addQuarters, quarterName } from "~/utils/quarters";
import { callApi, demoSignIn, expectDocumented, expectRefused, expectStatus } from "../support/api";

const lastQuarter = quarterName(addQuarters(openQuarterRef(), -1));

let admin: string;
let staff: string;
let partner1: string;
let partner2: string;
let partner3: string;
let acme: number;
let borealis: number;
let cedar: number;

async function signIn() {
  ({ admin, staff, partner1, partner2, partner3, acme, borealis, cedar } = await demoSignIn());
}

describe("Filing Plans calls", () => {
  const ownFiling = async (token: string, query?: Record<string, string>) => {
    const answer = await callApi("GET", "/template/filing/", { token, query });
    expectStatus(answer, 200);
    return answer.body;
  };
  const adminFiling = async (partnerId: number, query?: Record<string, string>) => {
    const answer = await callApi("GET", `/template/filing/${partnerId}/`, { token: admin, query });
    expectStatus(answer, 200);
    return answer.body;
  };
  /** A cell to change: the first country, the first product, and a status of its list other than the cell's. */
  function aChange(view: any) {
    const product = view.product_details[0];
    const row = view.template_data[0];
    const status = view.status_dropdown[product.product_type].find((s: string) => s !== row.cells[String(product.product_id)]);
    return { countryId: row.country_id, productId: product.product_id, status };
  }

  it("GET /template/filing/: the partner's own plans; refused to admin, checked input", async () => {
    await signIn();
    const answer = await callApi("GET", "/template/filing/", { token: partner1 });
    expectStatus(answer, 200);
    expectDocumented("GET", "/template/filing/", answer);
    expect(answer.body.partner_id).toBe(acme);
    expect(answer.body.filing_meta.status).toBe("Rejected");
    expect(answer.body.product_details.length).toBeGreaterThan(0);
    expect(answer.body.template_data.length).toBeGreaterThan(100);
    expect(answer.body.status_dropdown.FDF).toContain("Filed");
    const filled = answer.body.template_data.flatMap((row: any) => Object.values(row.cells)).filter((status: unknown) => status !== "0");
    expect(filled.length).toBeGreaterThan(0);

    expectRefused("GET", "/template/filing/", await callApi("GET", "/template/filing/", { token: admin }), 403);
    const bad = await callApi("GET", "/template/filing/", { token: partner1, query: { quarter: "x".repeat(30) } });
    expectRefused("GET", "/template/filing/", bad, 400);
    expect(bad.body.errors["query.quarter"]).toBeDefined();
    const unknownQuery = await callApi("GET", "/template/filing/", { token: partner1, query: { page: "2" } });
    expectRefused("GET", "/template/filing/", unknownQuery, 400);
  });

  it("GET /template/filing/{partnerId}/: administrators read any partner's; partners are refused", async () => {
    await signIn();
    for (const token of [admin, staff]) {
      const answer = await callApi("GET", `/template/filing/${cedar}/`, { token, query: { quarter: lastQuarter } });
      expectStatus(answer, 200);
      expectDocumented("GET", "/template/filing/{partnerId}/", answer);
      expect(answer.body).toMatchObject({ partner_id: cedar, quarter: lastQuarter });
      expect(answer.body.filing_meta.status).toBe("Approved");
    }
    expectRefused("GET", "/template/filing/{partnerId}/", await callApi("GET", `/template/filing/${cedar}/`, { token: partner1 }), 403);
    const bad = await callApi("GET", "/template/filing/0/", { token: admin });
    expectRefused("GET", "/template/filing/{partnerId}/", bad, 400);
    expect(bad.body.errors["path.partnerId"]).toBeDefined();
  });

  it("POST /template/filing/: the partner saves cells; refused to staff, on a stale version, on invalid cells", async () => {
    await signIn();
    const before = await ownFiling(partner2);
    expect(before.filing_meta.status).toBeNull();
    const change = aChange(before);
    const second = before.product_details[1] ?? before.product_details[0];
    const emptied = before.template_data.find((row: any) => row.cells[String(second.product_id)] !== "0" && row.country_id !== change.countryId);
    const cells: Record<string, Record<string, string>> = { [change.countryId]: { [change.productId]: change.status.toUpperCase() } };
    if (emptied) cells[emptied.country_id] = { [second.product_id]: "" };
    const body = { version: before.filing_meta.version, cells };
    const saved = await callApi("POST", "/template/filing/", { token: partner2, body });
    expectStatus(saved, 200);
    expectDocumented("POST", "/template/filing/", saved);

    const after = await ownFiling(partner2);
    const row = after.template_data.find((r: any) => r.country_id === change.countryId);
    expect(row.cells[String(change.productId)]).toBe(change.status);
    if (emptied) expect(after.template_data.find((r: any) => r.country_id === emptied.country_id).cells[String(second.product_id)]).toBe("0");
    expect(after.filing_meta).toMatchObject({ status: "Saved", version: saved.body.version });

    expectRefused("POST", "/template/filing/", await callApi("POST", "/template/filing/", { token: staff, body }), 403);
    expectRefused("POST", "/template/filing/", await callApi("POST", "/template/filing/", { token: partner2, body }), 409);

    const current = after.filing_meta.version;
    const invalid = await callApi("POST", "/template/filing/", { token: partner2, body: { version: current, cells: { [change.countryId]: { [change.productId]: "Bogus" } } } });
    expectRefused("POST", "/template/filing/", invalid, 400);
    expect(Object.keys(invalid.body.errors)).toEqual([`cells.${change.countryId}.${change.productId}`]);
    const badKey = await callApi("POST", "/template/filing/", { token: partner2, body: { version: current, cells: { [`0${change.countryId}`]: { [change.productId]: "Filed" } } } });
    expectRefused("POST", "/template/filing/", badKey, 400);
    expect(badKey.body.errors[`cells.0${change.countryId}`]).toEqual(["Not a country id."]);
    expect((await ownFiling(partner2)).filing_meta.version).toBe(current);

    // Another partner's product is not a column of this partner's plans.
    const [foreign] = await db.select({ id: products.id }).from(products);
    const foreignId = after.product_details.some((p: any) => p.product_id === foreign.id) ? null : foreign.id;
    const otherProduct = foreignId ?? (await adminFiling(acme)).product_details.find((p: any) => !after.product_details.some((own: any) => own.product_id === p.product_id))?.product_id;
    expect(otherProduct).toBeDefined();
    const reaching = await callApi("POST", "/template/filing/", { token: partner2, body: { version: current, cells: { [change.countryId]: { [otherProduct]: "Filed" } } } });
    expectRefused("POST", "/template/filing/", reaching, 400);
  });

  it("POST /template/filing/{partnerId}/: an administrator saves; refused to partners, stale, invalid", async () => {
    await signIn();
    const before = await adminFiling(acme);
    const change = aChange(before);
    const body = { version: before.filing_meta.version, cells: { [change.countryId]: { [change.productId]: change.status } } };
    const saved = await callApi("POST", `/template/filing/${acme}/`, { token: admin, body });
    expectStatus(saved, 200);
    expectDocumented("POST", "/template/filing/{partnerId}/", saved);
    const after = await adminFiling(acme);
    expect(after.template_data.find((r: any) => r.country_id === change.countryId).cells[String(change.productId)]).toBe(change.status);
    expect(after.filing_meta.status).toBe("Rejected");

    // Partner 1 reaching for its own through the admin path, partner 2 for partner 1's.
    expectRefused("POST", "/template/filing/{partnerId}/", await callApi("POST", `/template/filing/${acme}/`, { token: partner2, body }), 403);
    expectRefused("POST", "/template/filing/{partnerId}/", await callApi("POST", `/template/filing/${acme}/`, { token: staff, body }), 403);
    expectRefused("POST", "/template/filing/{partnerId}/", await callApi("POST", `/template/filing/${acme}/`, { token: admin, body }), 409);
    const invalid = await callApi("POST", `/template/filing/${acme}/`, { token: admin, body: { version: after.filing_meta.version, cells: { [change.countryId]: { [change.productId]: 7 } } } });
    expectRefused("POST", "/template/filing/{partnerId}/", invalid, 400);
    expect(invalid.body.errors[`cells.${change.countryId}.${change.productId}`]).toBeDefined();
  });

  it("POST /template/filing/submit/: the partner resubmits with a comment; refused to staff, stale, without a comment", async () => {
    await signIn();
    const before = await ownFiling(partner1);
    const body = { message: "Corrected filings.", version: before.filing_meta.version };
    expectRefused("POST", "/template/filing/submit/", await callApi("POST", "/template/filing/submit/", { token: staff, body }), 403);
    expectRefused("POST", "/template/filing/submit/", await callApi("POST", "/template/filing/submit/", { token: partner1, body: { ...body, version: body.version + 1 } }), 409);
    const invalid = await callApi("POST", "/template/filing/submit/", { token: partner1, body: { message: "Corrected filings.", version: -1 } });
    expectRefused("POST", "/template/filing/submit/", invalid, 400);
    expect(invalid.body.errors.version).toBeDefined();
    // An empty comment: the workflow asks for one, nothing changes.
    const empty = await callApi("POST", "/template/filing/submit/", { token: partner1, body: { ...body, message: "  " } });
    expectRefused("POST", "/template/filing/submit/", empty, 400);
    expect(empty.body.detail).toBe("Enter comments for admin");
    const reaching = await callApi("POST", "/template/filing/submit/", { token: partner1, body: { ...body, partner_id: borealis } });
    expectRefused("POST", "/template/filing/submit/", reaching, 400);
    expect((await ownFiling(partner1)).filing_meta.status).toBe("Rejected");

    const submitted = await callApi("POST", "/template/filing/submit/", { token: partner1, body });
    expectStatus(submitted, 200);
    expectDocumented("POST", "/template/filing/submit/", submitted);
    const after = await adminFiling(acme);
    expect(after.filing_meta.status).toBe("Resubmitted");
    expect(after.messages.at(-1)).toMatchObject({ from: "partner", message: "Corrected filings." });
  });

  it("POST /template/filing/message/: the admin decides a submitted report; refused to partners, to a report not submitted", async () => {
    await signIn();
    const before = await ownFiling(partner3);
    const submitted = await callApi("POST", "/template/filing/submit/", { token: partner3, body: { message: "Nothing new.", version: before.filing_meta.version } });
    expectStatus(submitted, 200);
    const body = { partner_id: cedar, message: "Approved, thanks.", is_approved: true };
    expectRefused("POST", "/template/filing/message/", await callApi("POST", "/template/filing/message/", { token: partner3, body }), 403);
    expectRefused("POST", "/template/filing/message/", await callApi("POST", "/template/filing/message/", { token: staff, body }), 403);
    const invalid = await callApi("POST", "/template/filing/message/", { token: admin, body: { ...body, partner_id: "someone" } });
    expectRefused("POST", "/template/filing/message/", invalid, 400);
    expect(invalid.body.errors.partner_id).toBeDefined();
    // Partner 2 has not submitted this quarter's plans.
    expectRefused("POST", "/template/filing/message/", await callApi("POST", "/template/filing/message/", { token: admin, body: { ...body, partner_id: borealis } }), 409);
    expectRefused("POST", "/template/filing/message/", await callApi("POST", "/template/filing/message/", { token: admin, body: { ...body, partner_id: 999999 } }), 404);

    const approved = await callApi("POST", "/template/filing/message/", { token: admin, body });
    expectStatus(approved, 200);
    expectDocumented("POST", "/template/filing/message/", approved);
    const after = await ownFiling(partner3);
    expect(after.filing_meta.status).toBe("Approved");
    expect(after.filing_meta.can_edit).toBe(false);
    expect(after.unread_message_count).toBe(1);
  });

  it("POST /template/filing/inbox/{who}: each side reads its messages; a partner cannot read another's", async () => {
    await signIn();
    // Partner 1's rejection waits unread by the partner.
    expect((await ownFiling(partner1)).unread_message_count).toBe(1);
    const own = await callApi("POST", "/template/filing/inbox/partner", { token: partner1, body: {} });
    expectStatus(own, 200);
    expectDocumented("POST", "/template/filing/inbox/{who}", own);
    expect(own.body.unread_message_count).toBe(0);
    expect((await ownFiling(partner1)).unread_message_count).toBe(0);

    const version = (await ownFiling(partner1)).filing_meta.version;
    expectStatus(await callApi("POST", "/template/filing/submit/", { token: partner1, body: { message: "Corrected.", version } }), 200);
    expect((await adminFiling(acme)).unread_message_count).toBe(1);
    const staffRead = await callApi("POST", "/template/filing/inbox/admin", { token: staff, body: { partner_id: acme } });
    expectStatus(staffRead, 200);
    expect(staffRead.body.unread_message_count).toBe(1);
    const adminRead = await callApi("POST", "/template/filing/inbox/admin", { token: admin, body: { partner_id: acme } });
    expectStatus(adminRead, 200);
    expectDocumented("POST", "/template/filing/inbox/{who}", adminRead);
    expect((await adminFiling(acme)).unread_message_count).toBe(0);

    expectRefused("POST", "/template/filing/inbox/{who}", await callApi("POST", "/template/filing/inbox/partner", { token: partner3, body: { partner_id: acme } }), 403);
    expectRefused("POST", "/template/filing/inbox/{who}", await callApi("POST", "/template/filing/inbox/partner", { token: admin, body: { partner_id: acme } }), 400);
    const invalid = await callApi("POST", "/template/filing/inbox/someone", { token: admin, body: { partner_id: acme } });
    expectRefused("POST", "/template/filing/inbox/{who}", invalid, 400);
    expect(invalid.body.errors["path.who"]).toBeDefined();
  });
});

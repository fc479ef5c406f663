/**
 * The JSON API of the Development Timeline (spec section 7): every call allowed (answer documented, effect read
 * back), refused for a role, for another partner's report, on a stale version or a state that
 * does not allow it, and on invalid input.
 */
import { describe, expect, it } from "vitest";
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
describe("PDT calls", () => {
  const ownPdt = async (token: string, query?: Record<string, string>) => {
    const answer = await callApi("GET", "/template/pdt/", { token, query });
    expectStatus(answer, 200);
    return answer.body;
  };
  const adminPdt = async (partnerId: number, query?: Record<string, string>) => {
    const answer = await callApi("GET", `/template/pdt/${partnerId}/`, { token: admin, query });
    expectStatus(answer, 200);
    return answer.body;
  };

  it("GET /template/pdt/: the partner's own timeline; refused to staff, checked input", async () => {
    await signIn();
    const answer = await callApi("GET", "/template/pdt/", { token: partner1 });
    expectStatus(answer, 200);
    expectDocumented("GET", "/template/pdt/", answer);
    expect(answer.body.partner_id).toBe(acme);
    expect(answer.body.quarter).toBe(quarterName(openQuarterRef()));
    expect(answer.body.pdt_meta.status).toBe("Submitted");
    expect(answer.body.template_data.length).toBeGreaterThan(0);
    expect(answer.body.quarter_dropdown[0].name).toBe(answer.body.quarter);

    const earlier = await callApi("GET", "/template/pdt/", { token: partner1, query: { quarter: lastQuarter } });
    expectStatus(earlier, 200);
    expect(earlier.body.quarter).toBe(lastQuarter);
    expect(earlier.body.pdt_meta.status).toBe("Approved");

    expectRefused("GET", "/template/pdt/", await callApi("GET", "/template/pdt/", { token: staff }), 403);
    const bad = await callApi("GET", "/template/pdt/", { token: partner1, query: { quarter: "x".repeat(30) } });
    expectRefused("GET", "/template/pdt/", bad, 400);
    expect(bad.body.errors["query.quarter"]).toBeDefined();
    const unknown = await callApi("GET", "/template/pdt/", { token: partner1, query: { quarter: "Q3 2199" } });
    expectRefused("GET", "/template/pdt/", unknown, 404);
  });

  it("GET /template/pdt/{partnerId}/: administrators read any partner's; partners are refused", async () => {
    await signIn();
    for (const token of [admin, staff]) {
      const answer = await callApi("GET", `/template/pdt/${borealis}/`, { token });
      expectStatus(answer, 200);
      expectDocumented("GET", "/template/pdt/{partnerId}/", answer);
      expect(answer.body.partner_id).toBe(borealis);
      expect(answer.body.pdt_meta.status).toBe("Resubmitted");
    }
    // A partner reaching for another partner's report, and for its own through the admin path.
    expectRefused("GET", "/template/pdt/{partnerId}/", await callApi("GET", `/template/pdt/${borealis}/`, { token: partner1 }), 403);
    expectRefused("GET", "/template/pdt/{partnerId}/", await callApi("GET", `/template/pdt/${acme}/`, { token: partner1 }), 403);
    const bad = await callApi("GET", "/template/pdt/abc/", { token: admin });
    expectRefused("GET", "/template/pdt/{partnerId}/", bad, 400);
    expect(bad.body.errors["path.partnerId"]).toBeDefined();
    expectRefused("GET", "/template/pdt/{partnerId}/", await callApi("GET", "/template/pdt/999999/", { token: admin }), 404);
  });

  it("POST /template/pdt/: the partner saves a row and a status; refused to admin, on a stale version, on invalid cells", async () => {
    await signIn();
    const before = await ownPdt(partner3);
    expect(before.pdt_meta.status).toBeNull();
    const row = before.template_data[1];
    const otherStatus = row.product_status === "ON_HOLD" ? "FILED" : "ON_HOLD";
    const body = {
      version: before.pdt_meta.version,
      rows: [{ product_id: row.product_id, stage_id: row.stage_id, status: otherStatus, notes: "Moved to the new line.", start_date: "2/3/2031", end_date: "2031-04-05" }],
    };
    const saved = await callApi("POST", "/template/pdt/", { token: partner3, body });
    expectStatus(saved, 200);
    expectDocumented("POST", "/template/pdt/", saved);
    expect(saved.body.version).toBe(before.pdt_meta.version + 1);

    const after = await ownPdt(partner3);
    const read = after.template_data.find((r: any) => r.product_id === row.product_id && r.stage_id === row.stage_id);
    expect(read).toMatchObject({ notes: "Moved to the new line.", start_date: "2031-02-03", end_date: "2031-04-05", product_status: otherStatus });
    expect(after.pdt_meta).toMatchObject({ status: "Saved", version: saved.body.version });

    // Refused: an administrator on the partner's path, the version read before the save.
    expectRefused("POST", "/template/pdt/", await callApi("POST", "/template/pdt/", { token: admin, body }), 403);
    const stale = await callApi("POST", "/template/pdt/", { token: partner3, body });
    expectRefused("POST", "/template/pdt/", stale, 409);

    // Invalid cells: nothing saved, the posted row and field named.
    const current = after.pdt_meta.version;
    const invalid = await callApi("POST", "/template/pdt/", {
      token: partner3,
      body: { version: current, rows: [{ ...body.rows[0], notes: "Other", start_date: "13/45/2031" }] },
    });
    expectRefused("POST", "/template/pdt/", invalid, 400);
    expect(invalid.body.errors["rows.0.start_date"]).toBeDefined();
    const twice = await callApi("POST", "/template/pdt/", { token: partner3, body: { version: current, rows: [body.rows[0], body.rows[0]] } });
    expectRefused("POST", "/template/pdt/", twice, 400);
    expect(Object.keys(twice.body.errors)).toEqual(["rows.1"]);
    const unknownField = await callApi("POST", "/template/pdt/", { token: partner3, body: { version: current, rows: [], partner_id: acme } });
    expectRefused("POST", "/template/pdt/", unknownField, 400);
    expect(unknownField.body.errors.partner_id).toEqual(["Unknown field."]);
    expect((await ownPdt(partner3)).template_data.find((r: any) => r.stage_id === row.stage_id && r.product_id === row.product_id).notes).toBe("Moved to the new line.");

    // Another partner's product is not part of this report.
    const acmeRow = (await adminPdt(acme)).template_data.find((r: any) => !after.template_data.some((own: any) => own.product_id === r.product_id));
    expect(acmeRow).toBeDefined();
    const foreign = await callApi("POST", "/template/pdt/", {
      token: partner3,
      body: { version: current, rows: [{ product_id: acmeRow.product_id, stage_id: acmeRow.stage_id, notes: "", start_date: "", end_date: "" }] },
    });
    expectRefused("POST", "/template/pdt/", foreign, 400);
  });

  it("POST /template/pdt/{partnerId}/: an administrator saves any quarter; refused to staff and partners", async () => {
    await signIn();
    const before = await adminPdt(borealis, { quarter: lastQuarter });
    const row = before.template_data[0];
    const body = { version: before.pdt_meta.version, rows: [{ product_id: row.product_id, stage_id: row.stage_id, notes: "Corrected by MPP.", start_date: "1/15/2030", end_date: "" }] };
    const saved = await callApi("POST", `/template/pdt/${borealis}/`, { token: admin, body, query: { quarter: lastQuarter } });
    expectStatus(saved, 200);
    expectDocumented("POST", "/template/pdt/{partnerId}/", saved);

    const after = await adminPdt(borealis, { quarter: lastQuarter });
    expect(after.template_data[0]).toMatchObject({ notes: "Corrected by MPP.", start_date: "2030-01-15", end_date: null });
    expect(after.pdt_meta.status).toBe("Approved");
    expect(after.pdt_meta.version).toBe(before.pdt_meta.version + 1);

    expectRefused("POST", "/template/pdt/{partnerId}/", await callApi("POST", `/template/pdt/${borealis}/`, { token: staff, body }), 403);
    expectRefused("POST", "/template/pdt/{partnerId}/", await callApi("POST", `/template/pdt/${borealis}/`, { token: partner1, body }), 403);
    const stale = await callApi("POST", `/template/pdt/${borealis}/`, { token: admin, body, query: { quarter: lastQuarter } });
    expectRefused("POST", "/template/pdt/{partnerId}/", stale, 409);
    const invalid = await callApi("POST", `/template/pdt/${borealis}/`, {
      token: admin,
      query: { quarter: lastQuarter },
      body: { version: after.pdt_meta.version, rows: [{ ...body.rows[0], status: "Sleeping" }] },
    });
    expectRefused("POST", "/template/pdt/{partnerId}/", invalid, 400);
    expect(invalid.body.errors["rows.0.status"]).toBeDefined();
  });

  it("POST /template/pdt/submit/: the partner submits with a comment; refused to admin, stale, or without a comment", async () => {
    await signIn();
    const before = await ownPdt(partner3);
    const body = { message: "Our timeline for the quarter.", version: before.pdt_meta.version };
    expectRefused("POST", "/template/pdt/submit/", await callApi("POST", "/template/pdt/submit/", { token: admin, body }), 403);
    expectRefused("POST", "/template/pdt/submit/", await callApi("POST", "/template/pdt/submit/", { token: partner3, body: { ...body, version: before.pdt_meta.version + 5 } }), 409);
    const missing = await callApi("POST", "/template/pdt/submit/", { token: partner3, body: { version: before.pdt_meta.version } });
    expectRefused("POST", "/template/pdt/submit/", missing, 400);
    expect(missing.body.errors.message).toBeDefined();
    // Naming another partner is no field of a submission.
    const reaching = await callApi("POST", "/template/pdt/submit/", { token: partner3, body: { ...body, partner_id: acme } });
    expectRefused("POST", "/template/pdt/submit/", reaching, 400);
    expect((await ownPdt(partner3)).pdt_meta.status).toBeNull();

    const submitted = await callApi("POST", "/template/pdt/submit/", { token: partner3, body });
    expectStatus(submitted, 200);
    expectDocumented("POST", "/template/pdt/submit/", submitted);
    expect(submitted.body.detail).toBe("Report has been submitted to the admin!");
    const after = await adminPdt(cedar);
    expect(after.pdt_meta.status).toBe("Submitted");
    expect(after.messages.at(-1)).toMatchObject({ from: "partner", message: "Our timeline for the quarter." });
    // Submitted again without a change: the state does not allow it.
    const again = await callApi("POST", "/template/pdt/submit/", { token: partner3, body: { ...body, version: after.pdt_meta.version } });
    expectRefused("POST", "/template/pdt/submit/", again, 409);
  });

  it("POST /template/pdt/message/: the admin approves or rejects; refused to staff and partners, to a report not submitted", async () => {
    await signIn();
    const body = { partner_id: acme, message: "Thank you.", is_approved: true };
    expectRefused("POST", "/template/pdt/message/", await callApi("POST", "/template/pdt/message/", { token: staff, body }), 403);
    expectRefused("POST", "/template/pdt/message/", await callApi("POST", "/template/pdt/message/", { token: partner2, body }), 403);
    const invalid = await callApi("POST", "/template/pdt/message/", { token: admin, body: { partner_id: acme, message: "Thank you." } });
    expectRefused("POST", "/template/pdt/message/", invalid, 400);
    expect(invalid.body.errors.is_approved).toBeDefined();
    // Partner 3 has not submitted this quarter's timeline.
    expectRefused("POST", "/template/pdt/message/", await callApi("POST", "/template/pdt/message/", { token: admin, body: { ...body, partner_id: cedar } }), 409);

    const approved = await callApi("POST", "/template/pdt/message/", { token: admin, body });
    expectStatus(approved, 200);
    expectDocumented("POST", "/template/pdt/message/", approved);
    expect(approved.body.detail).toBe("Report Approved!");
    expect((await adminPdt(acme)).pdt_meta.status).toBe("Approved");
    expect((await ownPdt(partner1)).pdt_meta.can_edit).toBe(false);

    const rejected = await callApi("POST", "/template/pdt/message/", { token: admin, body: { partner_id: borealis, message: "Please check the dates.", is_approved: false } });
    expectStatus(rejected, 200);
    expect(rejected.body.detail).toBe("Report Rejected!");
    const partnerView = await ownPdt(partner2);
    expect(partnerView.pdt_meta.status).toBe("Rejected");
    expect(partnerView.messages.at(-1)).toMatchObject({ from: "admin", message: "Please check the dates.", is_approved: false });
    // Decided already: a second decision is refused.
    expectRefused("POST", "/template/pdt/message/", await callApi("POST", "/template/pdt/message/", { token: admin, body }), 409);
  });

  it("POST /template/pdt/inbox/{who}: each side reads its messages; a partner cannot read another's", async () => {
    await signIn();
    // Partner 1's submission waits unread by the administrators.
    expect((await adminPdt(acme)).unread_message_count).toBe(1);
    const read = await callApi("POST", "/template/pdt/inbox/admin", { token: admin, body: { partner_id: acme } });
    expectStatus(read, 200);
    expectDocumented("POST", "/template/pdt/inbox/{who}", read);
    expect(read.body.unread_message_count).toBe(0);
    expect((await adminPdt(acme)).unread_message_count).toBe(0);

    await callApi("POST", "/template/pdt/message/", { token: admin, body: { partner_id: acme, message: "Please check the dates.", is_approved: false } });
    expect((await ownPdt(partner1)).unread_message_count).toBe(1);
    const own = await callApi("POST", "/template/pdt/inbox/partner", { token: partner1, body: {} });
    expectStatus(own, 200);
    expectDocumented("POST", "/template/pdt/inbox/{who}", own);
    expect((await ownPdt(partner1)).unread_message_count).toBe(0);

    // Refused: another partner's report, the administrators' side, an id that is none.
    expectRefused("POST", "/template/pdt/inbox/{who}", await callApi("POST", "/template/pdt/inbox/partner", { token: partner2, body: { partner_id: acme } }), 403);
    expectRefused("POST", "/template/pdt/inbox/{who}", await callApi("POST", "/template/pdt/inbox/admin", { token: partner1, body: {} }), 400);
    const invalid = await callApi("POST", "/template/pdt/inbox/admin", { token: admin, body: { partner_id: "x" } });
    expectRefused("POST", "/template/pdt/inbox/{who}", invalid, 400);
    expect(invalid.body.errors.partner_id).toBeDefined();
  });
});

// ---------------------------------------------------------------- Filing Plans

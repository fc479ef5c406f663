/**
 * The JSON API of the Development Timeline (spec section 7): every call allowed (answer documented, effect read
 * back), refused for a role, for another partner's report, on a stale version or a state that
 * does not allow it, and on invalid input.
 */
import { describe, expect, it } from "vitest";
import { openQuarterRef } from "~/models/quarter.server";
import { addQuarters, quarterName } from "~/utils/quarters";
import { callApi, demoSignInBeforeEach, expectDocumented, expectRefused, expectStatus } from "../support/api";

const openQuarter = quarterName(openQuarterRef());
const lastQuarter = quarterName(addQuarters(openQuarterRef(), -1));
/** A row's keys of a quarter's plan. */
const start = (quarter: string) => `start_date_${quarter}`;
const end = (quarter: string) => `end_date_${quarter}`;
const SPEC_ROW_FIELDS = ["product", "stage", "stage_id", "editable", "product_status", "notes"];

const demo = demoSignInBeforeEach();
describe("PDT calls", () => {
  const ownPdt = async (token: string, query?: Record<string, string>) => {
    const answer = await callApi("GET", "/template/pdt/", { token, query });
    expectStatus(answer, 200);
    return answer.body;
  };
  const adminPdt = async (partnerId: number, query?: Record<string, string>) => {
    const answer = await callApi("GET", `/template/pdt/${partnerId}/`, { token: demo.admin, query });
    expectStatus(answer, 200);
    return answer.body;
  };

  it("GET /template/pdt/: the partner's own timeline; refused to staff, checked input", async () => {
    const answer = await callApi("GET", "/template/pdt/", { token: demo.partner1 });
    expectStatus(answer, 200);
    expectDocumented("GET", "/template/pdt/", answer);
    expect(answer.body.pdt_meta).toMatchObject({
      partner_id: demo.acme,
      partner_name: expect.any(String),
      quarter_name: openQuarter,
      report_status: "Submitted",
      can_edit: true,
    });
    expect(answer.body.quarter_dropdown[0].name).toBe(openQuarter);
    expect(answer.body.quarter_editable).toBe(true);
    // The columns: three earlier quarters, oldest first, then the report's own.
    const order = answer.body.quarter_order;
    expect(order).toEqual([-3, -2, -1, 0].map((back) => quarterName(addQuarters(openQuarterRef(), back))));
    expect(answer.body.rows.length).toBeGreaterThan(0);
    for (const row of answer.body.rows) {
      expect(Object.keys(row)).toEqual(expect.arrayContaining([...SPEC_ROW_FIELDS, ...order.flatMap((quarter: string) => [start(quarter), end(quarter)])]));
      expect(row.editable).toBe(true);
    }
    expect(answer.body.rows.some((row: any) => row[start(lastQuarter)] !== null)).toBe(true);
    expect(answer.body).not.toHaveProperty("template_data");
    expect(answer.body.rows[0]).not.toHaveProperty("start_date");
    expect(answer.body.rows[0]).not.toHaveProperty("history");

    const earlier = await callApi("GET", "/template/pdt/", { token: demo.partner1, query: { quarter: lastQuarter } });
    expectStatus(earlier, 200);
    expectDocumented("GET", "/template/pdt/", earlier);
    expect(earlier.body.pdt_meta).toMatchObject({ quarter_name: lastQuarter, report_status: "Approved" });
    expect(earlier.body.quarter_order.at(-1)).toBe(lastQuarter);
    expect(earlier.body.quarter_editable).toBe(false);
    expect(earlier.body.rows.every((row: any) => row.editable === false)).toBe(true);
    // The last quarter's plan is the history column of the open quarter's answer.
    const historyRow = answer.body.rows.find((row: any) => row[start(lastQuarter)] !== null);
    const sameRow = earlier.body.rows.find((row: any) => row.product_id === historyRow.product_id && row.stage_id === historyRow.stage_id);
    expect(sameRow[start(lastQuarter)]).toBe(historyRow[start(lastQuarter)]);

    expectRefused("GET", "/template/pdt/", await callApi("GET", "/template/pdt/", { token: demo.staff }), 403);
    const bad = await callApi("GET", "/template/pdt/", { token: demo.partner1, query: { quarter: "x".repeat(30) } });
    expectRefused("GET", "/template/pdt/", bad, 400);
    expect(bad.body.errors["query.quarter"]).toBeDefined();
    const unknown = await callApi("GET", "/template/pdt/", { token: demo.partner1, query: { quarter: "Q3 2199" } });
    expectRefused("GET", "/template/pdt/", unknown, 404);
  });

  it("GET /template/pdt/{partnerId}/: administrators read any partner's; partners are refused", async () => {
    for (const token of [demo.admin, demo.staff]) {
      const answer = await callApi("GET", `/template/pdt/${demo.borealis}/`, { token });
      expectStatus(answer, 200);
      expectDocumented("GET", "/template/pdt/{partnerId}/", answer);
      expect(answer.body.pdt_meta).toMatchObject({ partner_id: demo.borealis, report_status: "Resubmitted" });
      expect(answer.body.rows.every((row: any) => row.editable === (token === demo.admin))).toBe(true);
    }
    // A partner reaching for another partner's report, and for its own through the admin path.
    expectRefused("GET", "/template/pdt/{partnerId}/", await callApi("GET", `/template/pdt/${demo.borealis}/`, { token: demo.partner1 }), 403);
    expectRefused("GET", "/template/pdt/{partnerId}/", await callApi("GET", `/template/pdt/${demo.acme}/`, { token: demo.partner1 }), 403);
    const bad = await callApi("GET", "/template/pdt/abc/", { token: demo.admin });
    expectRefused("GET", "/template/pdt/{partnerId}/", bad, 400);
    expect(bad.body.errors["path.partnerId"]).toBeDefined();
    expectRefused("GET", "/template/pdt/{partnerId}/", await callApi("GET", "/template/pdt/999999/", { token: demo.admin }), 404);
  });

  it("POST /template/pdt/: the partner saves a row and a status; refused to admin, on a stale version, on invalid cells", async () => {
    const before = await ownPdt(demo.partner3);
    expect(before.pdt_meta.report_status).toBeNull();
    const row = before.rows[1];
    const otherStatus = row.product_status === "ON_HOLD" ? "FILED" : "ON_HOLD";
    const body = {
      version: before.pdt_meta.version,
      rows: [
        {
          product_id: row.product_id,
          stage_id: row.stage_id,
          product_status: otherStatus,
          notes: "Moved to the new line.",
          [start(openQuarter)]: "2/3/2031",
          [end(openQuarter)]: "2031-04-05",
        },
      ],
    };
    const saved = await callApi("POST", "/template/pdt/", { token: demo.partner3, body });
    expectStatus(saved, 200);
    expectDocumented("POST", "/template/pdt/", saved);
    expect(saved.body.version).toBe(before.pdt_meta.version + 1);

    const after = await ownPdt(demo.partner3);
    const read = after.rows.find((r: any) => r.product_id === row.product_id && r.stage_id === row.stage_id);
    expect(read).toMatchObject({
      notes: "Moved to the new line.",
      [start(openQuarter)]: "2031-02-03",
      [end(openQuarter)]: "2031-04-05",
      product_status: otherStatus,
    });
    expect(after.pdt_meta).toMatchObject({ report_status: "Saved", version: saved.body.version });

    // Refused: an administrator on the partner's path, the version read before the save.
    expectRefused("POST", "/template/pdt/", await callApi("POST", "/template/pdt/", { token: demo.admin, body }), 403);
    const stale = await callApi("POST", "/template/pdt/", { token: demo.partner3, body });
    expectRefused("POST", "/template/pdt/", stale, 409);
    const staleMeta = await callApi("POST", "/template/pdt/", { token: demo.partner3, body: { rows: body.rows, pdt_meta: before.pdt_meta } });
    expectRefused("POST", "/template/pdt/", staleMeta, 409);

    // Invalid cells: nothing saved, the posted row and field named.
    const current = after.pdt_meta.version;
    const refusedWith = async (rows: unknown[], extra: Record<string, unknown> = {}) => {
      const answer = await callApi("POST", "/template/pdt/", { token: demo.partner3, body: { version: current, rows, ...extra } });
      expectRefused("POST", "/template/pdt/", answer, 400);
      return answer.body.errors;
    };
    expect(Object.keys(await refusedWith([{ ...body.rows[0], notes: "Other", [start(openQuarter)]: "13/45/2031" }]))).toEqual([`rows.0.${start(openQuarter)}`]);
    expect(Object.keys(await refusedWith([body.rows[0], body.rows[0]]))).toEqual(["rows.1"]);
    expect(await refusedWith([], { partner_id: demo.acme })).toEqual({ partner_id: ["Unknown field."] });
    // The old field names are no fields of a row, and the quarter's dates are required.
    expect(await refusedWith([{ ...body.rows[0], status: "FILED" }])).toEqual({ "rows.0.status": ["Unknown field."] });
    expect(await refusedWith([{ ...body.rows[0], end_date: "2031-04-05" }])).toEqual({ "rows.0.end_date": ["Unknown field."] });
    const { [end(openQuarter)]: _, ...withoutEnd } = body.rows[0];
    expect(Object.keys(await refusedWith([withoutEnd]))).toEqual([`rows.0.${end(openQuarter)}`]);
    // A product by a name that is none of the partner's.
    const { product_id: __, ...byName } = body.rows[0];
    expect(Object.keys(await refusedWith([body.rows[0], { ...byName, product: "No such product" }]))).toEqual(["rows.1.product"]);
    // The answer of another quarter or partner is not this report's.
    expect(Object.keys(await refusedWith([], { pdt_meta: { ...after.pdt_meta, quarter_name: lastQuarter } }))).toEqual(["pdt_meta.quarter_name"]);
    expect(Object.keys(await refusedWith([], { pdt_meta: { ...after.pdt_meta, partner_id: demo.acme } }))).toEqual(["pdt_meta.partner_id"]);
    expect((await ownPdt(demo.partner3)).rows.find((r: any) => r.stage_id === row.stage_id && r.product_id === row.product_id).notes).toBe(
      "Moved to the new line.",
    );

    // Another partner's product is not part of this report, by id or by name.
    const acmeRow = (await adminPdt(demo.acme)).rows.find((r: any) => !after.rows.some((own: any) => own.product_id === r.product_id));
    expect(acmeRow).toBeDefined();
    const foreignRow = { stage_id: acmeRow.stage_id, notes: "", [start(openQuarter)]: "", [end(openQuarter)]: "" };
    const foreign = await callApi("POST", "/template/pdt/", {
      token: demo.partner3,
      body: { version: current, rows: [{ ...foreignRow, product_id: acmeRow.product_id }] },
    });
    expectRefused("POST", "/template/pdt/", foreign, 400);
    expect(Object.keys(await refusedWith([{ ...foreignRow, product: acmeRow.product }]))).toEqual(["rows.0.product"]);

    // A row named by its product's name (any case), its dates cleared.
    const named = await callApi("POST", "/template/pdt/", {
      token: demo.partner3,
      body: { version: current, rows: [{ ...byName, product: ` ${row.product.toUpperCase()} `, [start(openQuarter)]: null, [end(openQuarter)]: " " }] },
    });
    expectStatus(named, 200);
    const cleared = (await ownPdt(demo.partner3)).rows.find((r: any) => r.product_id === row.product_id && r.stage_id === row.stage_id);
    expect(cleared).toMatchObject({ [start(openQuarter)]: null, [end(openQuarter)]: null, notes: "Moved to the new line." });
  });

  it("POST /template/pdt/{partnerId}/: an administrator saves any quarter; refused to staff and partners", async () => {
    const before = await adminPdt(demo.borealis, { quarter: lastQuarter });
    const row = before.rows[0];
    const body = {
      version: before.pdt_meta.version,
      rows: [{ product_id: row.product_id, stage_id: row.stage_id, notes: "Corrected by MPP.", [start(lastQuarter)]: "1/15/2030", [end(lastQuarter)]: "" }],
    };
    const saved = await callApi("POST", `/template/pdt/${demo.borealis}/`, { token: demo.admin, body, query: { quarter: lastQuarter } });
    expectStatus(saved, 200);
    expectDocumented("POST", "/template/pdt/{partnerId}/", saved);

    const after = await adminPdt(demo.borealis, { quarter: lastQuarter });
    expect(after.rows[0]).toMatchObject({ notes: "Corrected by MPP.", [start(lastQuarter)]: "2030-01-15", [end(lastQuarter)]: null });
    expect(after.pdt_meta.report_status).toBe("Approved");
    expect(after.pdt_meta.version).toBe(before.pdt_meta.version + 1);
    // The open quarter shows it as the last quarter's plan.
    expect((await adminPdt(demo.borealis)).rows[0][start(lastQuarter)]).toBe("2030-01-15");

    expectRefused("POST", "/template/pdt/{partnerId}/", await callApi("POST", `/template/pdt/${demo.borealis}/`, { token: demo.staff, body }), 403);
    expectRefused("POST", "/template/pdt/{partnerId}/", await callApi("POST", `/template/pdt/${demo.borealis}/`, { token: demo.partner1, body }), 403);
    const stale = await callApi("POST", `/template/pdt/${demo.borealis}/`, { token: demo.admin, body, query: { quarter: lastQuarter } });
    expectRefused("POST", "/template/pdt/{partnerId}/", stale, 409);
    const invalid = await callApi("POST", `/template/pdt/${demo.borealis}/`, {
      token: demo.admin,
      query: { quarter: lastQuarter },
      body: { version: after.pdt_meta.version, rows: [{ ...body.rows[0], product_status: "Sleeping" }] },
    });
    expectRefused("POST", "/template/pdt/{partnerId}/", invalid, 400);
    expect(Object.keys(invalid.body.errors)).toEqual(["rows.0.product_status"]);
    // Without ?quarter= the save is the open quarter's, whose dates the row does not carry.
    const openSave = await callApi("POST", `/template/pdt/${demo.borealis}/`, { token: demo.admin, body: { rows: body.rows } });
    expectRefused("POST", "/template/pdt/{partnerId}/", openSave, 400);
    expect(Object.keys(openSave.body.errors)).toEqual([`rows.0.${start(openQuarter)}`, `rows.0.${end(openQuarter)}`]);
  });

  it("POST /template/pdt/ and /template/pdt/{partnerId}/: the answer of the GET posted back unchanged is accepted and changes nothing", async () => {
    const own = await ownPdt(demo.partner3);
    const saved = await callApi("POST", "/template/pdt/", { token: demo.partner3, body: own });
    expectStatus(saved, 200);
    expectDocumented("POST", "/template/pdt/", saved);
    const ownAfter = await ownPdt(demo.partner3);
    expect(ownAfter.rows).toEqual(own.rows);
    expect(ownAfter.pdt_meta).toMatchObject({ report_status: "Saved", version: saved.body.version });
    // Read and posted back again: nothing to write.
    const again = await callApi("POST", "/template/pdt/", { token: demo.partner3, body: ownAfter });
    expectStatus(again, 200);
    expect(again.body.updated).toBe(0);
    expect((await ownPdt(demo.partner3)).rows).toEqual(own.rows);

    // An administrator, an earlier quarter with its history.
    const earlier = await adminPdt(demo.acme, { quarter: lastQuarter });
    expect(earlier.rows.some((row: any) => row[start(quarterName(addQuarters(openQuarterRef(), -2)))] !== null)).toBe(true);
    const adminSaved = await callApi("POST", `/template/pdt/${demo.acme}/`, { token: demo.admin, body: earlier, query: { quarter: lastQuarter } });
    expectStatus(adminSaved, 200);
    expect(adminSaved.body.updated).toBe(0);
    const earlierAfter = await adminPdt(demo.acme, { quarter: lastQuarter });
    expect(earlierAfter.rows).toEqual(earlier.rows);
    expect(earlierAfter.pdt_meta.report_status).toBe("Approved");
  });

  it("a client written against the spec reads and saves with the spec's fields only", async () => {
    const read = await ownPdt(demo.partner1);
    const quarter = read.pdt_meta.quarter_name;
    const [oldest] = read.quarter_order;
    const rows = read.rows.map((row: any) =>
      Object.fromEntries([...SPEC_ROW_FIELDS, ...read.quarter_order.flatMap((q: string) => [start(q), end(q)])].map((field) => [field, row[field]])),
    );
    const index = rows.findIndex((row: any) => row.editable);
    const changed = rows[index];
    changed[start(quarter)] = "03/09/2032";
    changed[end(quarter)] = "2032-12-31";
    changed.notes = "Re-planned.";
    // An earlier quarter's date is history: what is posted of it is ignored.
    changed[start(oldest)] = "01/01/2020";

    const saved = await callApi("POST", "/template/pdt/", { token: demo.partner1, body: { rows } });
    expectStatus(saved, 200);
    const after = await ownPdt(demo.partner1);
    const row = after.rows[index];
    expect(row).toMatchObject({
      product: changed.product,
      stage_id: changed.stage_id,
      notes: "Re-planned.",
      [start(quarter)]: "2032-03-09",
      [end(quarter)]: "2032-12-31",
    });
    expect(row[start(oldest)]).toBe(read.rows[index][start(oldest)]);
    const untouched = (rows: any[]) => rows.filter((_, i) => i !== index);
    expect(untouched(after.rows)).toEqual(untouched(read.rows));
    // A partner's save withdraws its submission.
    expect(after.pdt_meta.report_status).toBe("Saved");
  });

  it("POST /template/pdt/submit/: the partner submits with a comment; refused to admin, stale, or without a comment", async () => {
    const before = await ownPdt(demo.partner3);
    const body = { message: "Our timeline for the quarter.", version: before.pdt_meta.version };
    expectRefused("POST", "/template/pdt/submit/", await callApi("POST", "/template/pdt/submit/", { token: demo.admin, body }), 403);
    expectRefused(
      "POST",
      "/template/pdt/submit/",
      await callApi("POST", "/template/pdt/submit/", { token: demo.partner3, body: { ...body, version: before.pdt_meta.version + 5 } }),
      409,
    );
    const missing = await callApi("POST", "/template/pdt/submit/", { token: demo.partner3, body: { version: before.pdt_meta.version } });
    expectRefused("POST", "/template/pdt/submit/", missing, 400);
    expect(missing.body.errors.message).toBeDefined();
    // Naming another partner is no field of a submission.
    const reaching = await callApi("POST", "/template/pdt/submit/", { token: demo.partner3, body: { ...body, partner_id: demo.acme } });
    expectRefused("POST", "/template/pdt/submit/", reaching, 400);
    expect((await ownPdt(demo.partner3)).pdt_meta.report_status).toBeNull();

    const submitted = await callApi("POST", "/template/pdt/submit/", { token: demo.partner3, body });
    expectStatus(submitted, 200);
    expectDocumented("POST", "/template/pdt/submit/", submitted);
    expect(submitted.body.detail).toBe("Report has been submitted to the admin!");
    const after = await adminPdt(demo.cedar);
    expect(after.pdt_meta.report_status).toBe("Submitted");
    expect(after.pdt_meta.submission_time).not.toBeNull();
    expect(after.messages.at(-1)).toMatchObject({ is_partner_message: true, is_approved: null, message: "Our timeline for the quarter." });
    // Submitted again without a change: the state does not allow it.
    const again = await callApi("POST", "/template/pdt/submit/", { token: demo.partner3, body: { ...body, version: after.pdt_meta.version } });
    expectRefused("POST", "/template/pdt/submit/", again, 409);
  });

  it("POST /template/pdt/message/: the admin approves or rejects; refused to staff and partners, to a report not submitted", async () => {
    const body = { partner_id: demo.acme, message: "Thank you.", is_approved: true };
    expectRefused("POST", "/template/pdt/message/", await callApi("POST", "/template/pdt/message/", { token: demo.staff, body }), 403);
    expectRefused("POST", "/template/pdt/message/", await callApi("POST", "/template/pdt/message/", { token: demo.partner2, body }), 403);
    const invalid = await callApi("POST", "/template/pdt/message/", { token: demo.admin, body: { partner_id: demo.acme, message: "Thank you." } });
    expectRefused("POST", "/template/pdt/message/", invalid, 400);
    expect(invalid.body.errors.is_approved).toBeDefined();
    // Partner 3 has not submitted this quarter's timeline.
    expectRefused(
      "POST",
      "/template/pdt/message/",
      await callApi("POST", "/template/pdt/message/", { token: demo.admin, body: { ...body, partner_id: demo.cedar } }),
      409,
    );

    const approved = await callApi("POST", "/template/pdt/message/", { token: demo.admin, body });
    expectStatus(approved, 200);
    expectDocumented("POST", "/template/pdt/message/", approved);
    expect(approved.body.detail).toBe("Report Approved!");
    expect((await adminPdt(demo.acme)).pdt_meta).toMatchObject({ report_status: "Approved", approval_time: expect.any(String) });
    const approvedView = await ownPdt(demo.partner1);
    expect(approvedView).toMatchObject({ quarter_editable: false, pdt_meta: { can_edit: false } });
    expect(approvedView.rows.every((row: any) => row.editable === false)).toBe(true);

    const rejected = await callApi("POST", "/template/pdt/message/", {
      token: demo.admin,
      body: { partner_id: demo.borealis, message: "Please check the dates.", is_approved: false },
    });
    expectStatus(rejected, 200);
    expect(rejected.body.detail).toBe("Report Rejected!");
    const partnerView = await ownPdt(demo.partner2);
    expect(partnerView.pdt_meta.report_status).toBe("Rejected");
    expect(partnerView.messages.at(-1)).toMatchObject({ is_partner_message: false, message: "Please check the dates.", is_approved: false });
    // Decided already: a second decision is refused.
    expectRefused("POST", "/template/pdt/message/", await callApi("POST", "/template/pdt/message/", { token: demo.admin, body }), 409);
  });

  it("POST /template/pdt/inbox/{who}: each side reads its messages; a partner cannot read another's", async () => {
    // Partner 1's submission waits unread by the administrators.
    expect((await adminPdt(demo.acme)).unread_message_count).toBe(1);
    const read = await callApi("POST", "/template/pdt/inbox/admin", { token: demo.admin, body: { partner_id: demo.acme } });
    expectStatus(read, 200);
    expectDocumented("POST", "/template/pdt/inbox/{who}", read);
    expect(read.body.unread_message_count).toBe(0);
    expect((await adminPdt(demo.acme)).unread_message_count).toBe(0);

    await callApi("POST", "/template/pdt/message/", {
      token: demo.admin,
      body: { partner_id: demo.acme, message: "Please check the dates.", is_approved: false },
    });
    expect((await ownPdt(demo.partner1)).unread_message_count).toBe(1);
    const own = await callApi("POST", "/template/pdt/inbox/partner", { token: demo.partner1, body: {} });
    expectStatus(own, 200);
    expectDocumented("POST", "/template/pdt/inbox/{who}", own);
    expect((await ownPdt(demo.partner1)).unread_message_count).toBe(0);

    // Refused: another partner's report, the administrators' side, an id that is none.
    expectRefused(
      "POST",
      "/template/pdt/inbox/{who}",
      await callApi("POST", "/template/pdt/inbox/partner", { token: demo.partner2, body: { partner_id: demo.acme } }),
      403,
    );
    expectRefused("POST", "/template/pdt/inbox/{who}", await callApi("POST", "/template/pdt/inbox/admin", { token: demo.partner1, body: {} }), 400);
    const invalid = await callApi("POST", "/template/pdt/inbox/admin", { token: demo.admin, body: { partner_id: "x" } });
    expectRefused("POST", "/template/pdt/inbox/{who}", invalid, 400);
    expect(invalid.body.errors.partner_id).toBeDefined();
  });
});

/**
 * The JSON API of the Filing Plans (spec sections 3 and 7): every call allowed (answer documented,
 * effect read back), refused for a role, for another partner's report, on a stale version or a
 * state that does not allow it, and on invalid input; a read answer posted back unchanged, and a
 * client that knows only the spec's names.
 */
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { products } from "~/db/schema";
import { openQuarterRef } from "~/models/quarter.server";
import { addQuarters, quarterName } from "~/utils/quarters";
import { callApi, demoSignInBeforeEach, expectDocumented, expectRefused, expectStatus } from "../support/api";

const lastQuarter = quarterName(addQuarters(openQuarterRef(), -1));

const demo = demoSignInBeforeEach();

describe("Filing Plans calls", () => {
  const ownFiling = async (token: string, query?: Record<string, string>) => {
    const answer = await callApi("GET", "/template/filing/", { token, query });
    expectStatus(answer, 200);
    return answer.body;
  };
  const adminFiling = async (partnerId: number, query?: Record<string, string>) => {
    const answer = await callApi("GET", `/template/filing/${partnerId}/`, { token: demo.admin, query });
    expectStatus(answer, 200);
    return answer.body;
  };
  const rowOf = (view: any, countryId: number) => view.rows.find((row: any) => row.country_id === countryId);
  /** A cell to change: the first country, the first product, and a status of its list other than the cell's. */
  function aChange(view: any) {
    const product = view.product_details[0];
    const row = view.rows[0];
    const status = view.status_dropdown[product.product_type].find((s: string) => s !== row[product.product_name]);
    return { countryId: row.country_id, productId: product.product_id, productName: product.product_name, status };
  }

  it("GET /template/filing/: the partner's own plans, a row per country keyed by product name; refused to admin, checked input", async () => {
    const answer = await callApi("GET", "/template/filing/", { token: demo.partner1 });
    expectStatus(answer, 200);
    expectDocumented("GET", "/template/filing/", answer);
    const view = answer.body;
    expect(view).not.toHaveProperty("template_data");
    expect(view.filing_meta).toMatchObject({ partner_id: demo.acme, report_status: "Rejected" });
    expect(view.product_details.length).toBeGreaterThan(0);
    expect(view.rows.length).toBeGreaterThan(100);
    expect(view.status_dropdown.FDF).toContain("Filed");
    const names = view.product_details.map((product: any) => product.product_name);
    for (const row of view.rows) expect(Object.keys(row).sort()).toEqual(["country", "country_id", ...names].sort());
    const cells = view.rows.flatMap((row: any) => names.map((name: string) => row[name]));
    expect(cells.filter((status: unknown) => typeof status === "string").length).toBeGreaterThan(0);
    // An empty cell is null.
    expect(cells).toContain(null);
    expect(cells).not.toContain("0");

    expectRefused("GET", "/template/filing/", await callApi("GET", "/template/filing/", { token: demo.admin }), 403);
    const bad = await callApi("GET", "/template/filing/", { token: demo.partner1, query: { quarter: "x".repeat(30) } });
    expectRefused("GET", "/template/filing/", bad, 400);
    expect(bad.body.errors["query.quarter"]).toBeDefined();
    const unknownQuery = await callApi("GET", "/template/filing/", { token: demo.partner1, query: { page: "2" } });
    expectRefused("GET", "/template/filing/", unknownQuery, 400);
  });

  it("GET /template/filing/{partnerId}/: administrators read any partner's; partners are refused", async () => {
    for (const token of [demo.admin, demo.staff]) {
      const answer = await callApi("GET", `/template/filing/${demo.cedar}/`, { token, query: { quarter: lastQuarter } });
      expectStatus(answer, 200);
      expectDocumented("GET", "/template/filing/{partnerId}/", answer);
      expect(answer.body.filing_meta).toMatchObject({ partner_id: demo.cedar, quarter_name: lastQuarter, report_status: "Approved" });
    }
    expectRefused("GET", "/template/filing/{partnerId}/", await callApi("GET", `/template/filing/${demo.cedar}/`, { token: demo.partner1 }), 403);
    const bad = await callApi("GET", "/template/filing/0/", { token: demo.admin });
    expectRefused("GET", "/template/filing/{partnerId}/", bad, 400);
    expect(bad.body.errors["path.partnerId"]).toBeDefined();
  });

  it("POST /template/filing/: the partner saves a map of country id to product id to status; refused to staff, on a stale version, on invalid cells", async () => {
    const before = await ownFiling(demo.partner2);
    expect(before.filing_meta.report_status).toBeNull();
    const change = aChange(before);
    const second = before.product_details[1] ?? before.product_details[0];
    const emptied = before.rows.find((row: any) => row[second.product_name] !== null && row.country_id !== change.countryId);
    const body: Record<string, unknown> = { version: before.filing_meta.version, [change.countryId]: { [change.productId]: change.status.toUpperCase() } };
    if (emptied) body[emptied.country_id] = { [second.product_id]: "" };
    const saved = await callApi("POST", "/template/filing/", { token: demo.partner2, body });
    expectStatus(saved, 200);
    expectDocumented("POST", "/template/filing/", saved);

    const after = await ownFiling(demo.partner2);
    expect(rowOf(after, change.countryId)[change.productName]).toBe(change.status);
    if (emptied) expect(rowOf(after, emptied.country_id)[second.product_name]).toBeNull();
    expect(after.filing_meta).toMatchObject({ report_status: "Saved", version: saved.body.version });

    expectRefused("POST", "/template/filing/", await callApi("POST", "/template/filing/", { token: demo.staff, body }), 403);
    expectRefused("POST", "/template/filing/", await callApi("POST", "/template/filing/", { token: demo.partner2, body }), 409);

    const current = after.filing_meta.version;
    const refused = async (cells: Record<string, unknown>) => {
      const answer = await callApi("POST", "/template/filing/", { token: demo.partner2, body: { version: current, ...cells } });
      expectRefused("POST", "/template/filing/", answer, 400);
      return answer.body.errors;
    };
    expect(Object.keys(await refused({ [change.countryId]: { [change.productId]: "Bogus" } }))).toEqual([`${change.countryId}.${change.productId}`]);
    expect(await refused({ [`0${change.countryId}`]: { [change.productId]: "Filed" } })).toEqual({ [`0${change.countryId}`]: ["Not a country id."] });
    expect(await refused({ "999999": { [change.productId]: "Filed" } })).toEqual({ "999999": ["Not a country id."] });
    expect(await refused({ constructor: { [change.productId]: "Filed" } })).toEqual({ constructor: ["Not a country id."] });
    expect(Object.keys(await refused({ [change.countryId]: "Filed" }))).toEqual([String(change.countryId)]);
    expect(Object.keys(await refused({ versoin: current }))).toEqual(["versoin"]);
    // Thousands of wrong keys are refused in one line.
    expect(await refused(Object.fromEntries(Array.from({ length: 10_000 }, (_, index) => [`x${index}`, 1])))).toEqual({ "": ["Too many rows in one save."] });

    // Another partner's product is not a column of this partner's plans.
    const [foreign] = await db.select({ id: products.id }).from(products);
    const foreignId = after.product_details.some((p: any) => p.product_id === foreign.id) ? null : foreign.id;
    const otherProduct =
      foreignId ??
      (await adminFiling(demo.acme)).product_details.find((p: any) => !after.product_details.some((own: any) => own.product_id === p.product_id))?.product_id;
    expect(otherProduct).toBeDefined();
    expect(Object.keys(await refused({ [change.countryId]: { [otherProduct]: "Filed" } }))).toEqual([`${change.countryId}.${otherProduct}`]);
    expect((await ownFiling(demo.partner2)).filing_meta.version).toBe(current);
  });

  it("POST /template/filing/{partnerId}/: an administrator saves; refused to partners, stale, invalid", async () => {
    const before = await adminFiling(demo.acme);
    const change = aChange(before);
    const body = { version: before.filing_meta.version, [change.countryId]: { [change.productId]: change.status } };
    const saved = await callApi("POST", `/template/filing/${demo.acme}/`, { token: demo.admin, body });
    expectStatus(saved, 200);
    expectDocumented("POST", "/template/filing/{partnerId}/", saved);
    const after = await adminFiling(demo.acme);
    expect(rowOf(after, change.countryId)[change.productName]).toBe(change.status);
    expect(after.filing_meta.report_status).toBe("Rejected");

    // Partner 1 reaching for its own through the admin path, partner 2 for partner 1's.
    expectRefused("POST", "/template/filing/{partnerId}/", await callApi("POST", `/template/filing/${demo.acme}/`, { token: demo.partner1, body }), 403);
    expectRefused("POST", "/template/filing/{partnerId}/", await callApi("POST", `/template/filing/${demo.acme}/`, { token: demo.partner2, body }), 403);
    expectRefused("POST", "/template/filing/{partnerId}/", await callApi("POST", `/template/filing/${demo.acme}/`, { token: demo.staff, body }), 403);
    expectRefused("POST", "/template/filing/{partnerId}/", await callApi("POST", `/template/filing/${demo.acme}/`, { token: demo.admin, body }), 409);
    const invalid = await callApi("POST", `/template/filing/${demo.acme}/`, {
      token: demo.admin,
      body: { version: after.filing_meta.version, [change.countryId]: { [change.productId]: 7 } },
    });
    expectRefused("POST", "/template/filing/{partnerId}/", invalid, 400);
    expect(invalid.body.errors[`${change.countryId}.${change.productId}`]).toBeDefined();
    const nobody = await callApi("POST", "/template/filing/999999/", {
      token: demo.admin,
      body: { [change.countryId]: { [change.productId]: change.status } },
    });
    expectRefused("POST", "/template/filing/{partnerId}/", nobody, 404);
  });

  it("POST /template/filing/: the read answer posted back unchanged is accepted and changes nothing; a cell changed in its rows is saved", async () => {
    const before = await ownFiling(demo.partner1);
    const saved = await callApi("POST", "/template/filing/", { token: demo.partner1, body: before });
    expectStatus(saved, 200);
    expect(saved.body.updated).toBe(0);
    const after = await ownFiling(demo.partner1);
    expect(after.rows).toEqual(before.rows);
    expect(after.product_details).toEqual(before.product_details);
    expect(after.filing_meta.version).toBe(saved.body.version);
    // Its version is filing_meta.version: the same answer again is stale.
    expectRefused("POST", "/template/filing/", await callApi("POST", "/template/filing/", { token: demo.partner1, body: before }), 409);

    const change = aChange(after);
    const edited = structuredClone(after);
    edited.rows[0][change.productName] = change.status;
    expectStatus(await callApi("POST", "/template/filing/", { token: demo.partner1, body: edited }), 200);
    const changed = await ownFiling(demo.partner1);
    expect(changed.rows).toEqual(edited.rows);

    const refused = async (body: any) => {
      const answer = await callApi("POST", "/template/filing/", { token: demo.partner1, body });
      expectRefused("POST", "/template/filing/", answer, 400);
      return answer.body.errors;
    };
    const unknownName = structuredClone(changed);
    unknownName.rows[1]["No such product"] = "Filed";
    expect(await refused(unknownName)).toEqual({ "rows.1.No such product": ["Not a product_name of product_details."] });
    const unknownCountry = structuredClone(changed);
    unknownCountry.rows[2].country_id = 999999;
    expect(await refused(unknownCountry)).toEqual({ "rows.2.country_id": ["Not a country id."] });
    const badStatus = structuredClone(changed);
    badStatus.rows[3][change.productName] = "Bogus";
    expect(Object.keys(await refused(badStatus))).toEqual([`rows.3.${change.productName}`]);
    expect((await ownFiling(demo.partner1)).filing_meta.version).toBe(changed.filing_meta.version);

    // An administrator's read of a partner's earlier quarter, posted back with the quarter.
    const query = { quarter: lastQuarter };
    const earlier = await adminFiling(demo.cedar, query);
    const adminSaved = await callApi("POST", `/template/filing/${demo.cedar}/`, { token: demo.admin, query, body: earlier });
    expectStatus(adminSaved, 200);
    expect(adminSaved.body.updated).toBe(0);
    expect((await adminFiling(demo.cedar, query)).rows).toEqual(earlier.rows);
  });

  it("a client written against the spec saves a map of country_id to product_id to status, without a version, and reads it back in rows", async () => {
    const before = await ownFiling(demo.partner2);
    const product = before.product_details.at(-1);
    const row = before.rows.at(-1);
    const status = before.status_dropdown[product.product_type].find((s: string) => s !== row[product.product_name]);
    const saved = await callApi("POST", "/template/filing/", { token: demo.partner2, body: { [row.country_id]: { [product.product_id]: status } } });
    expectStatus(saved, 200);
    expect(saved.body.status).toBe("OK");
    const after = await ownFiling(demo.partner2);
    expect(after.rows.find((r: any) => r.country_id === row.country_id)[product.product_name]).toBe(status);
    expect(after.filing_meta.report_status).toBe("Saved");
    expect(after.unread_message_count).toBeTypeOf("number");
    expect(after.quarter_dropdown.length).toBeGreaterThan(0);
  });

  it("POST /template/filing/submit/: the partner resubmits with a comment; refused to staff, stale, without a comment", async () => {
    const before = await ownFiling(demo.partner1);
    const body = { message: "Corrected filings.", version: before.filing_meta.version };
    expectRefused("POST", "/template/filing/submit/", await callApi("POST", "/template/filing/submit/", { token: demo.staff, body }), 403);
    expectRefused(
      "POST",
      "/template/filing/submit/",
      await callApi("POST", "/template/filing/submit/", { token: demo.partner1, body: { ...body, version: body.version + 1 } }),
      409,
    );
    const invalid = await callApi("POST", "/template/filing/submit/", { token: demo.partner1, body: { message: "Corrected filings.", version: -1 } });
    expectRefused("POST", "/template/filing/submit/", invalid, 400);
    expect(invalid.body.errors.version).toBeDefined();
    // An empty comment: the workflow asks for one, nothing changes.
    const empty = await callApi("POST", "/template/filing/submit/", { token: demo.partner1, body: { ...body, message: "  " } });
    expectRefused("POST", "/template/filing/submit/", empty, 400);
    expect(empty.body.detail).toBe("Enter comments for admin");
    const reaching = await callApi("POST", "/template/filing/submit/", { token: demo.partner1, body: { ...body, partner_id: demo.borealis } });
    expectRefused("POST", "/template/filing/submit/", reaching, 400);
    expect((await ownFiling(demo.partner1)).filing_meta.report_status).toBe("Rejected");

    const submitted = await callApi("POST", "/template/filing/submit/", { token: demo.partner1, body });
    expectStatus(submitted, 200);
    expectDocumented("POST", "/template/filing/submit/", submitted);
    const after = await adminFiling(demo.acme);
    expect(after.filing_meta.report_status).toBe("Resubmitted");
    expect(after.messages.at(-1)).toMatchObject({ is_partner_message: true, is_approved: null, message: "Corrected filings." });
  });

  it("POST /template/filing/message/: the admin decides a submitted report; refused to partners, to a report not submitted", async () => {
    const before = await ownFiling(demo.partner3);
    const submitted = await callApi("POST", "/template/filing/submit/", {
      token: demo.partner3,
      body: { message: "Nothing new.", version: before.filing_meta.version },
    });
    expectStatus(submitted, 200);
    const body = { partner_id: demo.cedar, message: "Approved, thanks.", is_approved: true };
    expectRefused("POST", "/template/filing/message/", await callApi("POST", "/template/filing/message/", { token: demo.partner3, body }), 403);
    expectRefused("POST", "/template/filing/message/", await callApi("POST", "/template/filing/message/", { token: demo.staff, body }), 403);
    const invalid = await callApi("POST", "/template/filing/message/", { token: demo.admin, body: { ...body, partner_id: "someone" } });
    expectRefused("POST", "/template/filing/message/", invalid, 400);
    expect(invalid.body.errors.partner_id).toBeDefined();
    // Partner 2 has not submitted this quarter's plans.
    expectRefused(
      "POST",
      "/template/filing/message/",
      await callApi("POST", "/template/filing/message/", { token: demo.admin, body: { ...body, partner_id: demo.borealis } }),
      409,
    );
    expectRefused(
      "POST",
      "/template/filing/message/",
      await callApi("POST", "/template/filing/message/", { token: demo.admin, body: { ...body, partner_id: 999999 } }),
      404,
    );

    const approved = await callApi("POST", "/template/filing/message/", { token: demo.admin, body });
    expectStatus(approved, 200);
    expectDocumented("POST", "/template/filing/message/", approved);
    const after = await ownFiling(demo.partner3);
    expect(after.filing_meta.report_status).toBe("Approved");
    expect(after.filing_meta.can_edit).toBe(false);
    expect(after.unread_message_count).toBe(1);
  });

  it("POST /template/filing/inbox/{who}: each side reads its messages; a partner cannot read another's", async () => {
    // Partner 1's rejection waits unread by the partner.
    expect((await ownFiling(demo.partner1)).unread_message_count).toBe(1);
    const own = await callApi("POST", "/template/filing/inbox/partner", { token: demo.partner1, body: {} });
    expectStatus(own, 200);
    expectDocumented("POST", "/template/filing/inbox/{who}", own);
    expect(own.body.unread_message_count).toBe(0);
    expect((await ownFiling(demo.partner1)).unread_message_count).toBe(0);

    const version = (await ownFiling(demo.partner1)).filing_meta.version;
    expectStatus(await callApi("POST", "/template/filing/submit/", { token: demo.partner1, body: { message: "Corrected.", version } }), 200);
    expect((await adminFiling(demo.acme)).unread_message_count).toBe(1);
    const staffRead = await callApi("POST", "/template/filing/inbox/admin", { token: demo.staff, body: { partner_id: demo.acme } });
    expectStatus(staffRead, 200);
    expect(staffRead.body.unread_message_count).toBe(1);
    const adminRead = await callApi("POST", "/template/filing/inbox/admin", { token: demo.admin, body: { partner_id: demo.acme } });
    expectStatus(adminRead, 200);
    expectDocumented("POST", "/template/filing/inbox/{who}", adminRead);
    expect((await adminFiling(demo.acme)).unread_message_count).toBe(0);

    expectRefused(
      "POST",
      "/template/filing/inbox/{who}",
      await callApi("POST", "/template/filing/inbox/partner", { token: demo.partner3, body: { partner_id: demo.acme } }),
      403,
    );
    expectRefused(
      "POST",
      "/template/filing/inbox/{who}",
      await callApi("POST", "/template/filing/inbox/partner", { token: demo.admin, body: { partner_id: demo.acme } }),
      400,
    );
    const invalid = await callApi("POST", "/template/filing/inbox/someone", { token: demo.admin, body: { partner_id: demo.acme } });
    expectRefused("POST", "/template/filing/inbox/{who}", invalid, 400);
    expect(invalid.body.errors["path.who"]).toBeDefined();
  });
});

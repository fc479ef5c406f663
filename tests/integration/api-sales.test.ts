/**
 * The JSON API of the Sales Report (spec section 7, decisions.md section 9: `{x}` is the tab, api
 * or fdf; `{y}` a partner): every call allowed (answer documented, effect read back), refused for
 * a role, for another partner's report, on a stale version, and on invalid input; rows in spec
 * section 3's fields, and what a read answers a save accepts back.
 */
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { productVerifications } from "~/db/schema";
import { decideProductVerification } from "~/reports/sales/product-verification.server";
import { findUserByEmail } from "~/models/user.server";
import { callApi, demoSignInBeforeEach, expectDocumented, expectRefused, expectStatus } from "../support/api";

const API_FIELDS = ["year", "month", "country_name", "country_id", "purchaser", "product_name", "product_id", "quantity", "total_value"];
const FDF_FIELDS = [
  ...[
    "year",
    "month",
    "country_name",
    "country_id",
    "purchaser",
    "product_name",
    "product_id",
    "strength",
    "formulation_md",
    "pack_size",
    "quantity",
    "currency",
  ],
  ...["gross_sale_price_currency", "usd_exchange_rate", "gross_sale_price_usd", "total_gross_value", "deductable_expenses", "total_value"],
  ...["royalty_percent", "royalty_due", "procurement_end_country", "comments"],
];
const LOAD_FIELDS = ["country_order", "product_order", "rows", "sales_meta", "quarter_dropdown", "unread_message_count", "pending_product_count", "messages"];
const META_FIELDS = ["quarter_name", "partner_name", "report_status", "approval_time", "submission_time"];

const demo = demoSignInBeforeEach();

const own = async (token: string, x: "api" | "fdf", query?: Record<string, string>) => {
  const answer = await callApi("GET", `/template/sales/${x}`, { token, query });
  expectStatus(answer, 200);
  return answer.body;
};
const partners = async (partnerId: number, x: "api" | "fdf", query?: Record<string, string>) => {
  const answer = await callApi("GET", `/template/sales/${x}/${partnerId}`, { token: demo.admin, query });
  expectStatus(answer, 200);
  return answer.body;
};

/** A saved row as a new row (no id), with another purchaser. */
function newRowFrom(row: Record<string, unknown>, purchaser: string) {
  const { sales_report_id: _id, ...fields } = row;
  return { ...fields, purchaser };
}

describe("Sales Report calls", () => {
  it("GET /template/sales/{x}: the partner's own tab in the spec's fields; refused to administrators, checked input", async () => {
    const api = await callApi("GET", "/template/sales/api", { token: demo.partner1 });
    expectStatus(api, 200);
    expectDocumented("GET", "/template/sales/{x}", api);
    expect(Object.keys(api.body)).toEqual(expect.arrayContaining(LOAD_FIELDS));
    expect(api.body).not.toHaveProperty("template_data");
    expect(Object.keys(api.body.sales_meta)).toEqual(expect.arrayContaining(META_FIELDS));
    expect(api.body.sales_meta).toMatchObject({ partner_id: demo.acme, partner_name: "Acme Generics Ltd", report_status: "Saved" });
    expect(api.body.quarter_dropdown[0].name).toBe(api.body.sales_meta.quarter_name);
    expect(api.body.pending_product_count).toBe(1);
    expect(api.body.rows.length).toBeGreaterThan(0);
    for (const row of api.body.rows) expect(Object.keys(row).sort()).toEqual([...API_FIELDS, "sales_report_id"].sort());
    // The ids beside the names are those of the lists the answer carries.
    const countries = new Map(api.body.country_order.map((country: any) => [country.country_id, country.country_name]));
    expect(countries.size).toBeGreaterThan(100);
    const apiProducts = new Map(api.body.product_order.map((product: any) => [product.product_id, product.product_name]));
    for (const row of api.body.rows) {
      expect(countries.get(row.country_id)).toBe(row.country_name);
      expect(apiProducts.get(row.product_id)).toBe(row.product_name);
    }
    expect(api.body.rows[0]).toMatchObject({
      month: "October",
      year: expect.stringMatching(/^\d{4}$/),
      quantity: expect.any(String),
      total_value: expect.any(String),
    });

    const fdf = await callApi("GET", "/template/sales/fdf", { token: demo.partner1 });
    expectStatus(fdf, 200);
    expectDocumented("GET", "/template/sales/{x}", fdf);
    for (const row of fdf.body.rows) expect(Object.keys(row).sort()).toEqual([...FDF_FIELDS, "sales_report_id"].sort());
    // The tabs list the partner's products of their own category; a name awaiting verification has no id.
    expect(fdf.body.product_order.map((product: any) => product.product_id)).not.toEqual(expect.arrayContaining([...apiProducts.keys()]));
    const awaiting = fdf.body.rows.filter((row: any) => row.product_id === null);
    expect(awaiting).toHaveLength(1);
    expect(fdf.body.product_order.map((product: any) => product.product_name)).not.toContain(awaiting[0].product_name);
    expect(fdf.body.rows.map((row: any) => row.sales_report_id)).not.toEqual(expect.arrayContaining(api.body.rows.map((row: any) => row.sales_report_id)));

    const earlier = await callApi("GET", "/template/sales/api", { token: demo.partner1, query: { quarter: api.body.quarter_dropdown[1].name } });
    expectStatus(earlier, 200);
    expect(earlier.body.sales_meta.quarter_name).toBe(api.body.quarter_dropdown[1].name);
    expect(earlier.body.quarter_editable).toBe(false);

    for (const token of [demo.admin, demo.staff]) expectRefused("GET", "/template/sales/{x}", await callApi("GET", "/template/sales/api", { token }), 403);
    const badTab = await callApi("GET", "/template/sales/xyz", { token: demo.partner1 });
    expectRefused("GET", "/template/sales/{x}", badTab, 400);
    expect(badTab.body.errors["path.x"]).toBeDefined();
    expectRefused("GET", "/template/sales/{x}", await callApi("GET", "/template/sales/api", { token: demo.partner1, query: { quarter: "Q3 2199" } }), 404);
    // The old calls are gone.
    expect((await callApi("GET", "/template/sales/", { token: demo.partner1 })).status).toBe(404);
  });

  it("GET /template/sales/{x}/{y}: administrators and STAFF read any partner's tab; a partner is refused another's (and its own there)", async () => {
    const ownApi = await own(demo.partner1, "api");
    for (const token of [demo.admin, demo.staff]) {
      const read = await callApi("GET", `/template/sales/api/${demo.acme}`, { token });
      expectStatus(read, 200);
      expectDocumented("GET", "/template/sales/{x}/{y}", read);
      expect(read.body.rows).toEqual(ownApi.rows);
      expect(read.body.sales_meta.partner_id).toBe(demo.acme);
    }
    expect((await partners(demo.borealis, "fdf")).sales_meta).toMatchObject({ partner_id: demo.borealis, partner_name: expect.any(String) });
    for (const path of [`/template/sales/api/${demo.acme}`, `/template/sales/api/${demo.borealis}`]) {
      expectRefused("GET", "/template/sales/{x}/{y}", await callApi("GET", path, { token: demo.partner2 }), 403);
    }
    expectRefused("GET", "/template/sales/{x}/{y}", await callApi("GET", "/template/sales/api/99999", { token: demo.admin }), 404);
    const notAnId = await callApi("GET", "/template/sales/api/abc", { token: demo.admin });
    expectRefused("GET", "/template/sales/{x}/{y}", notAnId, 400);
    expect(notAnId.body.errors["path.y"]).toBeDefined();
    expectRefused("GET", "/template/sales/{x}/{y}", await callApi("GET", `/template/sales/API2/${demo.acme}`, { token: demo.admin }), 400);
  });

  it("POST /template/sales/{x}: a save adds, changes and deletes rows of the tab in one go; an invalid row or a stale version saves nothing", async () => {
    const before = await own(demo.partner1, "api");
    const fdfBefore = await own(demo.partner1, "fdf");
    const [first, second] = before.rows;
    const body = {
      version: before.sales_meta.version,
      sales_report_id: [second.sales_report_id],
      rows: [
        { ...first, purchaser: "Changed Buyer Ltd" },
        // Typed loosely: the month and year as numbers, the names in other cases, no ids; saved in their canonical spelling.
        {
          ...newRowFrom(first, "New Buyer Ltd"),
          year: Number(first.year),
          month: 10,
          country_name: ` ${first.country_name.toUpperCase()} `,
          country_id: null,
          product_name: first.product_name.toLowerCase(),
          product_id: undefined,
        },
      ],
    };

    const unchanged = async () => {
      expect((await own(demo.partner1, "api")).rows).toEqual(before.rows);
      expect((await own(demo.partner1, "fdf")).rows).toEqual(fdfBefore.rows);
    };
    const refused = async (change: Record<string, unknown>, errors: Record<string, unknown>) => {
      const answer = await callApi("POST", "/template/sales/api", { token: demo.partner1, body: { ...body, ...change } });
      expectRefused("POST", "/template/sales/{x}", answer, 400);
      expect(answer.body.errors).toEqual(errors);
    };
    await refused({ rows: [{ ...newRowFrom(first, "Bad"), year: "1800" }] }, { "rows.0.year": ["Year: please input a valid entry."] });
    await refused(
      { rows: [{ year: first.year }] },
      {
        "rows.0.month": ["Month: please input a valid entry."],
        "rows.0.country_name": ["Country: please input a valid entry."],
        "rows.0.product_name": ["Api Name: please input a valid entry."],
        "rows.0.quantity": ["Quantity (Kg): please input a valid entry."],
      },
    );
    await refused({ rows: [{ ...first, royalty: "1" }] }, { "rows.0": [expect.any(String)] });
    await refused({ rows: [{ ...first, strength: "50 mg" }] }, { "rows.0.strength": ["Not a field of the API tab."] });
    await refused({ rows: [{ ...first, quantity: true }] }, { "rows.0.quantity": [expect.any(String)] });
    await refused(
      { rows: [{ ...first, product_id: fdfBefore.product_order[0].product_id }] },
      { "rows.0.product_id": ["Not one of the partner's API products."] },
    );
    const otherCountry = before.country_order.find((country: any) => country.country_id !== first.country_id);
    await refused({ rows: [{ ...first, country_id: otherCountry.country_id }] }, { "rows.0.country_id": ["Not the id of the country_name sent."] });
    // The API tab does not delete the FDF tab's rows.
    await refused({ sales_report_id: [fdfBefore.rows[0].sales_report_id] }, { "sales_report_id.0": ["A row of the FDF tab."] });
    await unchanged();
    // A partner naming another partner: refused before anything is read of it.
    expectRefused(
      "POST",
      "/template/sales/{x}",
      await callApi("POST", "/template/sales/api", { token: demo.partner1, body: { ...body, partner_id: demo.borealis } }),
      403,
    );
    expectRefused("POST", "/template/sales/{x}", await callApi("POST", "/template/sales/api", { token: demo.admin, body }), 403);
    // Acme naming a Borealis row: refused, Borealis's rows unchanged.
    const borealisRows = (await partners(demo.borealis, "api")).rows;
    const foreign = await callApi("POST", "/template/sales/api", { token: demo.partner1, body: { rows: [{ ...borealisRows[0], purchaser: "Hijacked" }] } });
    expectRefused("POST", "/template/sales/{x}", foreign, 400);
    expectRefused(
      "POST",
      "/template/sales/{x}",
      await callApi("POST", "/template/sales/api", { token: demo.partner1, body: { sales_report_id: [borealisRows[0].sales_report_id] } }),
      400,
    );
    expect((await partners(demo.borealis, "api")).rows).toEqual(borealisRows);
    expectRefused("POST", "/template/sales/{x}", await callApi("POST", "/template/sales/xyz", { token: demo.partner1, body }), 400);
    await unchanged();

    const saved = await callApi("POST", "/template/sales/api", { token: demo.partner1, body: { ...body, partner_id: demo.acme } });
    expectStatus(saved, 200);
    expectDocumented("POST", "/template/sales/{x}", saved);
    expect(saved.body.detail).toMatch(/^Data successfully recorded\. Total Rows: \d+/);
    const after = await own(demo.partner1, "api");
    expect(after.rows.find((row: any) => row.sales_report_id === first.sales_report_id)).toEqual({ ...first, purchaser: "Changed Buyer Ltd" });
    const added = after.rows.find((row: any) => row.purchaser === "New Buyer Ltd");
    expect(added).toEqual({ ...newRowFrom(first, "New Buyer Ltd"), sales_report_id: expect.any(Number) });
    expect(added.sales_report_id).not.toBe(first.sales_report_id);
    expect(after.rows.map((row: any) => row.sales_report_id)).not.toContain(second.sales_report_id);
    expect(after.rows).toHaveLength(before.rows.length);
    expect(after.sales_meta.version).toBe(saved.body.version);
    expect((await own(demo.partner1, "fdf")).rows).toEqual(fdfBefore.rows);

    const stale = await callApi("POST", "/template/sales/api", { token: demo.partner1, body });
    expectRefused("POST", "/template/sales/{x}", stale, 409);
    expect(stale.body.detail).toContain("after you opened it");
  });

  it("POST /template/sales/fdf: an FDF row filled from its ids, its derived values worked out, an entered value that disagrees warned of", async () => {
    const before = await own(demo.partner1, "fdf");
    const [first] = before.rows;
    const product = before.product_order[0];
    const kenya = before.country_order.find((country: any) => country.country_name === "Kenya");
    const row = {
      year: "2026",
      month: "November",
      country_id: kenya.country_id,
      purchaser: "Filled By Id Ltd",
      product_id: product.product_id,
      strength: "50 mg",
      formulation_md: "Tablet",
      pack_size: "30",
      quantity: "1000",
      currency: "USD",
      gross_sale_price_currency: "2.5",
      deductable_expenses: "100",
      royalty_percent: "5",
      royalty_due: "999",
    };
    const saved = await callApi("POST", "/template/sales/fdf", { token: demo.partner1, body: { rows: [row, { ...first, comments: "Checked." }] } });
    expectStatus(saved, 200);
    expectDocumented("POST", "/template/sales/{x}", saved);
    expect(saved.body.warnings).toEqual([{ row: 0, field: "royalty_due", expected: "120" }]);
    const after = await own(demo.partner1, "fdf");
    expect(after.rows).toHaveLength(before.rows.length + 1);
    expect(after.rows.find((saved: any) => saved.sales_report_id === first.sales_report_id)).toEqual({ ...first, comments: "Checked." });
    expect(after.rows.find((saved: any) => saved.purchaser === "Filled By Id Ltd")).toMatchObject({
      country_name: "Kenya",
      country_id: kenya.country_id,
      product_name: product.product_name,
      product_id: product.product_id,
      usd_exchange_rate: "1",
      gross_sale_price_usd: "2.5",
      total_gross_value: "2500",
      total_value: "2400",
      royalty_due: "999",
      procurement_end_country: "",
    });
    const unknownCountry = await callApi("POST", "/template/sales/fdf", { token: demo.partner1, body: { rows: [{ ...row, country_id: 999999 }] } });
    expectRefused("POST", "/template/sales/{x}", unknownCountry, 400);
    expect(unknownCountry.body.errors).toEqual({ "rows.0.country_id": ["No such country."] });
    // An API row's id is no row of the FDF tab.
    const apiRow = (await own(demo.partner1, "api")).rows[0];
    expectRefused(
      "POST",
      "/template/sales/{x}",
      await callApi("POST", "/template/sales/fdf", { token: demo.partner1, body: { rows: [{ ...first, sales_report_id: apiRow.sales_report_id }] } }),
      400,
    );
    expect((await own(demo.partner1, "fdf")).rows).toEqual(after.rows);
  });

  it("POST /template/sales/{x}/{y}: an administrator saves a partner's tab; refused to STAFF, to partners, and to a partner_id that is not the path's", async () => {
    const before = await partners(demo.borealis, "api");
    const body = { version: before.sales_meta.version, rows: [{ ...before.rows[0], purchaser: "Corrected by MPP" }] };
    expectRefused("POST", "/template/sales/{x}/{y}", await callApi("POST", `/template/sales/api/${demo.borealis}`, { token: demo.staff, body }), 403);
    for (const token of [demo.partner1, demo.partner2])
      expectRefused("POST", "/template/sales/{x}/{y}", await callApi("POST", `/template/sales/api/${demo.borealis}`, { token, body }), 403);
    const otherPartner = await callApi("POST", `/template/sales/api/${demo.borealis}`, { token: demo.admin, body: { ...body, partner_id: demo.acme } });
    expectRefused("POST", "/template/sales/{x}/{y}", otherPartner, 400);
    expect(otherPartner.body.errors).toEqual({ partner_id: ["Must be the partner of the path."] });
    // Acme's path naming a Borealis row: refused, Borealis's row unchanged.
    expectRefused(
      "POST",
      "/template/sales/{x}/{y}",
      await callApi("POST", `/template/sales/api/${demo.acme}`, { token: demo.admin, body: { rows: body.rows } }),
      400,
    );
    expect((await partners(demo.borealis, "api")).rows).toEqual(before.rows);

    const saved = await callApi("POST", `/template/sales/api/${demo.borealis}`, { token: demo.admin, body: { ...body, partner_id: demo.borealis } });
    expectStatus(saved, 200);
    expectDocumented("POST", "/template/sales/{x}/{y}", saved);
    const after = await own(demo.partner2, "api");
    expect(after.rows[0]).toEqual({ ...before.rows[0], purchaser: "Corrected by MPP" });
    expect(after.sales_meta.version).toBe(saved.body.version);
    expectRefused("POST", "/template/sales/{x}/{y}", await callApi("POST", `/template/sales/api/${demo.borealis}`, { token: demo.admin, body }), 409);
    expectRefused("POST", "/template/sales/{x}/{y}", await callApi("POST", "/template/sales/api/99999", { token: demo.admin, body: { rows: [] } }), 404);
  });

  it("the answer of a GET posted back unchanged is accepted and changes nothing, on both tabs, by the partner and by an administrator", async () => {
    // A save is recorded (the report's version moves on); the rows stay as they were.
    const sameBut = (answer: any, version: number) => ({ ...answer, sales_meta: { ...answer.sales_meta, version } });
    for (const x of ["api", "fdf"] as const) {
      const read = { api: await own(demo.partner1, "api"), fdf: await own(demo.partner1, "fdf") };
      const saved = await callApi("POST", `/template/sales/${x}`, { token: demo.partner1, body: read[x] });
      expectStatus(saved, 200);
      expectDocumented("POST", "/template/sales/{x}", saved);
      expect(saved.body.warnings).toEqual([]);
      expect(saved.body.detail).toBe(`Data successfully recorded. Total Rows: ${read.api.rows.length + read.fdf.rows.length}`);
      expect(await own(demo.partner1, "api")).toEqual(sameBut(read.api, saved.body.version));
      expect(await own(demo.partner1, "fdf")).toEqual(sameBut(read.fdf, saved.body.version));
    }
    // Its version is the save's: an answer read before a change is stale.
    const old = await own(demo.partner1, "api");
    expectStatus(await callApi("POST", "/template/sales/api", { token: demo.partner1, body: { rows: [{ ...old.rows[0], purchaser: "Moved on Ltd" }] } }), 200);
    expectRefused("POST", "/template/sales/{x}", await callApi("POST", "/template/sales/api", { token: demo.partner1, body: old }), 409);

    const earlier = (await own(demo.partner1, "fdf")).quarter_dropdown[1].name;
    for (const x of ["api", "fdf"] as const) {
      const answer = await partners(demo.borealis, x);
      const saved = await callApi("POST", `/template/sales/${x}/${demo.borealis}`, { token: demo.admin, body: answer });
      expectStatus(saved, 200);
      expectDocumented("POST", "/template/sales/{x}/{y}", saved);
      expect(await partners(demo.borealis, x)).toEqual(sameBut(answer, saved.body.version));
      const history = await partners(demo.acme, x, { quarter: earlier });
      expect(history.rows.length).toBeGreaterThan(0);
      const savedHistory = await callApi("POST", `/template/sales/${x}/${demo.acme}`, { token: demo.admin, body: history, query: { quarter: earlier } });
      expectStatus(savedHistory, 200);
      expect(await partners(demo.acme, x, { quarter: earlier })).toEqual(sameBut(history, savedHistory.body.version));
    }
  });

  it("a client written against the spec (its fields only, no version) adds an API row, reads it back with its sales_report_id and deletes it", async () => {
    const read = await own(demo.partner3, "api");
    expect(read.rows).toEqual([]);
    const product = read.product_order[0];
    const country = read.country_order.find((entry: any) => entry.country_name === "India");
    const row = {
      year: "2026",
      month: "October",
      country_name: country.country_name,
      country_id: country.country_id,
      purchaser: "Spec Client Ltd",
      product_name: product.product_name,
      product_id: product.product_id,
      quantity: "12.5",
      total_value: "1000.10",
    };
    const saved = await callApi("POST", "/template/sales/api", { token: demo.partner3, body: { sales_report_id: [], rows: [row] } });
    expectStatus(saved, 200);
    const after = await own(demo.partner3, "api");
    expect(after.rows).toEqual([{ ...row, total_value: "1000.1", sales_report_id: expect.any(Number) }]);
    expect(after.sales_meta).toMatchObject({ partner_name: "Cedar Life Sciences", report_status: "Saved" });

    const deleted = await callApi("POST", "/template/sales/api", {
      token: demo.partner3,
      body: { sales_report_id: [after.rows[0].sales_report_id], rows: [] },
    });
    expectStatus(deleted, 200);
    expect(deleted.body.detail).toBe("Data successfully recorded. Total Rows: 0, Deleted Rows: 1");
    expect((await own(demo.partner3, "api")).rows).toEqual([]);
  });

  it("POST /template/sales/submit/, /message/, /inbox/{who}: the partner submits, the administrator rejects, the partner reads; resubmitted and approved", async () => {
    const version = (await own(demo.partner1, "api")).sales_meta.version;

    const noComment = await callApi("POST", "/template/sales/submit/", { token: demo.partner1, body: { message: "", version } });
    expectRefused("POST", "/template/sales/submit/", noComment, 400);
    expect(noComment.body.detail).toBe("Enter comments for admin");
    expectRefused(
      "POST",
      "/template/sales/submit/",
      await callApi("POST", "/template/sales/submit/", { token: demo.admin, body: { message: "x", version } }),
      403,
    );
    expectRefused(
      "POST",
      "/template/sales/submit/",
      await callApi("POST", "/template/sales/submit/", { token: demo.partner1, body: { message: "x", version: version + 5 } }),
      409,
    );

    const submitted = await callApi("POST", "/template/sales/submit/", { token: demo.partner1, body: { message: "Q4 as agreed.", version } });
    expectStatus(submitted, 200);
    expectDocumented("POST", "/template/sales/submit/", submitted);
    expect(submitted.body.detail).toBe("Report has been submitted to the admin!");
    const seen = await partners(demo.acme, "api");
    expect(seen.sales_meta).toMatchObject({ report_status: "Submitted", submission_time: expect.any(String) });
    expect(seen.messages.at(-1)).toMatchObject({ is_partner_message: true, is_approved: null, message: "Q4 as agreed." });

    const staffDecision = await callApi("POST", "/template/sales/message/", {
      token: demo.staff,
      body: { partner_id: demo.acme, message: "No.", is_approved: false },
    });
    expectRefused("POST", "/template/sales/message/", staffDecision, 403);
    // The administrator first settles the product name Acme's seeded report asks to verify.
    const adminUser = (await findUserByEmail("admin@example.org"))!;
    for (const pending of await db.select().from(productVerifications).where(eq(productVerifications.status, "pending"))) {
      await decideProductVerification({
        actor: adminUser,
        verificationId: pending.id,
        decision: "reject",
        mapToProductId: null,
        newProduct: null,
        projectStatus: null,
      });
    }
    const rejected = await callApi("POST", "/template/sales/message/", {
      token: demo.admin,
      body: { partner_id: demo.acme, message: "Please add October.", is_approved: false },
    });
    expectStatus(rejected, 200);
    expectDocumented("POST", "/template/sales/message/", rejected);
    expect(rejected.body.detail).toBe("Report Rejected!");

    const unread = await own(demo.partner1, "fdf");
    expect(unread.sales_meta.report_status).toBe("Rejected");
    expect(unread.unread_message_count).toBe(1);
    expect(unread.messages.at(-1)).toMatchObject({ is_partner_message: false, message: "Please add October.", is_approved: false });
    const read = await callApi("POST", "/template/sales/inbox/partner", { token: demo.partner1, body: {} });
    expectStatus(read, 200);
    expectDocumented("POST", "/template/sales/inbox/{who}", read);
    expect((await own(demo.partner1, "fdf")).unread_message_count).toBe(0);
    expectRefused("POST", "/template/sales/inbox/{who}", await callApi("POST", "/template/sales/inbox/admin", { token: demo.partner1, body: {} }), 400);
    expectRefused(
      "POST",
      "/template/sales/inbox/{who}",
      await callApi("POST", "/template/sales/inbox/partner", { token: demo.partner2, body: { partner_id: demo.acme } }),
      403,
    );

    const resubmitted = await callApi("POST", "/template/sales/submit/", {
      token: demo.partner1,
      body: { message: "October added.", version: unread.sales_meta.version },
    });
    expectStatus(resubmitted, 200);
    const approved = await callApi("POST", "/template/sales/message/", {
      token: demo.admin,
      body: { partner_id: demo.acme, message: "Thank you.", is_approved: true },
    });
    expect(approved.body.detail).toBe("Report Approved!");
    const final = await own(demo.partner1, "api");
    expect(final.sales_meta).toMatchObject({ report_status: "Approved", approval_time: expect.any(String), can_edit: false });
    expect(final.quarter_editable).toBe(false);
    // Cedar has not submitted: nothing to decide.
    expectRefused(
      "POST",
      "/template/sales/message/",
      await callApi("POST", "/template/sales/message/", { token: demo.admin, body: { partner_id: demo.cedar, message: "x", is_approved: true } }),
      409,
    );
  });
});

describe("JSON API: one quarter by machine alone", () => {
  it("a partner saves and submits sales rows, the administrator approves; the consolidated report and the dashboard show them", async () => {
    const report = await own(demo.partner1, "api");
    const saved = await callApi("POST", "/template/sales/api", {
      token: demo.partner1,
      body: { version: report.sales_meta.version, rows: [{ ...newRowFrom(report.rows[0], "Machine Buyer Ltd"), quantity: "1000", total_value: "777777" }] },
    });
    expectStatus(saved, 200);
    expectStatus(
      await callApi("POST", "/template/sales/submit/", { token: demo.partner1, body: { message: "Sent by our ERP.", version: saved.body.version } }),
      200,
    );

    expectStatus(await callApi("GET", `/template/product_verification/${demo.acme}`, { token: demo.admin }), 200);
    // Settle the seeded pending product names by API too, then approve.
    for (const verification of await db.select().from(productVerifications).where(eq(productVerifications.status, "pending"))) {
      expectStatus(
        await callApi("POST", `/template/product_verification/${demo.acme}`, {
          token: demo.admin,
          body: { product_verification_id: verification.id, is_approved: false },
        }),
        200,
      );
    }
    expectStatus(
      await callApi("POST", "/template/sales/message/", { token: demo.admin, body: { partner_id: demo.acme, message: "Approved by API.", is_approved: true } }),
      200,
    );

    const consolidated = await callApi("POST", "/report/sales/api", { token: demo.admin, body: { partner_id: demo.acme, purchaser: "Machine Buyer" } });
    expectStatus(consolidated, 200);
    expectDocumented("POST", "/report/sales/{x}", consolidated);
    expect(consolidated.body.count).toBe(1);
    expect(JSON.stringify(consolidated.body.rows[0])).toContain("Machine Buyer Ltd");
    expect(JSON.stringify(consolidated.body.rows[0])).toContain("Approved");

    // The dashboard counts approved reports only: the row's value is in Acme's sales value now.
    const byCompany = await callApi("GET", "/admin/dashboard/sales/", { token: demo.admin, query: { map_with: "company", for: "product" } });
    expectStatus(byCompany, 200);
    expectDocumented("GET", "/admin/dashboard/sales/", byCompany);
    const acmeRows = byCompany.body.rows.filter((row: Record<string, unknown>) => Object.values(row).includes(report.sales_meta.partner_name));
    const values = acmeRows.flatMap((row: Record<string, unknown>) => Object.values(row)).map(String);
    expect(values.some((value: string) => Number(value.replace(/,/g, "")) >= 777777)).toBe(true);
  });

  it("a body of thousands of bad entries is refused naming the first 100 fields, and nothing is saved", async () => {
    const before = await callApi("GET", "/template/sales/api", { token: demo.partner1 });
    const answer = await callApi("POST", "/template/sales/api", {
      token: demo.partner1,
      body: { sales_report_id: Array.from({ length: 5000 }, () => "not an id") },
    });
    expectRefused("POST", "/template/sales/{x}", answer, 400);
    expect(Object.keys(answer.body.errors)).toHaveLength(100);
    expect(answer.body.errors["sales_report_id.0"]).toBeDefined();
    expect(JSON.stringify(answer.body).length).toBeLessThan(20_000);
    expect((await callApi("GET", "/template/sales/api", { token: demo.partner1 })).body.rows).toEqual(before.body.rows);
  });
});

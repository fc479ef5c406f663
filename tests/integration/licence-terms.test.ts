/**
 * Licence terms (issue 32): the administrators' screen (/admin/licence-terms/{partnerId}), the
 * partner's own (/partner/licence-terms), the JSON API (/api/licence_terms/{partnerId}) and the
 * demo seed's terms against the demo Sales rows.
 */
import { and, asc, count, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { auditLog, countries, licenceCountryTerms, licenceTerms, partnerProducts, partners, products, reports, salesRows } from "~/db/schema";
import { issueApiToken } from "~/models/api-token.server";
import { findUserByEmail } from "~/models/user.server";
import { action as adminAction, loader as adminLoader } from "~/routes/_shell.admin.licence-terms.$id";
import { loader as partnerLoader } from "~/routes/_shell.partner.licence-terms";
import { readToast } from "~/utils/toast.server";
import { callApi, expectDocumented, type ApiAnswer } from "../support/api";
import { buildRequest, cookiesFrom, runRoute, sessionCookieFor } from "../support/remix";

const ADMIN = "admin@example.org";
const STAFF = "staff@example.org";
const ACME = "partner1@example.org";
const BOREALIS = "partner2@example.org";

type Form = Record<string, string>;

const partnerIdOf = async (email: string) => (await db.select({ id: partners.id }).from(partners).where(eq(partners.email, email)))[0].id;
const productIdOf = async (name: string) => (await db.select({ id: products.id }).from(products).where(eq(products.name, name)))[0].id;
const countryIdOf = async (name: string) => (await db.select({ id: countries.id }).from(countries).where(eq(countries.name, name)))[0].id;

async function openPage(partnerId: number | string, email: string | null = ADMIN) {
  const cookie = email ? await sessionCookieFor(email) : undefined;
  return runRoute(adminLoader, buildRequest(`/admin/licence-terms/${partnerId}`, { cookie }), { params: { id: String(partnerId) } });
}

async function save(partnerId: number | string, form: Form, email: string | null = ADMIN) {
  const cookie = email ? await sessionCookieFor(email) : undefined;
  return runRoute(adminAction, buildRequest(`/admin/licence-terms/${partnerId}`, { form, cookie }), { params: { id: String(partnerId) } });
}

interface FormValue {
  partnerId: string;
  products: {
    productId: string;
    royaltyRate?: string;
    apiLicensed?: boolean;
    countries: { countryId: string; royaltyRate?: string; notLicensed: boolean }[];
  }[];
}

/** The page's form as the browser posts it. */
function flatten(value: FormValue): Form {
  const form: Form = { partnerId: value.partnerId };
  value.products.forEach((product, index) => {
    const at = `products[${index}]`;
    form[`${at}.productId`] = product.productId;
    if (product.royaltyRate !== undefined) form[`${at}.royaltyRate`] = product.royaltyRate;
    if (product.apiLicensed) form[`${at}.apiLicensed`] = "on";
    product.countries.forEach((row, rowIndex) => {
      const cell = `${at}.countries[${rowIndex}]`;
      form[`${cell}.countryId`] = row.countryId;
      if (row.royaltyRate !== undefined) form[`${cell}.royaltyRate`] = row.royaltyRate;
      if (row.notLicensed) form[`${cell}.notLicensed`] = "on";
    });
  });
  return form;
}

/** The partner's terms as the page shows them (its form), read by the administrator. */
async function formOf(partnerId: number): Promise<Form> {
  const page = await openPage(partnerId);
  expect(page.status).toBe(200);
  return flatten(page.data.defaultValue);
}

/** Every stored term and exception of the partner, and the audit rows: what a refusal must leave as it was. */
async function stored(partnerId: number) {
  const terms = await db.select().from(licenceTerms).where(eq(licenceTerms.partnerId, partnerId)).orderBy(asc(licenceTerms.id));
  const exceptions = terms.length
    ? await db
        .select()
        .from(licenceCountryTerms)
        .where(
          inArray(
            licenceCountryTerms.licenceTermId,
            terms.map((term) => term.id),
          ),
        )
        .orderBy(asc(licenceCountryTerms.licenceTermId), asc(licenceCountryTerms.countryId))
    : [];
  const [{ audits }] = await db.select({ audits: count() }).from(auditLog).where(eq(auditLog.entity, "licence_terms"));
  return { terms, exceptions, audits };
}

/** The stored terms of one product: rate, API licence and exceptions by country name. */
async function termsOf(partnerId: number, productName: string) {
  const productId = await productIdOf(productName);
  const [term] = await db
    .select()
    .from(licenceTerms)
    .where(and(eq(licenceTerms.partnerId, partnerId), eq(licenceTerms.productId, productId)));
  if (!term) return null;
  const rows = await db
    .select({ country: countries.name, royaltyRate: licenceCountryTerms.royaltyRate, isLicensed: licenceCountryTerms.isLicensed })
    .from(licenceCountryTerms)
    .innerJoin(countries, eq(countries.id, licenceCountryTerms.countryId))
    .where(eq(licenceCountryTerms.licenceTermId, term.id))
    .orderBy(asc(countries.name));
  return { royaltyRate: term.royaltyRate, apiLicensed: term.apiLicensed, updatedBy: term.updatedBy, countries: rows };
}

const toastOf = async (result: { headers: Headers }) => (await readToast(buildRequest("/", { cookie: cookiesFrom(result as never) }))).toast;

/** The form's index of a product (its section). */
const sectionOf = (form: Form, productId: number) => {
  const key = Object.keys(form).find((name) => /^products\[\d+\]\.productId$/.test(name) && form[name] === String(productId));
  return key!.replace(".productId", "");
};

describe("the Licence Terms screen: who may open it", () => {
  it("ADMIN opens a partner's terms to edit: its products with the seeded rates and exceptions", async () => {
    const acme = await partnerIdOf(ACME);
    const page = await openPage(acme);
    expect(page.status).toBe(200);
    expect(page.data.viewer).toBe("admin");
    expect(page.data.partner).toEqual({ id: acme, companyName: "Acme Generics Ltd" });
    expect(page.data.products.map((product: { name: string }) => product.name)).toEqual([
      "Dolutegravir 50 mg",
      "Sofosbuvir/Daclatasvir",
      "TLD (Tenofovir/Lamivudine/Dolutegravir)",
      "Dolutegravir API",
    ]);
    expect(page.data.countries.length).toBeGreaterThan(200);
    const dolutegravir = page.data.defaultValue.products[0];
    expect(dolutegravir).toMatchObject({ royaltyRate: "5", apiLicensed: true });
    expect(dolutegravir.countries).toEqual([
      { countryId: String(await countryIdOf("Brazil")), notLicensed: true },
      { countryId: String(await countryIdOf("Malawi")), royaltyRate: "0", notLicensed: false },
      { countryId: String(await countryIdOf("Mozambique")), royaltyRate: "0", notLicensed: false },
    ]);
  });

  it("STAFF reads the same page without editing; a partner is refused it, its own id included; no session goes to /login", async () => {
    const acme = await partnerIdOf(ACME);
    const staff = await openPage(acme, STAFF);
    expect(staff.status).toBe(200);
    expect(staff.data.viewer).toBe("staff");
    expect(staff.data.defaultValue).toEqual((await openPage(acme)).data.defaultValue);
    expect((await openPage(acme, ACME)).status).toBe(403);
    expect((await openPage(await partnerIdOf(BOREALIS), ACME)).status).toBe(403);
    expect((await openPage(acme, null)).location).toBe("/login");
  });

  it("an unknown or malformed partner id is not found", async () => {
    expect((await openPage(99999)).status).toBe(404);
    expect((await openPage("abc")).status).toBe(404);
    expect((await save(99999, { partnerId: "99999" })).status).toBe(404);
  });

  it("a partner reads its own terms on /partner/licence-terms, whatever id the request names", async () => {
    const acme = await partnerIdOf(ACME);
    const borealis = await partnerIdOf(BOREALIS);
    const cookie = await sessionCookieFor(ACME);
    for (const path of ["/partner/licence-terms", `/partner/licence-terms?partnerId=${borealis}&id=${borealis}&partner_id=${borealis}`]) {
      const page = await runRoute(partnerLoader, buildRequest(path, { cookie }));
      expect(page.status).toBe(200);
      expect(page.data.viewer).toBe("partner");
      expect(page.data.partner.id).toBe(acme);
      expect(page.data.defaultValue).toEqual((await openPage(acme)).data.defaultValue);
    }
    for (const email of [ADMIN, STAFF]) {
      expect((await runRoute(partnerLoader, buildRequest("/partner/licence-terms", { cookie: await sessionCookieFor(email) }))).status).toBe(403);
    }
  });

  it("lists the partner's active products, and an inactive one only while it has terms", async () => {
    const acme = await partnerIdOf(ACME);
    const tld = await productIdOf("TLD (Tenofovir/Lamivudine/Dolutegravir)");
    await db
      .update(partnerProducts)
      .set({ isActive: false })
      .where(and(eq(partnerProducts.partnerId, acme), eq(partnerProducts.productId, tld)));
    const withTerms = (await openPage(acme)).data.products.find((product: { id: number }) => product.id === tld);
    expect(withTerms).toMatchObject({ active: false });

    await db.delete(licenceTerms).where(and(eq(licenceTerms.partnerId, acme), eq(licenceTerms.productId, tld)));
    expect((await openPage(acme)).data.products.map((product: { id: number }) => product.id)).not.toContain(tld);
  });
});

describe("the Licence Terms screen: saving", () => {
  it("ADMIN saves a default rate, a country's rate and a country outside the territory: one change, audited, with a toast", async () => {
    const acme = await partnerIdOf(ACME);
    const form = await formOf(acme);
    const section = sectionOf(form, await productIdOf("Sofosbuvir/Daclatasvir"));
    const before = await termsOf(acme, "Sofosbuvir/Daclatasvir");
    const [kenya, germany] = [await countryIdOf("Kenya"), await countryIdOf("Germany")];
    const result = await save(acme, {
      ...form,
      [`${section}.royaltyRate`]: "3.75",
      [`${section}.apiLicensed`]: "on",
      // The seeded Egypt row is replaced by these two.
      [`${section}.countries[0].countryId`]: String(kenya),
      [`${section}.countries[0].royaltyRate`]: "0.5",
      [`${section}.countries[1].countryId`]: String(germany),
      [`${section}.countries[1].notLicensed`]: "on",
    });
    expect(result.status).toBe(302);
    expect(result.location).toBe(`/admin/licence-terms/${acme}`);
    expect(await toastOf(result)).toMatchObject({ type: "success", message: "Licence terms saved successfully!" });

    const admin = await findUserByEmail(ADMIN);
    expect(await termsOf(acme, "Sofosbuvir/Daclatasvir")).toEqual({
      royaltyRate: "3.7500",
      apiLicensed: true,
      updatedBy: admin!.id,
      countries: [
        { country: "Germany", royaltyRate: null, isLicensed: false },
        { country: "Kenya", royaltyRate: "0.5000", isLicensed: true },
      ],
    });
    // The other products were not written.
    expect((await termsOf(acme, "Dolutegravir 50 mg"))!.royaltyRate).toBe("5.0000");

    const [audit] = await db.select().from(auditLog).where(eq(auditLog.entity, "licence_terms"));
    expect(audit).toMatchObject({ actorId: admin!.id, action: "licence_terms.update", entityId: String(acme), requestId: "test-request" });
    const sofosbuvir = (list: unknown) => (list as { product: string }[]).find((product) => product.product === "Sofosbuvir/Daclatasvir");
    expect(sofosbuvir(audit.before)).toMatchObject({ royaltyRate: before!.royaltyRate.replace(/\.?0+$/, ""), apiLicensed: false });
    expect(sofosbuvir(audit.after)).toMatchObject({ royaltyRate: "3.75", apiLicensed: true });

    // The page shows what was saved.
    const again = (await openPage(acme)).data.defaultValue.products.find(
      (product: { productId: string }) => product.productId === form[`${section}.productId`],
    );
    expect(again).toEqual({
      productId: form[`${section}.productId`],
      royaltyRate: "3.75",
      apiLicensed: true,
      countries: [
        { countryId: String(germany), notLicensed: true },
        { countryId: String(kenya), royaltyRate: "0.5", notLicensed: false },
      ],
    });
  });

  it("a save that changes nothing writes nothing", async () => {
    const acme = await partnerIdOf(ACME);
    const before = await stored(acme);
    const result = await save(acme, await formOf(acme));
    expect(result.status).toBe(302);
    expect(await stored(acme)).toEqual(before);
  });

  it("an empty default rate (nothing else) removes a product's terms; a blank exception row is no exception", async () => {
    const acme = await partnerIdOf(ACME);
    const form = await formOf(acme);
    const section = sectionOf(form, await productIdOf("Dolutegravir API"));
    const tld = sectionOf(form, await productIdOf("TLD (Tenofovir/Lamivudine/Dolutegravir)"));
    const result = await save(acme, { ...form, [`${section}.royaltyRate`]: "", [`${section}.apiLicensed`]: "", [`${tld}.countries[2].countryId`]: "" });
    expect(result.status).toBe(302);
    expect(await termsOf(acme, "Dolutegravir API")).toBeNull();
    expect((await termsOf(acme, "TLD (Tenofovir/Lamivudine/Dolutegravir)"))!.countries.map((row) => row.country)).toEqual(["United States", "Zimbabwe"]);
  });

  it("refuses bad input beside each field and saves nothing of the page", async () => {
    const acme = await partnerIdOf(ACME);
    const form = await formOf(acme);
    const first = sectionOf(form, await productIdOf("Dolutegravir 50 mg"));
    const second = sectionOf(form, await productIdOf("Sofosbuvir/Daclatasvir"));
    const third = sectionOf(form, await productIdOf("TLD (Tenofovir/Lamivudine/Dolutegravir)"));
    const before = await stored(acme);
    const malawi = form[`${first}.countries[1].countryId`];
    const result = await save(acme, {
      ...form,
      [`${first}.royaltyRate`]: "five",
      [`${first}.countries[0].royaltyRate`]: "2",
      [`${first}.countries[2].countryId`]: malawi,
      [`${second}.royaltyRate`]: "100.5",
      [`${second}.countries[0].royaltyRate`]: "-1",
      [`${third}.royaltyRate`]: "2.12345",
      [`${third}.countries[0].countryId`]: "99999",
      [`${third}.countries[0].royaltyRate`]: "1",
      [`${third}.countries[0].notLicensed`]: "",
    });
    expect(result.status).toBe(400);
    expect(result.data.error).toMatchObject({
      [`${first}.royaltyRate`]: ["Enter the rate as a number, such as 5 or 3.25."],
      // Brazil is not licensed: it has no rate.
      [`${first}.countries[0].royaltyRate`]: ["A country that is not licensed has no rate."],
      [`${first}.countries[2].countryId`]: ["This country is already listed for this product."],
      [`${second}.royaltyRate`]: ["The rate must be between 0 and 100."],
      [`${second}.countries[0].royaltyRate`]: ["The rate must be between 0 and 100."],
      [`${third}.royaltyRate`]: ["Use at most 4 decimals."],
    });
    expect(await stored(acme)).toEqual(before);

    // A country that does not exist is refused by the model, once the form's rules pass.
    const unknown = await save(acme, { ...form, [`${third}.countries[0].countryId`]: "99999" });
    expect(unknown.status).toBe(400);
    expect(unknown.data.error[`${third}.countries[0].countryId`]).toEqual(["Unknown country."]);
    expect(await stored(acme)).toEqual(before);

    // A licensed country needs a rate; exceptions need a default rate.
    const missing = await save(acme, { ...form, [`${third}.countries[1].royaltyRate`]: "", [`${first}.royaltyRate`]: "" });
    expect(missing.status).toBe(400);
    expect(missing.data.error[`${third}.countries[1].royaltyRate`]).toEqual(["Please enter a royalty rate."]);
    expect(missing.data.error[`${first}.royaltyRate`]).toEqual([
      "Please enter the default royalty rate: this product has country exceptions or an API licence.",
    ]);
    expect(await stored(acme)).toEqual(before);
  });

  it("ADMIN naming another partner's product on a partner's page is refused; nothing of either partner changes", async () => {
    const acme = await partnerIdOf(ACME);
    const borealis = await partnerIdOf(BOREALIS);
    const form = await formOf(acme);
    const [acmeBefore, borealisBefore] = [await stored(acme), await stored(borealis)];
    const result = await save(acme, {
      ...form,
      "products[4].productId": String(await productIdOf("Sofosbuvir API")),
      "products[4].royaltyRate": "1",
    });
    expect(result.status).toBe(400);
    expect(result.data.error["products[4].productId"]).toEqual(["This product is not one of the partner's products."]);

    // Borealis's page posted to Acme's address, and a post without the page's partner (an empty body).
    const crossed = await save(acme, await formOf(borealis));
    expect(crossed.status).toBe(400);
    expect(crossed.data.error[""]).toEqual(["The request could not be understood. Reload the page and try again."]);
    expect((await save(acme, {})).status).toBe(400);
    expect(await stored(acme)).toEqual(acmeBefore);
    expect(await stored(borealis)).toEqual(borealisBefore);
  });

  it("STAFF and partners are refused the save (their own partner's too) and nothing is written; no session goes to /login", async () => {
    const acme = await partnerIdOf(ACME);
    const borealis = await partnerIdOf(BOREALIS);
    const form = await formOf(acme);
    const section = sectionOf(form, await productIdOf("Dolutegravir 50 mg"));
    const changed = { ...form, [`${section}.royaltyRate`]: "1" };
    const before = await stored(acme);
    expect((await save(acme, changed, STAFF)).status).toBe(403);
    expect((await save(acme, changed, ACME)).status).toBe(403);
    expect((await save(borealis, changed, ACME)).status).toBe(403);
    expect((await save(acme, changed, null)).location).toBe("/login");
    expect(await stored(acme)).toEqual(before);
  });

  it("Add a country without JavaScript comes back with a blank row, unsaved", async () => {
    const acme = await partnerIdOf(ACME);
    const form = await formOf(acme);
    const section = sectionOf(form, await productIdOf("Dolutegravir API"));
    const before = await stored(acme);
    const result = await save(acme, {
      ...form,
      [`${section}.royaltyRate`]: "4.5",
      __intent__: JSON.stringify({ type: "insert", payload: { name: `${section}.countries` } }),
    });
    expect(result.status).toBe(200);
    const index = Number(/\d+/.exec(section)![0]);
    expect(result.data.initialValue.products[index]).toMatchObject({ royaltyRate: "4.5" });
    expect(result.data.initialValue.products[index].countries).toHaveLength(1);
    expect(await stored(acme)).toEqual(before);
  });
});

// ---------------------------------------------------------------- the JSON API

async function tokenOf(email: string) {
  const user = await findUserByEmail(email);
  return (await issueApiToken(user!.id)).token;
}

async function api(method: "GET" | "PUT", partnerId: number | string, email: string | null, body?: unknown): Promise<ApiAnswer> {
  const answer = await callApi(method, `/licence_terms/${partnerId}`, { token: email ? await tokenOf(email) : undefined, body });
  expectDocumented(method, "/licence_terms/{partnerId}", answer);
  return answer;
}

describe("the licence terms API", () => {
  it("GET answers a partner's terms to ADMIN and STAFF, and to the partner its own only", async () => {
    const acme = await partnerIdOf(ACME);
    const borealis = await partnerIdOf(BOREALIS);
    const admin = await api("GET", acme, ADMIN);
    expect(admin.status).toBe(200);
    expect(admin.body.partner_id).toBe(acme);
    expect(admin.body.products[0]).toEqual({
      product_id: await productIdOf("Dolutegravir 50 mg"),
      product_name: "Dolutegravir 50 mg",
      royalty_rate: "5",
      api_licensed: true,
      countries: [
        { country_id: await countryIdOf("Brazil"), country_name: "Brazil", royalty_rate: null, is_licensed: false },
        { country_id: await countryIdOf("Malawi"), country_name: "Malawi", royalty_rate: "0", is_licensed: true },
        { country_id: await countryIdOf("Mozambique"), country_name: "Mozambique", royalty_rate: "0", is_licensed: true },
      ],
    });
    expect((await api("GET", acme, STAFF)).body).toEqual(admin.body);
    expect((await api("GET", acme, ACME)).body).toEqual(admin.body);
    const other = await api("GET", borealis, ACME);
    expect(other.status).toBe(403);
    expect(other.body.detail).toBe("YOU ARE NOT AUTHORIZED TO USE THE PAGE");
    expect((await api("GET", 99999, ADMIN)).status).toBe(404);
    expect((await api("GET", acme, null)).status).toBe(401);
  });

  it("PUT takes the terms back as GET answers them, changed: ADMIN only, audited", async () => {
    const acme = await partnerIdOf(ACME);
    const read = (await api("GET", acme, ADMIN)).body;
    const [first, ...rest] = read.products;
    const body = {
      ...read,
      products: [
        { ...first, royalty_rate: "4.25", countries: [...first.countries, { country_id: await countryIdOf("Kenya"), royalty_rate: "1", is_licensed: true }] },
        ...rest,
      ],
    };
    const before = await stored(acme);
    for (const email of [STAFF, ACME]) expect((await api("PUT", acme, email, body)).status).toBe(403);
    expect(await stored(acme)).toEqual(before);

    const saved = await api("PUT", acme, ADMIN, body);
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ status: "OK", detail: "Licence terms saved successfully!", partner_id: acme });
    const after = (await api("GET", acme, ADMIN)).body;
    expect(after.products[0].royalty_rate).toBe("4.25");
    expect(after.products[0].countries.map((row: { country_name: string }) => row.country_name)).toEqual(["Brazil", "Kenya", "Malawi", "Mozambique"]);
    expect((await stored(acme)).audits).toBe(before.audits + 1);

    // Products left out have no terms.
    expect((await api("PUT", acme, ADMIN, { products: [after.products[0]] })).status).toBe(200);
    expect((await api("GET", acme, ADMIN)).body.products.map((product: { product_name: string }) => product.product_name)).toEqual(["Dolutegravir 50 mg"]);
  });

  it("PUT refuses with the form's rules, naming the body's fields, and writes nothing", async () => {
    const acme = await partnerIdOf(ACME);
    const borealis = await partnerIdOf(BOREALIS);
    const read = (await api("GET", acme, ADMIN)).body;
    const before = await stored(acme);
    const [first, ...rest] = read.products;
    const refused = async (products: unknown[], extra: Record<string, unknown> = {}) => {
      const answer = await api("PUT", acme, ADMIN, { ...read, ...extra, products });
      expect(answer.status).toBe(400);
      return answer.body.errors;
    };
    expect(await refused([{ ...first, royalty_rate: "101" }, ...rest])).toEqual({ "products.0.royalty_rate": ["The rate must be between 0 and 100."] });
    expect(await refused([{ ...first, countries: [{ ...first.countries[0], royalty_rate: "3" }] }, ...rest])).toEqual({
      "products.0.countries.0.royalty_rate": ["A country that is not licensed has no rate."],
    });
    expect(await refused([{ ...first, countries: [first.countries[1], first.countries[1]] }, ...rest])).toEqual({
      "products.0.countries.1.country_id": ["This country is already listed for this product."],
    });
    expect(await refused([{ ...first, countries: [{ country_id: 99999, royalty_rate: "1", is_licensed: true }] }, ...rest])).toEqual({
      "products.0.countries.0.country_id": ["Unknown country."],
    });
    const borealisProduct = { product_id: await productIdOf("Sofosbuvir API"), royalty_rate: "1", api_licensed: true, countries: [] };
    expect(await refused([...read.products, borealisProduct])).toEqual({ "products.4.product_id": ["This product is not one of the partner's products."] });
    expect(await refused(read.products, { partner_id: borealis })).toEqual({ partner_id: ["Not the partner of the path."] });
    expect(await stored(acme)).toEqual(before);
    expect((await api("PUT", 99999, ADMIN, { products: [] })).status).toBe(404);
  });
});

// ---------------------------------------------------------------- the demo seed

describe("the demo seed's licence terms", () => {
  it("agree with most demo Sales rows; the two findings are Acme's Nigeria rate and Cedar's sale outside its territory", async () => {
    const rows = await db
      .select({
        partner: partners.companyName,
        partnerId: reports.partnerId,
        kind: salesRows.kind,
        productId: salesRows.productId,
        product: products.name,
        countryId: salesRows.countryId,
        country: countries.name,
        royaltyPercent: salesRows.royaltyPercent,
      })
      .from(salesRows)
      .innerJoin(reports, eq(reports.id, salesRows.reportId))
      .innerJoin(partners, eq(partners.id, reports.partnerId))
      .innerJoin(products, eq(products.id, salesRows.productId))
      .innerJoin(countries, eq(countries.id, salesRows.countryId));
    const terms = await db.select().from(licenceTerms);
    const exceptions = await db.select().from(licenceCountryTerms);
    const findings = new Set<string>();
    let agreeing = 0;
    for (const row of rows) {
      const term = terms.find((candidate) => candidate.partnerId === row.partnerId && candidate.productId === row.productId);
      expect(term, `${row.partner}: ${row.product} has terms`).toBeDefined();
      const exception = exceptions.find((candidate) => candidate.licenceTermId === term!.id && candidate.countryId === row.countryId);
      let finding: string | null = null;
      if (exception && !exception.isLicensed) finding = `${row.partner}: ${row.product} sold in ${row.country}, outside the territory`;
      else if (row.kind === "API" && !term!.apiLicensed) finding = `${row.partner}: ${row.product} sold as API without an API licence`;
      else if (row.kind === "FDF" && Number(row.royaltyPercent) !== Number(exception?.royaltyRate ?? term!.royaltyRate)) {
        finding = `${row.partner}: ${row.product} in ${row.country} at ${Number(row.royaltyPercent)}%, licence ${Number(exception?.royaltyRate ?? term!.royaltyRate)}%`;
      }
      if (finding) findings.add(finding);
      else agreeing += 1;
    }
    expect([...findings].sort()).toEqual([
      "Acme Generics Ltd: Sofosbuvir/Daclatasvir in Nigeria at 5%, licence 4%",
      "Cedar Life Sciences: Lopinavir/ritonavir pellets sold in South Africa, outside the territory",
    ]);
    expect(agreeing / rows.length).toBeGreaterThan(0.8);

    const [{ exceptionCount }] = await db.select({ exceptionCount: count() }).from(licenceCountryTerms).where(eq(licenceCountryTerms.royaltyRate, "0"));
    expect(exceptionCount, "royalty-free countries").toBeGreaterThan(3);
    expect(terms.some((term) => !term.apiLicensed) && terms.some((term) => term.apiLicensed)).toBe(true);
  });
});

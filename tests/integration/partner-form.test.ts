import { and, asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { auditLog, employees, outbox, partnerProducts, partners, products, users } from "~/db/schema";
import { findUserByEmail, verifyLogin } from "~/models/user.server";
import { action as addAction, loader as addLoader } from "~/routes/_shell.admin.add-partner";
import { action as editAction, loader as editLoader } from "~/routes/_shell.admin.edit-partner.$id";
import { readToast } from "~/utils/toast.server";
import { buildRequest, cookiesFrom, runRoute, sessionCookieFor } from "../support/remix";

const ADMIN = "admin@example.org";
const STAFF = "staff@example.org";
const PARTNER = "partner1@example.org";

type Form = Record<string, string | undefined>;

async function productId(name: string) {
  const [row] = await db.select({ id: products.id }).from(products).where(eq(products.name, name));
  return row.id;
}

async function partnerByEmail(email: string) {
  const [row] = await db
    .select()
    .from(partners)
    .where(eq(sql`lower(${partners.email})`, email.toLowerCase()));
  return row;
}

const compact = (form: Form) => Object.fromEntries(Object.entries(form).filter((entry): entry is [string, string] => entry[1] !== undefined));

async function newPartnerForm(overrides: Form = {}): Promise<Form> {
  return {
    companyName: "Delta Therapeutics",
    email: "delta@example.org",
    contactPrefix: "+91",
    contactNumber: "9876500001",
    address: "12 Harbour Road, Chennai",
    region: "Asia",
    "products[0].productId": String(await productId("Dolutegravir 50 mg")),
    "products[0].status": "PLANNED",
    "products[1].productId": String(await productId("Sofosbuvir API")),
    "products[1].status": "UNDER_DEVELOPMENT",
    "people[0].firstName": "Meera",
    "people[0].lastName": "Iyer",
    "people[0].contactPrefix": "+91",
    "people[0].contactNumber": "9811122233",
    "people[1].firstName": "John",
    "people[1].lastName": "Smith",
    "people[1].contactPrefix": "+44",
    "people[1].contactNumber": "2071234567",
    ...overrides,
  };
}

async function postAdd(form: Form, email = ADMIN) {
  const cookie = email ? await sessionCookieFor(email) : undefined;
  return runRoute(addAction, buildRequest("/admin/add-partner", { form: compact(form), cookie }));
}

async function postEdit(id: number | string, form: Form, email = ADMIN) {
  const cookie = email ? await sessionCookieFor(email) : undefined;
  return runRoute(editAction, buildRequest(`/admin/edit-partner/${id}`, { form: compact(form), cookie }), {
    params: { id: String(id) },
  });
}

async function getEdit(id: number | string, email: string | null = ADMIN) {
  const cookie = email ? await sessionCookieFor(email) : undefined;
  return runRoute(editLoader, buildRequest(`/admin/edit-partner/${id}`, { cookie }), { params: { id: String(id) } });
}

const toastOf = async (result: { headers: Headers }) => (await readToast(buildRequest("/", { cookie: cookiesFrom(result as never) }))).toast;

const countPartners = async () => (await db.select({ id: partners.id }).from(partners)).length;

/** The edit form of a seeded partner, flattened the way the browser posts it. */
async function editFormOf(id: number): Promise<Form> {
  const loaded = await getEdit(id);
  const value = loaded.data.defaultValue;
  const form: Form = {
    companyName: value.companyName,
    email: value.email,
    contactPrefix: value.contactPrefix,
    contactNumber: value.contactNumber,
    address: value.address,
    region: value.region,
  };
  value.products.forEach((row: { productId: string; status: string }, index: number) => {
    form[`products[${index}].productId`] = row.productId;
    form[`products[${index}].status`] = row.status;
  });
  value.people.forEach((row: Record<string, string>, index: number) => {
    for (const [key, cell] of Object.entries(row)) form[`people[${index}].${key}`] = cell;
  });
  return form;
}

describe("partner form: who may open and save it", () => {
  it("ADMIN opens the add form: calling codes from the countries table, one empty product and person row", async () => {
    const result = await runRoute(addLoader, buildRequest("/admin/add-partner", { cookie: await sessionCookieFor(ADMIN) }));
    expect(result.status).toBe(200);
    expect(result.data.readOnly).toBe(false);
    const codes: { value: string; country: string }[] = result.data.callingCodes;
    expect(codes).toContainEqual({ value: "+91", country: "India" });
    expect(codes).toContainEqual({ value: "+1", country: "United States" });
    expect(new Set(codes.map((code) => code.value)).size).toBe(codes.length);
    const numbers = codes.map((code) => Number(code.value.slice(1)));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(result.data.defaultValue).toMatchObject({ contactPrefix: "+91", products: [{}], people: [{ contactPrefix: "+91" }] });
    const names = result.data.products.map((product: { name: string }) => product.name);
    expect(names).toContain("Dolutegravir 50 mg");
    expect(names).toContain("Sofosbuvir API");
  });

  it("STAFF opens both pages read-only but cannot save (403)", async () => {
    const cookie = await sessionCookieFor(STAFF);
    const add = await runRoute(addLoader, buildRequest("/admin/add-partner", { cookie }));
    expect(add.status).toBe(200);
    expect(add.data.readOnly).toBe(true);
    const edit = await getEdit(1, STAFF);
    expect(edit.status).toBe(200);
    expect(edit.data.readOnly).toBe(true);

    expect((await postAdd(await newPartnerForm(), STAFF)).status).toBe(403);
    expect((await postEdit(1, await editFormOf(1), STAFF)).status).toBe(403);
    expect(await partnerByEmail("delta@example.org")).toBeUndefined();
  });

  it("PARTNER gets 403 on both pages and both saves", async () => {
    const cookie = await sessionCookieFor(PARTNER);
    expect((await runRoute(addLoader, buildRequest("/admin/add-partner", { cookie }))).status).toBe(403);
    expect((await getEdit(1, PARTNER)).status).toBe(403);
    expect((await postAdd(await newPartnerForm(), PARTNER)).status).toBe(403);
    expect((await postEdit(1, await editFormOf(1), PARTNER)).status).toBe(403);
    expect(await countPartners()).toBe(3);
  });

  it("a visitor without a session goes to /login", async () => {
    expect((await runRoute(addLoader, buildRequest("/admin/add-partner"))).location).toBe("/login");
    expect((await getEdit(1, null)).location).toBe("/login");
    const add = await runRoute(addAction, buildRequest("/admin/add-partner", { form: compact(await newPartnerForm()) }));
    expect(add.location).toBe("/login");
    const edit = await runRoute(editAction, buildRequest("/admin/edit-partner/1", { form: compact(await editFormOf(1)) }), {
      params: { id: "1" },
    });
    expect(edit.location).toBe("/login");
    expect(await countPartners()).toBe(3);
  });

  it("an unknown partner id answers 404", async () => {
    expect((await getEdit(9999)).status).toBe(404);
    expect((await getEdit("abc")).status).toBe(404);
    expect((await postEdit(9999, await newPartnerForm())).status).toBe(404);
  });
});

describe("partner form: validation messages", () => {
  it("requires company name, e-mail, contact number and region", async () => {
    const result = await postAdd({ contactPrefix: "+91" });
    expect(result.status).toBe(400);
    expect(result.data.error).toMatchObject({
      companyName: ["Please input Company name!"],
      email: ["Please input your E-mail!"],
      contactNumber: ["Please input your Contact number!"],
      region: ["Please select a Region!"],
    });
    expect(result.data.error.address).toBeUndefined();
    expect(await countPartners()).toBe(3);
  });

  it("checks the e-mail and the contact number", async () => {
    const invalidEmail = await postAdd(await newPartnerForm({ email: "not-an-email" }));
    expect(invalidEmail.data.error.email).toEqual(["Please input a valid E-mail!"]);

    const letters = await postAdd(await newPartnerForm({ contactNumber: "98765abcde" }));
    expect(letters.data.error.contactNumber).toEqual(["Contact should have only numbers!"]);

    const tooShort = await postAdd(await newPartnerForm({ contactNumber: "987654321" }));
    expect(tooShort.data.error.contactNumber).toEqual(["Contact number too short!"]);
    const tooLong = await postAdd(await newPartnerForm({ contactNumber: "98765432101" }));
    expect(tooLong.data.error.contactNumber).toEqual(["Contact number too long!"]);

    const unknownPrefix = await postAdd(await newPartnerForm({ contactPrefix: "+9999" }));
    expect(unknownPrefix.data.error.contactPrefix).toEqual(["Please select a country code!"]);
    expect(await countPartners()).toBe(3);
  });

  it("checks every row of the product and people lists", async () => {
    const result = await postAdd(
      await newPartnerForm({
        "products[1].productId": "",
        "products[1].status": "",
        "people[1].firstName": "",
        "people[1].lastName": " ",
        "people[1].contactNumber": "",
      }),
    );
    expect(result.status).toBe(400);
    expect(result.data.error).toMatchObject({
      "products[1].productId": ["Please select product."],
      "products[1].status": ["Please enter status."],
      "people[1].firstName": ["Please enter first name."],
      "people[1].lastName": ["Please enter last name."],
      "people[1].contactNumber": ["Please input your Contact number!"],
    });
    expect(result.data.error["products[0].productId"]).toBeUndefined();
    expect(result.data.error["people[0].firstName"]).toBeUndefined();

    const badPhones = await postAdd(await newPartnerForm({ "people[0].contactNumber": "12ab", "people[1].contactNumber": "12345" }));
    expect(badPhones.data.error["people[0].contactNumber"]).toEqual(["Contact should have only numbers!"]);
    expect(badPhones.data.error["people[1].contactNumber"]).toEqual(["Contact number too short!"]);
    const longPhone = await postAdd(await newPartnerForm({ "people[0].contactNumber": "1234567890123" }));
    expect(longPhone.data.error["people[0].contactNumber"]).toEqual(["Contact number too long!"]);
    expect(await countPartners()).toBe(3);
  });

  it("refuses an e-mail that a partner or a user already has, in any case", async () => {
    for (const email of ["PARTNER2@Example.org", " Admin@EXAMPLE.org "]) {
      const result = await postAdd(await newPartnerForm({ email }));
      expect(result.status).toBe(400);
      expect(result.data.error.email).toEqual(["A partner or user with this e-mail already exists."]);
      // The submitted values come back to the form.
      expect(result.data.initialValue.companyName).toBe("Delta Therapeutics");
    }
    expect(await countPartners()).toBe(3);
    expect(await db.select().from(outbox)).toHaveLength(0);
  });

  it("refuses a product listed twice, on the duplicate row", async () => {
    const dolutegravir = String(await productId("Dolutegravir 50 mg"));
    const result = await postAdd(await newPartnerForm({ "products[1].productId": dolutegravir }));
    expect(result.status).toBe(400);
    expect(result.data.error["products[1].productId"]).toEqual(["This product is already listed."]);
    expect(result.data.error["products[0].productId"]).toBeUndefined();
    expect(await countPartners()).toBe(3);
  });

  it("refuses a product that does not exist or is deactivated", async () => {
    const paused = await productId("Ravidasvir API");
    await db.update(products).set({ isActive: false }).where(eq(products.id, paused));
    const result = await postAdd(await newPartnerForm({ "products[0].productId": String(paused), "products[1].productId": "99999" }));
    expect(result.data.error["products[0].productId"]).toEqual(["Please select product."]);
    expect(result.data.error["products[1].productId"]).toEqual(["Please select product."]);
    expect(await countPartners()).toBe(3);
  });
});

describe("adding a partner", () => {
  it("saves the partner, its login without a password, products, people and audit, and mails the set-password link", async () => {
    const result = await postAdd(await newPartnerForm({ email: "  Delta@Example.ORG ", address: "" }));
    expect(result.status).toBe(302);
    expect(result.location).toBe("/admin/partner-list");
    expect(await toastOf(result)).toMatchObject({ type: "success", message: "Partner added succcessfully!" });

    const partner = await partnerByEmail("delta@example.org");
    expect(partner).toMatchObject({
      companyName: "Delta Therapeutics",
      email: "delta@example.org",
      contactNumber: "+919876500001",
      address: null,
      region: "Asia",
      isActive: true,
    });

    const login = await findUserByEmail("delta@example.org");
    expect(login).toMatchObject({ role: "PARTNER", partnerId: partner.id, name: "Delta Therapeutics", passwordHash: null, language: "en" });

    const listed = await db
      .select({ name: products.name, status: partnerProducts.projectStatus, isActive: partnerProducts.isActive })
      .from(partnerProducts)
      .innerJoin(products, eq(products.id, partnerProducts.productId))
      .where(eq(partnerProducts.partnerId, partner.id))
      .orderBy(asc(partnerProducts.id));
    expect(listed).toEqual([
      { name: "Dolutegravir 50 mg", status: "PLANNED", isActive: true },
      { name: "Sofosbuvir API", status: "UNDER_DEVELOPMENT", isActive: true },
    ]);

    const people = await db.select().from(employees).where(eq(employees.partnerId, partner.id)).orderBy(asc(employees.id));
    expect(people.map(({ firstName, lastName, contactNumber }) => ({ firstName, lastName, contactNumber }))).toEqual([
      { firstName: "Meera", lastName: "Iyer", contactNumber: "+919811122233" },
      { firstName: "John", lastName: "Smith", contactNumber: "+442071234567" },
    ]);

    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, "partner.create"));
    expect(audit).toMatchObject({ entity: "partner", entityId: String(partner.id), requestId: "test-request" });
    expect(audit.after).toMatchObject({ email: "delta@example.org", companyName: "Delta Therapeutics" });

    const mails = await db.select().from(outbox);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ kind: "password-set", toAddress: "delta@example.org" });
    expect(mails[0].textBody).toMatch(/\/set-password\/[\w-]{40,}/);
  });

  it("two saves of the same new e-mail at once: one partner, the other told the e-mail exists", async () => {
    const results = await Promise.all([postAdd(await newPartnerForm()), postAdd(await newPartnerForm({ companyName: "Delta Twin" }))]);
    expect(results.map((result) => result.status).sort()).toEqual([302, 400]);
    const refused = results.find((result) => result.status === 400)!;
    expect(refused.data.error.email).toEqual(["A partner or user with this e-mail already exists."]);
    expect(await countPartners()).toBe(4);
    expect(
      await db
        .select()
        .from(users)
        .where(eq(sql`lower(${users.email})`, "delta@example.org")),
    ).toHaveLength(1);
  });

  it("accepts a partner with no products and no people", async () => {
    const form = await newPartnerForm();
    for (const key of Object.keys(form)) if (key.startsWith("products[") || key.startsWith("people[")) delete form[key];
    const result = await postAdd(form);
    expect(result.status).toBe(302);
    const partner = await partnerByEmail("delta@example.org");
    expect(await db.select().from(partnerProducts).where(eq(partnerProducts.partnerId, partner.id))).toHaveLength(0);
    expect(await db.select().from(employees).where(eq(employees.partnerId, partner.id))).toHaveLength(0);
  });

  it("Add and Remove row buttons answer with the changed form and save nothing", async () => {
    const insert = await postAdd({
      ...(await newPartnerForm()),
      __intent__: JSON.stringify({ type: "insert", payload: { name: "products" } }),
    });
    expect(insert.status).toBe(200);
    expect(insert.data.initialValue.products).toHaveLength(3);
    expect(insert.data.initialValue.companyName).toBe("Delta Therapeutics");

    const remove = await postAdd({
      ...(await newPartnerForm()),
      __intent__: JSON.stringify({ type: "remove", payload: { name: "people", index: 0 } }),
    });
    expect(remove.status).toBe(200);
    expect(remove.data.initialValue.people).toEqual([{ firstName: "John", lastName: "Smith", contactPrefix: "+44", contactNumber: "2071234567" }]);

    const editInsert = await postEdit(1, {
      ...(await editFormOf(1)),
      companyName: "Not saved",
      __intent__: JSON.stringify({ type: "insert", payload: { name: "people" } }),
    });
    expect(editInsert.status).toBe(200);
    expect(editInsert.data.initialValue.people).toHaveLength(3);

    expect(await countPartners()).toBe(3);
    expect((await partnerByEmail(PARTNER)).companyName).toBe("Acme Generics Ltd");
    expect(await db.select().from(outbox)).toHaveLength(0);
  });
});

describe("editing a partner", () => {
  it("loads the saved values, splitting the contact number into prefix and 10 digits", async () => {
    const acme = await partnerByEmail(PARTNER);
    const result = await getEdit(acme.id);
    expect(result.status).toBe(200);
    expect(result.data.defaultValue).toMatchObject({
      companyName: "Acme Generics Ltd",
      email: "partner1@example.org",
      contactPrefix: "+91",
      contactNumber: "9876543210",
      region: "Asia",
    });
    expect(result.data.defaultValue.products).toHaveLength(4);
    expect(result.data.defaultValue.people).toMatchObject([
      { firstName: "Priya", contactPrefix: "+91", contactNumber: "9812345678" },
      { firstName: "Rahul", contactPrefix: "+91", contactNumber: "9823456789" },
    ]);
    const cedar = await partnerByEmail("partner3@example.org");
    expect((await getEdit(cedar.id)).data.defaultValue).toMatchObject({ contactPrefix: "+27", contactNumber: "1155501234", address: "" });
  });

  it("saves the changes: e-mail moves the login, removed products are deactivated, removed people deleted, kept people keep their ids", async () => {
    const acme = await partnerByEmail(PARTNER);
    const form = await editFormOf(acme.id);
    const [priya, rahul] = await db.select().from(employees).where(eq(employees.partnerId, acme.id)).orderBy(asc(employees.id));
    const removedProduct = Number(form["products[3].productId"]);
    const changedProduct = Number(form["products[0].productId"]);
    const loginBefore = await findUserByEmail(PARTNER);

    delete form["products[3].productId"];
    delete form["products[3].status"];
    form["products[0].status"] = "ON_HOLD";
    // Rahul is removed; a new person is added after Priya (no employeeId).
    form["people[0].lastName"] = "Sharma-Rao";
    form["people[1].employeeId"] = undefined;
    form["people[1].firstName"] = "Chen";
    form["people[1].lastName"] = "Wei";
    form["people[1].contactPrefix"] = "+86";
    form["people[1].contactNumber"] = "1391234567";
    form.email = "Acme.Licensing@Example.org";
    form.address = "";

    const result = await postEdit(acme.id, form);
    expect(result.status).toBe(302);
    expect(result.location).toBe("/admin/partner-list");
    expect(await toastOf(result)).toMatchObject({ type: "success", message: "Partner edited succcessfully!" });

    const saved = await partnerByEmail("acme.licensing@example.org");
    expect(saved).toMatchObject({ id: acme.id, email: "acme.licensing@example.org", address: null });

    // The login moved with the e-mail and keeps its password; no new link is mailed.
    expect(await findUserByEmail(PARTNER)).toBeUndefined();
    const login = await findUserByEmail("acme.licensing@example.org");
    expect(login?.id).toBe(loginBefore?.id);
    expect((await verifyLogin("acme.licensing@example.org", "partner-pass-1")).ok).toBe(true);
    expect(await db.select().from(outbox)).toHaveLength(0);

    const productRows = await db.select().from(partnerProducts).where(eq(partnerProducts.partnerId, acme.id));
    expect(productRows).toHaveLength(4);
    expect(productRows.find((row) => row.productId === removedProduct)?.isActive).toBe(false);
    expect(productRows.find((row) => row.productId === changedProduct)).toMatchObject({ projectStatus: "ON_HOLD", isActive: true });

    const people = await db.select().from(employees).where(eq(employees.partnerId, acme.id)).orderBy(asc(employees.id));
    expect(people).toHaveLength(2);
    expect(people[0]).toMatchObject({ id: priya.id, firstName: "Priya", lastName: "Sharma-Rao" });
    expect(people[1]).toMatchObject({ firstName: "Chen", lastName: "Wei", contactNumber: "+861391234567" });
    expect(people.some((person) => person.id === rahul.id)).toBe(false);

    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, "partner.update"));
    expect(audit).toMatchObject({ entity: "partner", entityId: String(acme.id) });
    expect(audit.before).toMatchObject({ email: "partner1@example.org", address: expect.stringContaining("Mumbai") });
    expect(audit.after).toMatchObject({ email: "acme.licensing@example.org", address: null });

    // The edit form now shows three products; listing the removed one again reactivates it.
    const again = await editFormOf(acme.id);
    expect(Object.keys(again).filter((key) => key.endsWith(".productId"))).toHaveLength(3);
    again["products[3].productId"] = String(removedProduct);
    again["products[3].status"] = "FILED";
    expect((await postEdit(acme.id, again)).status).toBe(302);
    const [reactivated] = await db
      .select()
      .from(partnerProducts)
      .where(and(eq(partnerProducts.partnerId, acme.id), eq(partnerProducts.productId, removedProduct)));
    expect(reactivated).toMatchObject({ isActive: true, projectStatus: "FILED" });
  });

  it("keeps its own e-mail in another case but refuses another partner's or a user's", async () => {
    const acme = await partnerByEmail(PARTNER);
    const own = await postEdit(acme.id, { ...(await editFormOf(acme.id)), email: "Partner1@Example.ORG" });
    expect(own.status).toBe(302);

    for (const email of ["partner3@EXAMPLE.org", "STAFF@example.org"]) {
      const taken = await postEdit(acme.id, { ...(await editFormOf(acme.id)), email });
      expect(taken.status).toBe(400);
      expect(taken.data.error.email).toEqual(["A partner or user with this e-mail already exists."]);
    }
    expect((await partnerByEmail(PARTNER)).id).toBe(acme.id);
  });

  it("mails a new set-password link when the e-mail of a login without a password changes", async () => {
    expect((await postAdd(await newPartnerForm())).status).toBe(302);
    const delta = await partnerByEmail("delta@example.org");
    await db.delete(outbox);

    const result = await postEdit(delta.id, { ...(await editFormOf(delta.id)), email: "delta.new@example.org" });
    expect(result.status).toBe(302);
    const mails = await db.select().from(outbox);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ kind: "password-set", toAddress: "delta.new@example.org" });

    // Saving again without changing the e-mail sends nothing.
    await db.delete(outbox);
    expect((await postEdit(delta.id, await editFormOf(delta.id))).status).toBe(302);
    expect(await db.select().from(outbox)).toHaveLength(0);
    expect(await db.select().from(users).where(eq(users.partnerId, delta.id))).toHaveLength(1);
  });

  it("an employee id of another partner is not taken over: the row is added as a new person", async () => {
    const acme = await partnerByEmail(PARTNER);
    const borealis = await partnerByEmail("partner2@example.org");
    const [anil] = await db.select().from(employees).where(eq(employees.partnerId, borealis.id));
    const form = await editFormOf(acme.id);
    form["people[1].employeeId"] = String(anil.id);
    expect((await postEdit(acme.id, form)).status).toBe(302);
    const [stillAnil] = await db.select().from(employees).where(eq(employees.id, anil.id));
    expect(stillAnil).toMatchObject({ partnerId: borealis.id, firstName: "Anil" });
    expect(await db.select().from(employees).where(eq(employees.partnerId, acme.id))).toHaveLength(2);
  });
});

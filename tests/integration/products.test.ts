import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { auditLog, products } from "~/db/schema";
import { createProduct } from "~/models/product.server";
import { action as addAction, loader as addLoader } from "~/routes/_shell.admin.add-product";
import { action as editAction, loader as editLoader } from "~/routes/_shell.admin.edit-product.$product_id";
import { action as listAction, loader as listLoader } from "~/routes/_shell.admin.product-list";
import { loader as confirmLoader } from "~/routes/_shell.admin.product-list_.deactivate.$product_id";
import { readToast } from "~/utils/toast.server";
import { buildRequest, cookiesFrom, runRoute, sessionCookieFor, type RouteResult } from "../support/remix";

const ADMIN = "admin@example.org";
const STAFF = "staff@example.org";
const PARTNER = "partner1@example.org";

const toastOf = async (result: RouteResult) => (await readToast(buildRequest("/", { cookie: cookiesFrom(result) }))).toast;

async function productByName(name: string) {
  const [row] = await db.select().from(products).where(eq(products.name, name));
  return row;
}
async function productId(name: string) {
  const row = await productByName(name);
  if (!row) throw new Error(`No product ${name}`);
  return row.id;
}
const productCount = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(products))[0].n;
const auditRows = (action: string) => db.select().from(auditLog).where(eq(auditLog.action, action));

const as = async (email: string | null) => (email ? await sessionCookieFor(email) : undefined);

function list(email: string | null, search = "") {
  return as(email).then((cookie) => runRoute(listLoader, buildRequest(`/admin/product-list${search}`, { cookie })));
}
function postList(email: string | null, form: Record<string, string>, search = "") {
  return as(email).then((cookie) => runRoute(listAction, buildRequest(`/admin/product-list${search}`, { form, cookie })));
}
function add(email: string | null, form: Record<string, string>) {
  return as(email).then((cookie) => runRoute(addAction, buildRequest("/admin/add-product", { form, cookie })));
}
function edit(email: string | null, id: number | string, form: Record<string, string>) {
  return as(email).then((cookie) => runRoute(editAction, buildRequest(`/admin/edit-product/${id}`, { form, cookie }), { params: { product_id: String(id) } }));
}

describe("product pages: who may do what", () => {
  const loaders = () => [
    { path: "/admin/product-list", run: (cookie?: string) => runRoute(listLoader, buildRequest("/admin/product-list", { cookie })) },
    { path: "/admin/add-product", run: (cookie?: string) => runRoute(addLoader, buildRequest("/admin/add-product", { cookie })) },
    {
      path: "/admin/edit-product/1",
      run: (cookie?: string) => runRoute(editLoader, buildRequest("/admin/edit-product/1", { cookie }), { params: { product_id: "1" } }),
    },
    {
      path: "/admin/product-list/deactivate/1",
      run: (cookie?: string) => runRoute(confirmLoader, buildRequest("/admin/product-list/deactivate/1", { cookie }), { params: { product_id: "1" } }),
    },
  ];

  it("every loader: ADMIN and STAFF 200, PARTNER 403, no session to /login", async () => {
    for (const { path, run } of loaders()) {
      expect((await run(await sessionCookieFor(ADMIN))).status, path).toBe(200);
      expect((await run(await sessionCookieFor(STAFF))).status, path).toBe(200);
      const partner = await run(await sessionCookieFor(PARTNER));
      expect(partner.status, path).toBe(403);
      expect(partner.data).toEqual({ message: "YOU ARE NOT AUTHORIZED TO USE THE PAGE" });
      const anonymous = await run();
      expect(anonymous.status, path).toBe(302);
      expect(anonymous.location, path).toBe("/login");
    }
  });

  it("tells the page whether the controls are enabled: ADMIN yes, STAFF no", async () => {
    expect((await list(ADMIN)).data.canEdit).toBe(true);
    expect((await list(STAFF)).data.canEdit).toBe(false);
    const addStaff = await runRoute(addLoader, buildRequest("/admin/add-product", { cookie: await sessionCookieFor(STAFF) }));
    expect(addStaff.data.canEdit).toBe(false);
  });

  it("every action refuses STAFF and PARTNER with 403 and anonymous with /login, changing nothing", async () => {
    const id = await productId("Dolutegravir 50 mg");
    const before = await db.select().from(products).orderBy(products.id);
    for (const email of [STAFF, PARTNER, null]) {
      const results = [
        await add(email, { name: "Staff Product", category: "FDF", therapyArea: "HIV" }),
        await edit(email, id, { name: "Renamed by staff", therapyArea: "HCV" }),
        await postList(email, { intent: "deactivate", productId: String(id) }),
        await postList(email, { intent: "reactivate", productId: String(id) }),
      ];
      for (const result of results) {
        if (email) {
          expect(result.status).toBe(403);
          expect(result.data).toEqual({ message: "YOU ARE NOT AUTHORIZED TO USE THE PAGE" });
        } else {
          expect(result.status).toBe(302);
          expect(result.location).toBe("/login");
        }
      }
    }
    expect(await db.select().from(products).orderBy(products.id)).toEqual(before);
    expect(await db.select().from(auditLog).where(eq(auditLog.entity, "product"))).toHaveLength(0);
  });
});

describe("product list", () => {
  it("lists active products by name, case-insensitively, ascending by default and descending on request", async () => {
    await createProduct({ name: "abacavir paediatric", category: "FDF", therapyArea: "HIV" }, { actorId: 1 });
    const ascending = (await list(STAFF)).data.rows.map((row: { name: string }) => row.name);
    expect(ascending).toHaveLength(14);
    expect(ascending.slice(0, 3)).toEqual(["Abacavir API", "abacavir paediatric", "Daclatasvir 60 mg"]);
    expect(ascending).toEqual([...ascending].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));

    const descending = await list(STAFF, "?sort=name&dir=desc");
    expect(descending.data.query).toMatchObject({ sort: "name", dir: "desc" });
    expect(descending.data.rows.map((row: { name: string }) => row.name)).toEqual([...ascending].reverse());
    expect(descending.data.rows[0]).toMatchObject({ name: "TLD (Tenofovir/Lamivudine/Dolutegravir)", category: "FDF", therapyArea: "HIV" });
  });

  it("filters by category, and ignores an unknown category", async () => {
    const api = (await list(ADMIN, "?category=API")).data.rows;
    expect(api).toHaveLength(6);
    expect(api.every((row: { category: string }) => row.category === "API")).toBe(true);
    const fdf = (await list(ADMIN, "?category=FDF&sort=name&dir=desc")).data.rows;
    expect(fdf).toHaveLength(7);
    expect(fdf[0].name).toBe("TLD (Tenofovir/Lamivudine/Dolutegravir)");
    expect((await list(ADMIN, "?category=XYZ")).data.rows).toHaveLength(13);
  });

  it("shows deactivated products only with status=inactive", async () => {
    const id = await productId("Raltegravir API");
    await postList(ADMIN, { intent: "deactivate", productId: String(id) });
    expect((await list(ADMIN)).data.rows.map((row: { id: number }) => row.id)).not.toContain(id);
    const inactive = await list(ADMIN, "?status=inactive");
    expect(inactive.data.rows).toEqual([{ id, name: "Raltegravir API", category: "API", therapyArea: "HIV", isActive: false }]);
    expect((await list(ADMIN, "?status=inactive&category=FDF")).data.rows).toEqual([]);
  });
});

describe("deactivate and reactivate", () => {
  it("deactivates with 'Product Deactivated!', returns to the same list view and writes an audit entry", async () => {
    const id = await productId("Sofosbuvir API");
    const result = await postList(ADMIN, { intent: "deactivate", productId: String(id) }, "?sort=name&dir=desc&category=API");
    expect(result.status).toBe(302);
    expect(result.location).toBe("/admin/product-list?sort=name&dir=desc&category=API");
    expect(await toastOf(result)).toMatchObject({ type: "success", message: "Product Deactivated!" });
    expect((await productByName("Sofosbuvir API")).isActive).toBe(false);

    const [entry] = await auditRows("product.deactivate");
    expect(entry).toMatchObject({ entity: "product", entityId: String(id), requestId: "test-request" });
    expect(entry.before).toMatchObject({ name: "Sofosbuvir API", isActive: true });
    expect(entry.after).toMatchObject({ name: "Sofosbuvir API", isActive: false });
    // Soft delete: the row (and everything that names it) stays.
    expect(await productCount()).toBe(13);
  });

  it("reactivates with 'Product reactivated!' and an audit entry", async () => {
    const id = await productId("Ravidasvir API");
    await postList(ADMIN, { intent: "deactivate", productId: String(id) });
    const result = await postList(ADMIN, { intent: "reactivate", productId: String(id) }, "?status=inactive");
    expect(result.location).toBe("/admin/product-list?status=inactive");
    expect(await toastOf(result)).toMatchObject({ type: "success", message: "Product reactivated!" });
    expect((await productByName("Ravidasvir API")).isActive).toBe(true);
    const [entry] = await auditRows("product.reactivate");
    expect(entry.before).toMatchObject({ isActive: false });
    expect(entry.after).toMatchObject({ isActive: true });
    expect((await list(ADMIN)).data.rows.map((row: { id: number }) => row.id)).toContain(id);
  });

  it("deactivating twice changes nothing the second time", async () => {
    const id = await productId("Abacavir API");
    await postList(ADMIN, { intent: "deactivate", productId: String(id) });
    const again = await postList(ADMIN, { intent: "deactivate", productId: String(id) });
    expect(again.status).toBe(302);
    expect(await auditRows("product.deactivate")).toHaveLength(1);
  });

  it("answers 404 for an unknown product and 400 for an unknown intent", async () => {
    expect((await postList(ADMIN, { intent: "deactivate", productId: "99999" })).status).toBe(404);
    expect((await postList(ADMIN, { intent: "deactivate", productId: "abc" })).status).toBe(404);
    expect((await postList(ADMIN, { intent: "delete", productId: "1" })).status).toBe(400);
  });

  it("the confirmation page (no JavaScript) asks about the right product and keeps the list's query", async () => {
    const id = await productId("Daclatasvir 60 mg");
    const cookie = await sessionCookieFor(ADMIN);
    const page = await runRoute(confirmLoader, buildRequest(`/admin/product-list/deactivate/${id}?category=FDF&sort=name&dir=desc&evil=1`, { cookie }), {
      params: { product_id: String(id) },
    });
    expect(page.data).toEqual({
      product: { id, name: "Daclatasvir 60 mg", isActive: true },
      listUrl: "/admin/product-list?sort=name&dir=desc&category=FDF",
      canEdit: true,
    });
    const staff = await runRoute(confirmLoader, buildRequest(`/admin/product-list/deactivate/${id}`, { cookie: await sessionCookieFor(STAFF) }), {
      params: { product_id: String(id) },
    });
    expect(staff.data.canEdit).toBe(false);
    const unknown = await runRoute(confirmLoader, buildRequest("/admin/product-list/deactivate/4242", { cookie }), {
      params: { product_id: "4242" },
    });
    expect(unknown.status).toBe(404);
  });
});

describe("add product", () => {
  it("offers the therapy areas and the stages of both categories in their order", async () => {
    const page = await runRoute(addLoader, buildRequest("/admin/add-product", { cookie: await sessionCookieFor(ADMIN) }));
    expect(page.data.therapyAreas).toEqual(["HIV", "HCV", "HBV"]);
    const fdf = page.data.stagesByCategory.FDF.map((stage: { name: string }) => stage.name);
    const api = page.data.stagesByCategory.API.map((stage: { name: string }) => stage.name);
    expect(fdf).toHaveLength(12);
    expect(fdf[0]).toBe("Development set-up");
    expect(fdf.at(-1)).toBe("WHO-PQ Approval (FDF)");
    expect(api).toHaveLength(13);
    expect(api[0]).toBe("Investigation and route selection");
    expect(api.at(-1)).toBe("WHO-PQ Approval (API)");
    expect(page.data.defaultValue).toEqual({ name: "", category: "", therapyArea: "" });
  });

  it("keeps what was typed when 'Show stages' reloads the form without JavaScript", async () => {
    const cookie = await sessionCookieFor(ADMIN);
    const page = await runRoute(addLoader, buildRequest("/admin/add-product?name=New+drug&category=API&therapyArea=HBV", { cookie }));
    expect(page.data.defaultValue).toEqual({ name: "New drug", category: "API", therapyArea: "HBV" });
    const junk = await runRoute(addLoader, buildRequest("/admin/add-product?category=XYZ&therapyArea=FLU", { cookie }));
    expect(junk.data.defaultValue).toEqual({ name: "", category: "", therapyArea: "" });
  });

  it("saves a product, returns to the list with 'Product added succcessfully!' and audits it", async () => {
    const result = await add(ADMIN, { name: "  Lenacapavir 300 mg  ", category: "FDF", therapyArea: "HIV" });
    expect(result.status).toBe(302);
    expect(result.location).toBe("/admin/product-list");
    expect(await toastOf(result)).toMatchObject({ type: "success", message: "Product added succcessfully!" });
    const saved = await productByName("Lenacapavir 300 mg");
    expect(saved).toMatchObject({ category: "FDF", therapyArea: "HIV", isActive: true });
    const [entry] = await auditRows("product.create");
    expect(entry).toMatchObject({ entity: "product", entityId: String(saved.id), before: null, requestId: "test-request" });
    expect(entry.after).toEqual({ name: "Lenacapavir 300 mg", category: "FDF", therapyArea: "HIV", isActive: true });
    expect(entry.actorId).not.toBeNull();
  });

  it("shows every validation message and saves nothing", async () => {
    const empty = await add(ADMIN, { name: "", category: "", therapyArea: "" });
    expect(empty.status).toBe(400);
    expect(empty.data.error).toEqual({
      name: ["Please enter product name!"],
      category: ["Please select category!"],
      therapyArea: ["Please select therapy area!"],
    });
    const blank = await add(ADMIN, { name: "   ", category: "Tablet", therapyArea: "HIV" });
    expect(blank.data.error).toEqual({ name: ["Please enter product name!"], category: ["Please select category!"] });
    const tooLong = await add(ADMIN, { name: "x".repeat(201), category: "API", therapyArea: "HIV" });
    expect(tooLong.data.error).toEqual({ name: ["Product name must contain at most 200 characters"] });
    const unknownArea = await add(ADMIN, { name: "Malaria drug", category: "API", therapyArea: "MALARIA" });
    expect(unknownArea.status).toBe(400);
    expect(unknownArea.data.error).toEqual({ therapyArea: ["Please select therapy area!"] });
    expect(await productCount()).toBe(13);
    expect(await auditRows("product.create")).toHaveLength(0);
  });

  it("refuses a name that exists in another case, with a field error and nothing saved", async () => {
    const result = await add(ADMIN, { name: "DOLUTEGRAVIR 50 MG", category: "API", therapyArea: "HCV" });
    expect(result.status).toBe(400);
    expect(result.data.error).toEqual({ name: ["A product with this name already exists."] });
    // The form keeps what was typed.
    expect(result.data.initialValue).toMatchObject({ name: "DOLUTEGRAVIR 50 MG", category: "API", therapyArea: "HCV" });
    expect(await productCount()).toBe(13);
    expect(await auditRows("product.create")).toHaveLength(0);
  });

  it("two admins adding the same name at once: one wins, the other gets the field error (the unique index decides)", async () => {
    const actor = { actorId: 1 };
    const outcomes = await Promise.all([
      createProduct({ name: "Islatravir", category: "API", therapyArea: "HIV" }, actor),
      createProduct({ name: "ISLATRAVIR", category: "FDF", therapyArea: "HIV" }, actor),
      createProduct({ name: "islatravir", category: "API", therapyArea: "HBV" }, actor),
    ]);
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([
      { ok: false, reason: "duplicate-name" },
      { ok: false, reason: "duplicate-name" },
    ]);
    expect(
      await db
        .select()
        .from(products)
        .where(sql`lower(${products.name}) = 'islatravir'`),
    ).toHaveLength(1);
    expect(await auditRows("product.create")).toHaveLength(1);
  });
});

describe("edit product", () => {
  it("loads the product with its locked category, or answers 404", async () => {
    const id = await productId("Tenofovir Alafenamide API");
    const cookie = await sessionCookieFor(ADMIN);
    const page = await runRoute(editLoader, buildRequest(`/admin/edit-product/${id}`, { cookie }), { params: { product_id: String(id) } });
    expect(page.data.product).toEqual({ id, name: "Tenofovir Alafenamide API", category: "API", therapyArea: "HBV", isActive: true });
    expect(page.data.stagesByCategory.API).toHaveLength(13);
    for (const bad of ["99999", "abc", "0", "-1", "1.5"]) {
      const missing = await runRoute(editLoader, buildRequest(`/admin/edit-product/${bad}`, { cookie }), { params: { product_id: bad } });
      expect(missing.status, bad).toBe(404);
    }
  });

  it("saves name and therapy area with 'Product edited succcessfully!' and audits before and after", async () => {
    const id = await productId("Daclatasvir 60 mg");
    const result = await edit(ADMIN, id, { name: "Daclatasvir 30 mg", therapyArea: "HBV" });
    expect(result.status).toBe(302);
    expect(result.location).toBe("/admin/product-list");
    expect(await toastOf(result)).toMatchObject({ type: "success", message: "Product edited succcessfully!" });
    const [row] = await db.select().from(products).where(eq(products.id, id));
    expect(row).toMatchObject({ name: "Daclatasvir 30 mg", category: "FDF", therapyArea: "HBV" });
    const [entry] = await auditRows("product.update");
    expect(entry.entityId).toBe(String(id));
    expect(entry.before).toEqual({ name: "Daclatasvir 60 mg", category: "FDF", therapyArea: "HCV", isActive: true });
    expect(entry.after).toEqual({ name: "Daclatasvir 30 mg", category: "FDF", therapyArea: "HBV", isActive: true });
  });

  it("keeps the category locked: a tampered POST cannot change it", async () => {
    const id = await productId("Dolutegravir API");
    const result = await edit(ADMIN, id, { name: "Dolutegravir API", category: "FDF", therapyArea: "HIV" });
    expect(result.status).toBe(302);
    const [row] = await db.select().from(products).where(eq(products.id, id));
    expect(row.category).toBe("API");
    const [entry] = await auditRows("product.update");
    expect(entry.after).toMatchObject({ category: "API" });
  });

  it("may change the case of its own name but not take another product's name in any case", async () => {
    const id = await productId("Abacavir API");
    expect((await edit(ADMIN, id, { name: "ABACAVIR API", therapyArea: "HIV" })).status).toBe(302);
    expect((await db.select().from(products).where(eq(products.id, id)))[0].name).toBe("ABACAVIR API");

    const taken = await edit(ADMIN, id, { name: "raltegravir api", therapyArea: "HIV" });
    expect(taken.status).toBe(400);
    expect(taken.data.error).toEqual({ name: ["A product with this name already exists."] });
    expect((await db.select().from(products).where(eq(products.id, id)))[0].name).toBe("ABACAVIR API");
    expect(await auditRows("product.update")).toHaveLength(1);
  });

  it("shows the validation messages", async () => {
    const id = await productId("Abacavir API");
    const result = await edit(ADMIN, id, { name: " ", therapyArea: "" });
    expect(result.status).toBe(400);
    expect(result.data.error).toEqual({ name: ["Please enter product name!"], therapyArea: ["Please select therapy area!"] });
    const unknownArea = await edit(ADMIN, id, { name: "Abacavir API", therapyArea: "TB" });
    expect(unknownArea.data.error).toEqual({ therapyArea: ["Please select therapy area!"] });
    expect(await productByName("Abacavir API")).toMatchObject({ therapyArea: "HIV" });
    expect(await auditRows("product.update")).toHaveLength(0);
  });

  it("answers 404 when saving an unknown product", async () => {
    expect((await edit(ADMIN, 99999, { name: "Ghost", therapyArea: "HIV" })).status).toBe(404);
    expect(
      await db
        .select()
        .from(products)
        .where(and(eq(products.name, "Ghost"))),
    ).toHaveLength(0);
  });
});

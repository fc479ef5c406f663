import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, count, eq, isNotNull, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { countries, currencies, formulationTypes, products, salesRows, users } from "~/db/schema";
import { rowsOfResult } from "../support/database";

const openHandles: { close(): Promise<void> }[] = [];
afterEach(async () => {
  while (openHandles.length) await openHandles.pop()!.close();
});

describe("embedded database (PGlite), the default of npm start", () => {
  it("creates its folder, applies the migrations and keeps data across a reopen", async () => {
    const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "portal-pglite-")), "nested", "data");
    const first = await openDatabase({ pgliteDir: dataDir });
    expect(first.driver).toBe("pglite");
    await first.migrate();
    await first.db.insert(countries).values({ isoCode: "ZZ", name: "Testland", callingCode: "+999" });
    await first.close();

    const again = await openDatabase({ pgliteDir: dataDir });
    openHandles.push(again);
    await again.migrate();
    const [{ value }] = await again.db.select({ value: count() }).from(countries);
    expect(Number(value)).toBe(1);
  });

  it("refuses a second process on the same folder instead of corrupting it", async () => {
    const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "portal-pglite-")), "data");
    const handle = await openDatabase({ pgliteDir: dataDir });
    openHandles.push(handle);
    // A lock file written by another live process (this test's parent) stands for a second server.
    fs.writeFileSync(`${dataDir}.lock`, String(process.ppid));
    await expect(openDatabase({ pgliteDir: dataDir })).rejects.toThrow(/in use by process/);
    fs.writeFileSync(`${dataDir}.lock`, String(process.pid));
  });
});

describe("the database this suite runs on", () => {
  it("has the unique lower-case e-mail constraint", async () => {
    const { db } = await import("~/db/client.server");
    await expect(db.insert(users).values({ email: "ADMIN@example.org", name: "Duplicate", role: "ADMIN" })).rejects.toThrow();
  });

  it("plans with the portal's session settings on PostgreSQL (a random read priced as on an SSD, no JIT compilation), the defaults on the embedded one", async () => {
    const { db, databaseDriver, POSTGRES_SESSION } = await import("~/db/client.server");
    const setting = async (name: string) => Object.values(rowsOfResult(await db.execute(sql`select current_setting(${name}) as value`))[0])[0];
    const onPostgres = databaseDriver() === "postgres";
    expect(Number(await setting("random_page_cost"))).toBe(onPostgres ? Number(POSTGRES_SESSION.random_page_cost) : 4);
    if (onPostgres) expect(await setting("jit")).toBe("off");
  });
});

/** The SQLSTATE of a refused statement (the driver's error, or the one the query builder wraps). */
async function sqlStateOf(statement: Promise<unknown>): Promise<string | undefined> {
  let error = await statement.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  while (error instanceof Error && !("code" in error)) error = error.cause;
  return (error as { code?: string } | undefined)?.code;
}

describe("the references of a sales row, checked once per statement", () => {
  it("refuse a statement naming a country, product, formulation type or currency that does not exist, and write none of its rows", async () => {
    const { db } = await import("~/db/client.server");
    const [saved] = await db
      .select()
      .from(salesRows)
      .where(and(eq(salesRows.kind, "FDF"), isNotNull(salesRows.currencyCode)))
      .limit(1);
    const rowsOfReport = async () => (await db.select({ value: count() }).from(salesRows).where(eq(salesRows.reportId, saved.reportId)))[0].value;
    const before = await rowsOfReport();
    const valid = {
      reportId: saved.reportId,
      kind: "FDF" as const,
      countryId: saved.countryId,
      productId: saved.productId,
      formulationTypeId: saved.formulationTypeId,
      currencyCode: saved.currencyCode,
    };
    const unknown = { countryId: 999_999, productId: 999_999, formulationTypeId: 999_999, currencyCode: "XXX" };
    for (const [column, value] of Object.entries(unknown)) {
      expect(await sqlStateOf(db.insert(salesRows).values([valid, { ...valid, [column]: value }])), column).toBe("23503");
      expect(
        await sqlStateOf(
          db
            .update(salesRows)
            .set({ [column]: value })
            .where(eq(salesRows.id, saved.id)),
        ),
        column,
      ).toBe("23503");
    }
    expect(await rowsOfReport()).toBe(before);
    const [unchanged] = await db.select().from(salesRows).where(eq(salesRows.id, saved.id));
    expect(unchanged).toEqual(saved);

    await db.insert(salesRows).values([valid, { ...valid, countryId: null, currencyCode: null }]);
    expect(await rowsOfReport()).toBe(before + 2);
  });

  it("refuse deleting a country, product, formulation type or currency that a sales row names, or changing its key; an unnamed one goes", async () => {
    const { db } = await import("~/db/client.server");
    const [saved] = await db
      .select()
      .from(salesRows)
      .where(and(eq(salesRows.kind, "FDF"), isNotNull(salesRows.currencyCode)))
      .limit(1);
    expect(await sqlStateOf(db.delete(countries).where(eq(countries.id, saved.countryId!)))).toBe("23503");
    expect(await sqlStateOf(db.delete(products).where(eq(products.id, saved.productId!)))).toBe("23503");
    expect(await sqlStateOf(db.delete(formulationTypes).where(eq(formulationTypes.id, saved.formulationTypeId!)))).toBe("23503");
    expect(await sqlStateOf(db.update(currencies).set({ code: "ZZZ" }).where(eq(currencies.code, saved.currencyCode!)))).toBe("23503");
    // A change that keeps the key is no deletion.
    await db.update(currencies).set({ name: "Renamed" }).where(eq(currencies.code, saved.currencyCode!));

    const [unnamed] = await db.insert(countries).values({ isoCode: "ZZ", name: "Testland", callingCode: "+999" }).returning();
    await db.delete(countries).where(eq(countries.id, unnamed.id));
    expect(await db.select().from(countries).where(eq(countries.id, unnamed.id))).toEqual([]);
  });
});

describe("parameters written into a statement (the CSV download's COPY)", () => {
  it("read back as the values they stand for", async () => {
    const { db } = await import("~/db/client.server");
    const { inlineParams } = await import("~/db/inline-params");
    const texts = ["O'Brien", "a\\b", "back\\'slash", "Ministère de la Santé", "line\nbreak", "", "$1", "'; drop table users; --"];
    const select = { sql: `select ${texts.map((_, index) => `$${index + 1}::text as c${index}`).join(", ")}`, params: texts };
    const [row] = rowsOfResult(await db.execute(sql.raw(inlineParams(select))));
    expect(Object.values(row)).toEqual(texts);
  });
});

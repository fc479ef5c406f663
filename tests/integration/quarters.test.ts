/**
 * Quarter rows: created the first time a calendar quarter is used, and only read after that, so a
 * page view (a GET) writes nothing once its quarter exists.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { quarters } from "~/db/schema";
import { ensureQuarter, getOpenQuarter, openQuarterRef } from "~/models/quarter.server";

describe("quarter rows", () => {
  it("are created with their name and days on first use, then found again", async () => {
    const ref = { year: 2099, quarter: 3 as const };
    expect(await db.select().from(quarters).where(eq(quarters.name, "Q3 2099"))).toHaveLength(0);
    const created = await ensureQuarter(ref);
    expect(created).toMatchObject({ name: "Q3 2099", year: 2099, quarter: 3, startDate: "2099-07-01", endDate: "2099-09-30" });
    expect((await ensureQuarter(ref)).id).toBe(created.id);
    expect(await db.select().from(quarters).where(eq(quarters.name, "Q3 2099"))).toHaveLength(1);
  });

  it("that exist are read in a read-only transaction: finding the open quarter writes nothing", async () => {
    const open = await getOpenQuarter();
    const found = await db.transaction(async (tx) => {
      await tx.execute(sql`set transaction read only`);
      return ensureQuarter(openQuarterRef(), tx);
    });
    expect(found.id).toBe(open.id);
  });
});

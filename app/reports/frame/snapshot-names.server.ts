/** The names of reference records a snapshot's rows name by id (products, countries, stages…), in one statement per table. */
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { db } from "~/db/client.server";
import { idIn } from "~/db/sql-pieces";

export async function namesById(table: PgTable & { id: PgColumn; name: PgColumn }, ids: readonly number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = (await db.select({ id: table.id, name: table.name }).from(table).where(idIn(table.id, unique))) as { id: number; name: string }[];
  return new Map(rows.map((row) => [row.id, row.name]));
}

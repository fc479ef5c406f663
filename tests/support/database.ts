import { sql } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { db } from "~/db/client.server";
import * as schema from "~/db/schema";
import { hashPassword } from "~/models/password.server";
import { seedDemoData, seedReferenceData } from "~/models/seed.server";

const tableNames = Object.values(schema as Record<string, unknown>)
  .filter((value): value is PgTable => value instanceof PgTable)
  .map((table) => `"${getTableConfig(table).name}"`);

const hashes = new Map<string, Promise<string>>();
/** argon2 is slow on purpose: each demo password is hashed once per test run. */
export function memoisedHash(password: string) {
  if (!hashes.has(password)) hashes.set(password, hashPassword(password));
  return hashes.get(password)!;
}

/** Every test starts from the demo seed on an otherwise empty database. */
export async function resetDatabase() {
  await db.execute(sql.raw(`TRUNCATE ${tableNames.join(", ")} RESTART IDENTITY CASCADE`));
  await db.transaction(async (tx) => {
    await seedReferenceData(tx);
    await seedDemoData(tx, { hash: memoisedHash });
  });
}

import { sql } from "drizzle-orm";
import postgres from "postgres";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { db } from "~/db/client.server";
import * as schema from "~/db/schema";
import { hashPassword } from "~/models/password.server";
import { seedDemoData, seedReferenceData } from "~/models/seed.server";
import { SWING_THRESHOLDS_KEY } from "~/schemas/settings";

const tableNames = Object.values(schema as Record<string, unknown>)
  .filter((value): value is PgTable => value instanceof PgTable)
  .map((table) => `"${getTableConfig(table).name}"`);

const hashes = new Map<string, Promise<string>>();
/** argon2 is slow on purpose: each demo password is hashed once per test run. */
export function memoisedHash(password: string) {
  if (!hashes.has(password)) hashes.set(password, hashPassword(password));
  return hashes.get(password)!;
}

/**
 * The changes to explain hold up any submission of rows that moved far from the quarters before:
 * tests that submit made-up rows are about other things, so the thresholds start out of their way
 * (tests/integration/sales-swings.test.ts sets them as it needs; the demo keeps the defaults).
 */
const SWINGS_OUT_OF_THE_WAY = { percent: 1000, floorUsd: "999999999999" };

async function seedFromEmpty() {
  await db.execute(sql.raw(`TRUNCATE ${tableNames.join(", ")} RESTART IDENTITY CASCADE`));
  await db.transaction(async (tx) => {
    await seedReferenceData(tx);
    await seedDemoData(tx, { hash: memoisedHash });
    await tx.insert(schema.settings).values({ key: SWING_THRESHOLDS_KEY, value: SWINGS_OUT_OF_THE_WAY });
  });
}

/** Copies every table and the sequences into schema `copy`, replacing an earlier copy. */
export async function copyTables(copy: string) {
  await runInOne([
    `drop schema if exists ${copy} cascade`,
    `create schema ${copy}`,
    ...tableNames.map((name) => `create table ${copy}.${name} as table public.${name}`),
    `create table ${copy}.sequences as select format('%I.%I', schemaname, sequencename) as name, coalesce(last_value, start_value) as value, last_value is not null as called from pg_sequences where schemaname = 'public'`,
  ]);
}

/**
 * Puts tables (all by default) and the sequences back as they were in the copy, with triggers and
 * foreign keys off: the copy is consistent, and the aggregate triggers must not count its rows
 * twice. Switching them off needs a superuser: without one this throws.
 */
export async function restoreTables(copy: string, some?: string[]) {
  const tables = some?.map(quoteName) ?? tableNames;
  await runInOne([
    "perform set_config('session_replication_role', 'replica', true)",
    // Truncating a table needs every table that refers to it truncated with it: a part is deleted.
    ...(some ? tables.map((name) => `delete from public.${name}`) : [`truncate ${tableNames.join(", ")}`]),
    ...tables.map((name) => `insert into public.${name} select * from ${copy}.${name}`),
    `perform setval(name::regclass, value, called) from ${copy}.sequences`,
  ]);
}

const quoteName = (name: string) => `"${name}"`;

/** Statements in one round trip and one transaction. */
async function runInOne(statements: string[]) {
  const body = statements.map((statement) => (statement.startsWith("perform ") ? `${statement};` : `execute '${statement.replace(/'/g, "''")}';`));
  await db.execute(sql.raw(`do $$ begin ${body.join(" ")} end $$`));
}

// Seeding takes a quarter of a second before each of hundreds of tests: the seed is copied once
// per process and copied back.
const SEED_COPY = "test_seed_copy";
let seedCopy: "none" | "taken" | "unavailable" = "none";

/** Every test starts from the demo seed on an otherwise empty database, with no job queued. */
export async function resetDatabase() {
  await db.execute(sql.raw("delete from pgboss.job"));
  if (seedCopy === "taken") {
    try {
      return await restoreTables(SEED_COPY);
    } catch {
      // Switching triggers off needs a superuser: seed every time instead.
      seedCopy = "unavailable";
    }
  }
  await seedFromEmpty();
  if (seedCopy === "none") {
    await copyTables(SEED_COPY);
    seedCopy = "taken";
  }
}

/** The address of database `name` on the server of `serverUrl`, created empty if it is not there. */
export async function databaseBeside(serverUrl: string, name: string) {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    const [found] = await admin`select 1 from pg_database where datname = ${name}`;
    if (!found) await admin.unsafe(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The rows of a raw query, whichever driver ran it (node-postgres and PGlite answer { rows }, others an array). */
export const rowsOfResult = (result: unknown): Record<string, unknown>[] =>
  Array.isArray(result) ? result : ((result as { rows: Record<string, unknown>[] }).rows ?? []);

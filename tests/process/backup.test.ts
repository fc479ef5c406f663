/**
 * `npm run db:backup` and `npm run db:restore` as an operator runs them: a seeded database with
 * a change of its own is backed up, restored into a fresh database, found row for row the same,
 * and the built portal started on the copy lets the admin sign in. On the test PostgreSQL (when
 * TEST_DATABASE_URL or DATABASE_URL is set) and on the embedded PGlite (always).
 */
import type { PGlite } from "@electric-sql/pglite";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { SERVER_URL, freePort, freshDatabase, startPortal } from "./support/server";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "portal-backup-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run <script> -- <args>` on the database `env` names (DATABASE_URL, else PGLITE_DIR). */
async function npmRun(script: string, args: string[], env: { DATABASE_URL?: string; PGLITE_DIR?: string }): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  delete childEnv.DATABASE_URL;
  delete childEnv.PGLITE_DIR;
  Object.assign(childEnv, env);
  const child = spawn("npm", ["run", "--silent", script, "--", ...args], { env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  return { code, stdout, stderr };
}

function succeeded(run: Run) {
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  return run;
}

type Query = (text: string) => Promise<Record<string, unknown>[]>;

/**
 * Every table of every schema with its row count and a digest of its rows, the sequences'
 * positions, and the numbers of triggers and indexes: what a faithful copy keeps.
 */
async function contentsOf(query: Query): Promise<Record<string, string>> {
  const contents: Record<string, string> = {};
  const tables = await query(`SELECT schemaname, tablename FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2`);
  for (const { schemaname, tablename } of tables) {
    const name = `"${schemaname}"."${tablename}"`;
    const [row] = await query(`SELECT count(*)::int AS rows, coalesce(md5(string_agg(t::text, E'\\n' ORDER BY t::text)), '') AS digest FROM ${name} t`);
    contents[name] = `${row.rows} rows ${row.digest}`;
  }
  for (const row of await query(`SELECT schemaname, sequencename, last_value FROM pg_sequences ORDER BY 1, 2`)) {
    contents[`sequence "${row.schemaname}"."${row.sequencename}"`] = String(row.last_value);
  }
  const [objects] = await query(
    `SELECT (SELECT count(*)::int FROM pg_trigger WHERE NOT tgisinternal) AS triggers,
            (SELECT count(*)::int FROM pg_indexes WHERE schemaname NOT IN ('pg_catalog', 'information_schema')) AS indexes`,
  );
  contents.objects = `${objects.triggers} triggers, ${objects.indexes} indexes`;
  return contents;
}

async function postgresContents(url: string) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await contentsOf((text) => sql.unsafe(text));
  } finally {
    await sql.end();
  }
}

/** Opens the PGlite folder the way the portal does (its lock file included) and runs `work` on it. */
async function onPglite<T>(dir: string, work: (query: Query) => Promise<T>): Promise<T> {
  const handle = await openDatabase({ pgliteDir: dir });
  try {
    const client = (handle.db as unknown as { $client: PGlite }).$client;
    return await work(async (text) => (await client.query<Record<string, unknown>>(text)).rows);
  } finally {
    await handle.close();
  }
}

/** Signs in through the login form and opens the admin dashboard with the session cookie. */
async function adminSignsIn(baseUrl: string) {
  const answer = await fetch(`${baseUrl}/login`, {
    method: "POST",
    body: new URLSearchParams({ email: "admin@example.org", password: "admin-pass-1" }),
    redirect: "manual",
  });
  expect(answer.status, await answer.clone().text()).toBe(302);
  expect(new URL(answer.headers.get("location")!, baseUrl).pathname).toBe("/admin/dashboard");
  const cookie = answer.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const dashboard = await fetch(`${baseUrl}/admin/dashboard`, { headers: { cookie }, redirect: "manual" });
  expect(dashboard.status).toBe(200);
  expect(await dashboard.text()).toContain(">Dashboard<");
}

async function dropDatabases(names: string[]) {
  const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
  try {
    for (const name of names) await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

const ACME = "Acme Generics Ltd";
/** Each test starts the portal twice and runs five or six commands (each a tsx start, PGlite's too). */
const STEPS_TIMEOUT = 300_000;

describe.skipIf(!SERVER_URL)("PostgreSQL: pg_dump and pg_restore", () => {
  it(
    "restores the same rows into a fresh database, refuses a non-empty one without --clean, and the admin signs in on the copy",
    async () => {
      const source = await freshDatabase("portal_backup_source");
      const target = await freshDatabase("portal_backup_target");
      const sql = postgres(source, { max: 1, onnotice: () => {} });
      const firstDump = path.join(work, "online.dump");
      const secondDump = path.join(work, "stopped.dump");
      try {
        // The portal migrates and seeds the empty database; the first backup is taken while it runs.
        const portal = startPortal({ DATABASE_URL: source, REMINDER_SCHEDULER: "off" }, await freePort());
        try {
          await portal.ready(120_000);
          await sql`INSERT INTO therapy_areas (code, sort_order) VALUES ('BACKUP-CHECK', 999)`;
          const online = succeeded(await npmRun("db:backup", [firstDump], { DATABASE_URL: source }));
          expect(online.stdout).toContain(`Backup written: ${firstDump} (`);
          expect(fs.readFileSync(firstDump).subarray(0, 5).toString()).toBe("PGDMP");
        } finally {
          await portal.stop();
        }
        // A change after the first backup, then the second backup of the stopped database.
        await sql`UPDATE partners SET company_name = ${`${ACME} (restored)`} WHERE company_name = ${ACME}`;
        succeeded(await npmRun("db:backup", [secondDump], { DATABASE_URL: source }));
        expect((await npmRun("db:backup", [secondDump], { DATABASE_URL: source })).stderr).toContain("already exists");

        succeeded(await npmRun("db:restore", [firstDump], { DATABASE_URL: target }));
        const check = postgres(target, { max: 1, onnotice: () => {} });
        try {
          expect(await check`SELECT code FROM therapy_areas WHERE code = 'BACKUP-CHECK'`).toHaveLength(1);
          expect(await check`SELECT 1 FROM partners WHERE company_name = ${`${ACME} (restored)`}`).toHaveLength(0);
        } finally {
          await check.end();
        }

        const refused = await npmRun("db:restore", [secondDump], { DATABASE_URL: target });
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain('The database "portal_backup_target" on');
        expect(refused.stderr).toContain("is not empty");
        expect(refused.stderr).toContain("--clean");

        const restored = succeeded(await npmRun("db:restore", [secondDump, "--clean"], { DATABASE_URL: target }));
        expect(restored.stdout).toContain('into the PostgreSQL database "portal_backup_target"');

        const original = await postgresContents(source);
        const copy = await postgresContents(target);
        expect(Object.keys(original).length).toBeGreaterThan(25);
        expect(original['"public"."therapy_areas"']).toMatch(/^\d+ rows /);
        expect(copy).toEqual(original);
        const again = postgres(target, { max: 1, onnotice: () => {} });
        try {
          expect(await again`SELECT 1 FROM partners WHERE company_name = ${`${ACME} (restored)`}`).toHaveLength(1);
          expect(await again`SELECT 1 FROM therapy_areas WHERE code = 'BACKUP-CHECK'`).toHaveLength(1);
        } finally {
          await again.end();
        }
      } finally {
        await sql.end();
      }

      const copyPortal = startPortal({ DATABASE_URL: target, REMINDER_SCHEDULER: "off" }, await freePort());
      try {
        await copyPortal.ready(120_000);
        await adminSignsIn(copyPortal.baseUrl);
      } finally {
        await copyPortal.stop();
      }
      await dropDatabases(["portal_backup_source", "portal_backup_target"]);
    },
    STEPS_TIMEOUT,
  );
});

describe("Embedded PGlite: a copy of the data folder", () => {
  it(
    "refuses while the portal holds the folder, restores the same rows into a new folder, and the admin signs in on the copy",
    async () => {
      const original = path.join(work, "pglite", "data");
      const copy = path.join(work, "pglite", "restored");
      const backup = path.join(work, "pglite.tar.gz");

      const portal = startPortal({ PGLITE_DIR: original, REMINDER_SCHEDULER: "off" }, await freePort());
      try {
        await portal.ready(120_000);
        const refused = await npmRun("db:backup", [backup], { PGLITE_DIR: original });
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain(`is open in process ${portal.child.pid}`);
        expect(refused.stderr).toContain("Stop that process");
        expect(fs.existsSync(backup)).toBe(false);
      } finally {
        await portal.stop();
      }

      const before = await onPglite(original, async (query) => {
        await query(`INSERT INTO therapy_areas (code, sort_order) VALUES ('BACKUP-CHECK', 999)`);
        await query(`UPDATE partners SET company_name = '${ACME} (restored)' WHERE company_name = '${ACME}'`);
        return contentsOf(query);
      });

      const written = succeeded(await npmRun("db:backup", [backup], { PGLITE_DIR: original }));
      expect(written.stdout).toContain(`Backup written: ${backup} (`);
      expect(fs.readFileSync(backup).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));

      const restored = succeeded(await npmRun("db:restore", [backup], { PGLITE_DIR: copy }));
      expect(restored.stdout).toContain(`into the embedded database ${copy}`);
      const occupied = await npmRun("db:restore", [backup], { PGLITE_DIR: copy });
      expect(occupied.code).toBe(1);
      expect(occupied.stderr).toContain(`${copy} is not empty`);

      const after = await onPglite(copy, async (query) => {
        const [changed] = await query(`SELECT count(*)::int AS n FROM partners WHERE company_name = '${ACME} (restored)'`);
        expect(changed.n).toBe(1);
        return contentsOf(query);
      });
      expect(Object.keys(before).length).toBeGreaterThan(25);
      expect(after).toEqual(before);

      const copyPortal = startPortal({ PGLITE_DIR: copy, REMINDER_SCHEDULER: "off" }, await freePort());
      try {
        await copyPortal.ready(120_000);
        await adminSignsIn(copyPortal.baseUrl);
      } finally {
        await copyPortal.stop();
      }
    },
    STEPS_TIMEOUT,
  );
});

/**
 * Backup and restore of the portal's database, for the database the environment names:
 *
 *   npm run db:backup -- [file]                     tsx scripts/db-backup.ts backup [file]
 *   npm run db:restore -- <file> [--clean|--force]  tsx scripts/db-backup.ts restore <file> [--clean]
 *
 * PostgreSQL (DATABASE_URL set): pg_dump in its custom format (one consistent snapshot, taken
 * while the portal runs) and pg_restore in one transaction, without owners or grants, stopping
 * at the first error. A restore goes into an empty database; `--clean` replaces a non-empty
 * one's whole contents: psql empties it and runs the backup's script in one transaction.
 *
 * Embedded PGlite (no DATABASE_URL; PGLITE_DIR, default ./data): a gzipped tarball of the data
 * folder, taken after a checkpoint by PGlite itself (`dumpDataDir`) and loaded back by PGlite
 * (`loadDataDir`) into an empty folder. PGlite serves one process at a time, so both need the
 * portal stopped: the folder's lock file names the process that holds it. `--clean` moves a
 * non-empty folder aside (`<folder>.before-restore-<time>`) instead of refusing.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { acquirePgliteLock } from "../app/db/client.server";

/** A refusal or failure the user can act on: printed as it is, without a stack. */
class Refusal extends Error {}

const USAGE = `Usage:
  npm run db:backup -- [file]                      (default: backups/portal-<UTC time>.dump, or .tar.gz for the embedded database)
  npm run db:restore -- <file> [--clean|--force]   (--clean: replace what the target database holds)
The database is DATABASE_URL (PostgreSQL) when it is set, else the embedded one in PGLITE_DIR (./data).`;

const PG_CUSTOM_MAGIC = Buffer.from("PGDMP");
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

async function main() {
  const [mode, ...rest] = process.argv.slice(2);
  const flags = rest.filter((argument) => argument.startsWith("--"));
  const names = rest.filter((argument) => !argument.startsWith("--"));
  if (flags.includes("--help") || (mode !== "backup" && mode !== "restore")) {
    console.log(USAGE);
    if (!flags.includes("--help")) process.exitCode = 2;
    return;
  }
  const known = mode === "restore" ? ["--clean", "--force"] : [];
  const unknown = flags.filter((flag) => !known.includes(flag));
  if (unknown.length || names.length > 1) throw new Refusal(`Unexpected ${[...unknown, ...names.slice(1)].join(" ")}.\n${USAGE}`);
  const clean = flags.includes("--clean") || flags.includes("--force");

  const url = process.env.DATABASE_URL || undefined;
  const pgliteDir = process.env.PGLITE_DIR || "./data";
  if (mode === "backup") {
    const file = names[0] ?? defaultBackupPath(url ? ".dump" : ".tar.gz");
    if (url) await backupPostgres(url, file);
    else await backupPglite(pgliteDir, file);
  } else {
    const file = names[0];
    if (!file) throw new Refusal(`Name the backup to restore: npm run db:restore -- backups/portal-….dump\n${USAGE}`);
    if (url) await restorePostgres(url, file, clean);
    else await restorePglite(pgliteDir, file, clean);
  }
}

// ---------------------------------------------------------------- PostgreSQL

async function backupPostgres(url: string, file: string) {
  const pgDump = findClientTool("pg_dump");
  const target = connectionFor(url);
  const partial = prepareOutput(file);
  try {
    await runTool(pgDump, ["--format=custom", "--no-password", `--file=${partial}`, `--dbname=${target.dbname}`], target.env);
    fs.renameSync(partial, file);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  reportWritten(file, `PostgreSQL database ${target.label}, pg_dump custom format`);
}

async function restorePostgres(url: string, file: string, clean: boolean) {
  if (backupKind(file) !== "postgres") {
    throw new Refusal(`${file} is a backup of the embedded database (PGlite), not a pg_dump file: restore it without DATABASE_URL, into PGLITE_DIR.`);
  }
  const pgRestore = findClientTool("pg_restore");
  const target = connectionFor(url);
  const { default: postgres } = await import("postgres");
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const existing = await sql<{ name: string }[]>`
      SELECT n.nspname || '.' || c.relname AS name
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
        AND n.nspname NOT IN ('pg_catalog', 'information_schema')
        AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
      ORDER BY 1`;
    if (existing.length && !clean) {
      const sample = existing
        .slice(0, 5)
        .map((row) => row.name)
        .join(", ");
      throw new Refusal(
        `The database ${target.label} is not empty: it holds ${existing.length} tables, views and sequences (${sample}${existing.length > 5 ? ", …" : ""}).\n` +
          `Restore into an empty database (CREATE DATABASE, then point DATABASE_URL at it), or pass --clean to replace its whole contents ` +
          `with the backup's (what it holds now is lost; stop the portal first).`,
      );
    }
    const restoreArgs = ["--no-owner", "--no-privileges", "--no-password"];
    if (existing.length) {
      // pg_restore's own --clean drops object by object what the backup holds, which fails on
      // partitioned tables (a partition's inherited key cannot be dropped alone) and leaves what
      // the backup lacks. Instead, one psql transaction empties the database and then runs the
      // backup's script: any error rolls both back and the database stays as it was.
      await runRestoreScript(pgRestore, findClientTool("psql"), [...restoreArgs, "--file=-", file], target);
    } else {
      await runTool(pgRestore, [...restoreArgs, "--exit-on-error", "--single-transaction", `--dbname=${target.dbname}`, file], target.env);
    }
    // pg_restore brings no planner statistics: gather them now rather than at autovacuum's leisure.
    await sql.unsafe("ANALYZE");
    const [{ tables }] = await sql<{ tables: number }[]>`
      SELECT count(*)::int AS tables FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`;
    console.log(
      `Restored ${path.resolve(file)} into the PostgreSQL database ${target.label}${existing.length ? ", replacing its former contents" : ""}: ${tables} tables.`,
    );
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * Drops every schema but public, and everything in public that no extension owns, so that the
 * backup's script recreates the database's whole contents. Runs first in the restore's transaction.
 */
const EMPTY_DATABASE_SQL = `
SET client_min_messages = warning;
DO $empty$
DECLARE
  statement text;
BEGIN
  FOREACH statement IN ARRAY coalesce((
    SELECT array_agg(format('DROP SCHEMA IF EXISTS %I CASCADE', n.nspname))
    FROM pg_namespace n
    WHERE n.nspname NOT IN ('public', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
  ), '{}') || coalesce((
    SELECT array_agg(format('DROP %s IF EXISTS public.%I CASCADE',
      CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'S' THEN 'SEQUENCE'
        WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END, c.relname))
    FROM pg_class c
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
      AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
  ), '{}') || coalesce((
    SELECT array_agg(format('DROP %s IF EXISTS %s CASCADE', CASE p.prokind WHEN 'a' THEN 'AGGREGATE' ELSE 'ROUTINE' END, p.oid::regprocedure))
    FROM pg_proc p
    WHERE p.pronamespace = 'public'::regnamespace
      AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
  ), '{}') || coalesce((
    SELECT array_agg(format('DROP %s IF EXISTS public.%I CASCADE', CASE t.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, t.typname))
    FROM pg_type t
    WHERE t.typnamespace = 'public'::regnamespace
      AND (t.typtype IN ('e', 'd', 'r') OR (t.typtype = 'c' AND (SELECT c.relkind FROM pg_class c WHERE c.oid = t.typrelid) = 'c'))
      AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_type'::regclass AND d.objid = t.oid AND d.deptype = 'e')
  ), '{}')
  LOOP
    EXECUTE statement;
  END LOOP;
END
$empty$;
`;

/**
 * `pg_restore --file=-` (the backup as an SQL script) into psql, after EMPTY_DATABASE_SQL, in one
 * transaction that stops at the first error. psql's input is closed (and so the transaction
 * committed) only once pg_restore has written the whole script; if pg_restore fails, psql is
 * killed first and the transaction dies with its connection.
 */
async function runRestoreScript(pgRestore: string, psql: string, restoreArgs: string[], target: ReturnType<typeof connectionFor>) {
  const env = { ...process.env, ...target.env };
  const writer = spawn(pgRestore, restoreArgs, { env, stdio: ["ignore", "pipe", "pipe"] });
  const reader = spawn(
    psql,
    ["--no-psqlrc", "--quiet", "--no-password", "--single-transaction", "--set=ON_ERROR_STOP=1", `--dbname=${target.dbname}`, "--file=-"],
    { env, stdio: ["pipe", "ignore", "pipe"] },
  );
  const errors = { pg_restore: "", psql: "" };
  writer.stderr!.on("data", (chunk: Buffer) => (errors.pg_restore += chunk.toString("utf8")));
  reader.stderr!.on("data", (chunk: Buffer) => (errors.psql += chunk.toString("utf8")));
  reader.stdin!.on("error", () => {}); // psql stopped early: its exit code tells why
  const exited = (child: ReturnType<typeof spawn>) =>
    new Promise<number | null>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", (code) => resolve(code));
    });
  const readerExit = exited(reader);
  reader.stdin!.write(EMPTY_DATABASE_SQL);
  writer.stdout!.pipe(reader.stdin!, { end: false });
  const writerCode = await exited(writer);
  if (writerCode === 0) reader.stdin!.end();
  else reader.kill("SIGKILL");
  const readerCode = await readerExit;
  process.stderr.write(errors.pg_restore + errors.psql);
  if (writerCode !== 0) throw new Refusal(`pg_restore failed (exit code ${writerCode}); see its message above. The database was not changed.`);
  if (readerCode !== 0) throw new Refusal(`The restore failed in psql (exit code ${readerCode}); see its message above. The database was not changed.`);
}

/** The URL for libpq without its password (which would show in the process list), and the password in PGPASSWORD. */
function connectionFor(url: string) {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Refusal("DATABASE_URL is not a URL (postgres://user:password@host:port/database).");
  }
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  const env: Record<string, string> = password ? { PGPASSWORD: password } : {};
  return { dbname: parsed.toString(), env, label: `"${decodeURIComponent(parsed.pathname.slice(1))}" on ${parsed.host}` };
}

/** pg_dump, pg_restore or psql: on PATH, else the newest /usr/lib/postgresql/<version>/bin. */
function findClientTool(name: "pg_dump" | "pg_restore" | "psql"): string {
  const versioned = "/usr/lib/postgresql";
  const versions = fs.existsSync(versioned)
    ? fs
        .readdirSync(versioned)
        .sort((a, b) => Number(b) - Number(a))
        .map((version) => path.join(versioned, version, "bin"))
    : [];
  const folders = [...(process.env.PATH ?? "").split(path.delimiter).filter(Boolean), "/usr/bin", ...versions];
  for (const folder of folders) {
    const candidate = path.join(folder, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  throw new Refusal(
    `${name} was not found (looked on PATH, in /usr/bin and /usr/lib/postgresql/*/bin). ` +
      `Install the PostgreSQL client tools of the server's major version or newer (Debian: apt-get install -y postgresql-client).`,
  );
}

async function runTool(command: string, args: string[], env: Record<string, string>) {
  const tool = path.basename(command);
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "inherit", "pipe"] });
  let errors = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    errors += chunk.toString("utf8");
    process.stderr.write(chunk);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (exitCode) => resolve(exitCode));
  });
  if (code === 0) return;
  const hint = /version mismatch/i.test(errors)
    ? ` The server is newer than ${tool} (${command}): install the client tools of the server's major version.`
    : "";
  throw new Refusal(`${tool} failed (exit code ${code}); see its message above.${hint}`);
}

// ---------------------------------------------------------------- embedded PGlite

async function backupPglite(dataDir: string, file: string) {
  const folder = embeddedFolder(dataDir);
  if (!fs.existsSync(path.join(folder, "PG_VERSION"))) {
    throw new Refusal(
      `There is no embedded database in ${folder} (no PG_VERSION file). Set PGLITE_DIR to the portal's data folder, or DATABASE_URL for PostgreSQL.`,
    );
  }
  const partial = prepareOutput(file);
  const release = lockEmbedded(dataDir, "back it up");
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    const client = new PGlite(dataDir);
    let tarball: Blob;
    try {
      await client.waitReady;
      await client.exec("CHECKPOINT");
      tarball = await client.dumpDataDir("gzip");
    } finally {
      await client.close();
    }
    fs.writeFileSync(partial, Buffer.from(await tarball.arrayBuffer()));
    fs.renameSync(partial, file);
  } finally {
    fs.rmSync(partial, { force: true });
    release();
  }
  reportWritten(file, `embedded database ${folder}, PGlite data folder tarball`);
}

async function restorePglite(dataDir: string, file: string, clean: boolean) {
  if (backupKind(file) !== "pglite") {
    throw new Refusal(`${file} is a pg_dump file of a PostgreSQL database: restore it with DATABASE_URL set to an empty PostgreSQL database.`);
  }
  const folder = embeddedFolder(dataDir);
  fs.mkdirSync(path.dirname(folder), { recursive: true });
  const release = lockEmbedded(dataDir, "restore into it");
  let aside: string | undefined;
  try {
    const occupied = fs.existsSync(folder) && fs.readdirSync(folder).length > 0;
    if (occupied && !clean) {
      throw new Refusal(
        `${folder} is not empty. Restore into a new folder (PGLITE_DIR=<new folder> npm run db:restore -- ${file}), ` +
          `or pass --clean to replace it: the folder is moved aside to ${folder}.before-restore-<time> first, not deleted.`,
      );
    }
    if (occupied) {
      aside = `${folder}.before-restore-${timestamp()}`;
      fs.renameSync(folder, aside);
    }
    const { PGlite } = await import("@electric-sql/pglite");
    let tables: number;
    try {
      const client = new PGlite(dataDir, { loadDataDir: new Blob([fs.readFileSync(file)]) });
      try {
        await client.waitReady;
        const { rows } = await client.query<{ tables: number }>(
          "SELECT count(*)::int AS tables FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
        );
        tables = rows[0].tables;
      } finally {
        await client.close();
      }
    } catch (error) {
      fs.rmSync(folder, { recursive: true, force: true });
      if (aside) fs.renameSync(aside, folder);
      throw error;
    }
    console.log(`Restored ${path.resolve(file)} into the embedded database ${folder}: ${tables} tables.`);
    if (aside) console.log(`The folder's former contents are in ${aside}.`);
  } finally {
    release();
  }
}

function embeddedFolder(dataDir: string) {
  if (dataDir.startsWith("memory://")) throw new Refusal(`PGLITE_DIR is ${dataDir}, an in-memory database: there is no folder to back up or restore.`);
  return path.resolve(dataDir);
}

/** The portal's own lock on the folder, with a message that names the process holding it. */
function lockEmbedded(dataDir: string, purpose: string): () => void {
  try {
    return acquirePgliteLock(dataDir);
  } catch (error) {
    const lockPath = `${path.resolve(dataDir)}.lock`;
    const holder = fs.existsSync(lockPath) ? Number(fs.readFileSync(lockPath, "utf8")) : NaN;
    if (!holder) throw error;
    throw new Refusal(
      `The embedded database in ${path.resolve(dataDir)} is open in process ${holder}${commandOf(holder)}, and PGlite serves one process ` +
        `at a time (lock file ${lockPath}). Stop that process to ${purpose}, then start it again.`,
    );
  }
}

function commandOf(pid: number) {
  try {
    const command = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
    return command ? ` (${command.length > 120 ? `${command.slice(0, 119)}…` : command})` : "";
  } catch {
    return "";
  }
}

// ---------------------------------------------------------------- files

function timestamp() {
  return new Date()
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replaceAll(":", "-");
}

function defaultBackupPath(extension: string) {
  return path.join("backups", `portal-${timestamp()}${extension}`);
}

/** Checks that `file` is new, makes its folder, and names the file written until the backup is whole. */
function prepareOutput(file: string) {
  if (fs.existsSync(file)) throw new Refusal(`${path.resolve(file)} already exists: name another file.`);
  const folder = path.dirname(path.resolve(file));
  if (!fs.existsSync(folder)) {
    fs.mkdirSync(folder, { recursive: true });
    // The default folder sits in the working tree: keep backups out of version control.
    if (folder === path.resolve("backups")) fs.writeFileSync(path.join(folder, ".gitignore"), "*\n");
  }
  return `${file}.partial`;
}

function backupKind(file: string): "postgres" | "pglite" {
  let head: Buffer;
  try {
    const handle = fs.openSync(file, "r");
    head = Buffer.alloc(5);
    fs.readSync(handle, head, 0, 5, 0);
    fs.closeSync(handle);
  } catch {
    throw new Refusal(`Cannot read ${path.resolve(file)}.`);
  }
  if (head.subarray(0, 5).equals(PG_CUSTOM_MAGIC)) return "postgres";
  if (head.subarray(0, 2).equals(GZIP_MAGIC)) return "pglite";
  throw new Refusal(`${path.resolve(file)} is not a backup made by npm run db:backup (neither a pg_dump custom-format file nor a PGlite tarball).`);
}

function reportWritten(file: string, what: string) {
  const bytes = fs.statSync(file).size;
  const size = bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`;
  console.log(`Backup written: ${path.resolve(file)} (${size}, ${bytes} bytes; ${what}).`);
  console.log(`Restore it with: npm run db:restore -- ${file}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Refusal ? error.message : error);
  process.exitCode = 1;
});

/**
 * A PostgreSQL cluster of a test's own (initdb in a temporary folder, a free port on 127.0.0.1),
 * to stop and start while a portal runs on it without touching the shared test database. PostgreSQL
 * refuses to run as root: as root (CI) its commands run as the `postgres` user, over a folder
 * given to that user; as anyone else they run as the current user.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "./server";

const run = promisify(execFile);

/** The folder of initdb and pg_ctl: PG_BIN, else the newest /usr/lib/postgresql/<version>/bin, else the PATH. */
function binDirectory(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((name) => fs.existsSync(path.join(root, name, "bin", "pg_ctl"))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0], "bin") : "";
}

const asRoot = process.getuid?.() === 0;

export interface PostgresCluster {
  port: number;
  /** A connection URL to `database` as the superuser `postgres`. */
  url(database: string): string;
  start(): Promise<void>;
  /** `pg_ctl stop -m fast`: sessions are ended, the server shuts down cleanly. */
  stop(): Promise<void>;
  restart(): Promise<void>;
  /** Stops the server (if running) and removes its folder. */
  destroy(): Promise<void>;
  /** The server's log so far. */
  log(): string;
}

export async function createPostgresCluster(): Promise<PostgresCluster> {
  const bin = binDirectory();
  const tool = (name: string) => (bin ? path.join(bin, name) : name);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "portal-pg-"));
  const dataDir = path.join(folder, "data");
  const logFile = path.join(folder, "server.log");
  if (asRoot) {
    const [{ stdout: uid }, { stdout: gid }] = await Promise.all([run("id", ["-u", "postgres"]), run("id", ["-g", "postgres"])]);
    fs.chownSync(folder, Number(uid), Number(gid));
  }
  const pg = (name: string, args: string[]) => (asRoot ? run("runuser", ["-u", "postgres", "--", tool(name), ...args]) : run(tool(name), args));

  await pg("initdb", ["-D", dataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
  const port = await freePort();
  // A throwaway cluster: durability is not what is tested, only that the server goes away and comes back.
  const settings = [
    `port = ${port}`,
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${folder}'`,
    "fsync = off",
    "synchronous_commit = off",
    "full_page_writes = off",
    "max_connections = 50",
  ];
  fs.appendFileSync(path.join(dataDir, "postgresql.conf"), `\n${settings.join("\n")}\n`);

  let running = false;
  const cluster: PostgresCluster = {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async start() {
      await pg("pg_ctl", ["-D", dataDir, "-l", logFile, "-w", "-t", "30", "start"]);
      running = true;
    },
    async stop() {
      await pg("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "-t", "30", "stop"]);
      running = false;
    },
    async restart() {
      await cluster.stop();
      await cluster.start();
    },
    async destroy() {
      if (running) await pg("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]).catch(() => {});
      running = false;
      fs.rmSync(folder, { recursive: true, force: true });
    },
    log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8") : ""),
  };
  await cluster.start();
  return cluster;
}

/**
 * The built portal (`build/server.js`, made by `npm run build`) as a real process for the tests
 * of tests/process: a database of its own on the test PostgreSQL (or a PGlite folder), every line
 * it writes kept, and a way to stop it gently or kill it outright.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";

export const SERVER_URL = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || "";

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** A new empty database beside TEST_DATABASE_URL (dropped and made again), as a connection URL. */
export async function freshDatabase(name: string, serverUrl = SERVER_URL): Promise<string> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.unsafe(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export interface PortalProcess {
  port: number;
  baseUrl: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves when /healthz answers 200 (rejects after `timeoutMs`). */
  ready(timeoutMs?: number): Promise<void>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
  /** SIGKILL: no shutdown work at all. */
  kill(): Promise<void>;
}

/**
 * Starts `node build/server.js` with NODE_ENV=production and the given environment. Without
 * `DATABASE_URL` in `env` it runs on a new PGlite folder.
 */
export function startPortal(env: Record<string, string | undefined>, port: number): PortalProcess {
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    APP_URL: `http://localhost:${port}`,
    SESSION_SECRET: "process-test-session-secret",
    LOG_LEVEL: "info",
    DATABASE_URL: undefined,
    SMTP_URL: undefined,
    ...env,
  };
  if (!childEnv.DATABASE_URL && !childEnv.PGLITE_DIR) {
    childEnv.PGLITE_DIR = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "portal-process-")), "data");
  }
  const child = spawn(process.execPath, ["build/server.js"], {
    env: childEnv as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let written = "";
  child.stdout!.on("data", (chunk: Buffer) => (written += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (written += chunk.toString("utf8")));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    port,
    baseUrl,
    child,
    output: () => written,
    async ready(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`The portal exited (${child.exitCode}):\n${written}`);
        try {
          const answer = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2000) });
          if (answer.ok) return;
        } catch {
          // not listening yet
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error(`The portal did not become healthy in ${timeoutMs} ms:\n${written}`);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

/**
 * The built server as `npm start` runs it, for the benchmarks (bench/run.ts, bench/load.ts):
 * `node <the start script's Node options> build/server.js` in production mode, the reminder
 * scheduler off, no SMTP, the job worker in the same process.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The Node options `npm start` gives the server (package.json), then BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"). */
function serverNodeArgs(appDir: string): string[] {
  const start = JSON.parse(fs.readFileSync(path.join(appDir, "package.json"), "utf8")).scripts.start as string;
  const options = /\bnode((?: --\S+)*) build\/server\.js/.exec(start);
  if (!options) throw new Error(`package.json: the start script does not run node build/server.js: ${start}`);
  return [...options[1].split(" "), ...(process.env.BENCH_NODE_ARGS ?? "").split(" ")].filter(Boolean);
}

/** The status of GET /healthz on the port, or null when nothing answers. */
function healthStatus(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path: "/healthz", headers: { Host: `localhost:${port}` }, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? null);
    });
    req.setTimeout(5_000, () => req.destroy());
    req.on("error", () => resolve(null));
  });
}

interface BuiltServer {
  /** The checkout whose build/server.js runs (default: this one). */
  appDir?: string;
  databaseUrl: string;
  port: number;
  sessionSecret: string;
  /** The server's output is appended here. */
  logFile: string;
  /** More environment, e.g. LOG_LEVEL. */
  env?: Record<string, string>;
}

/** Starts the server and waits until /healthz answers 200 (90 s at most). */
export async function startBuiltServer({ appDir = ".", databaseUrl, port, sessionSecret, logFile, env: extra = {} }: BuiltServer): Promise<ChildProcess> {
  if ((await healthStatus(port)) !== null) throw new Error(`Port ${port} is already in use: stop whatever listens there first.`);
  const log = fs.openSync(logFile, "a");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    APP_URL: `http://localhost:${port}`,
    SESSION_SECRET: sessionSecret,
    REMINDER_SCHEDULER: "off",
    ...extra,
    NODE_ENV: "production",
  };
  delete env.SMTP_URL;
  delete env.PORTAL_TODAY;
  delete env.WORKER;
  const child = spawn(process.execPath, [...serverNodeArgs(appDir), "build/server.js"], { cwd: appDir, env, stdio: ["ignore", log, log] });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server on port ${port} exited (${child.exitCode}); see ${logFile}`);
    if ((await healthStatus(port)) === 200) return child;
    await sleep(250);
  }
  throw new Error(`The server on port ${port} did not answer /healthz within 90 s; see ${logFile}`);
}

/** SIGTERM, then SIGKILL after 15 s. */
export async function stopServer(child: ChildProcess | null) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  if (await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)])) return;
  child.kill("SIGKILL");
  await exited;
}

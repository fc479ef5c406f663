/**
 * `npm run bench:load [M|L] [--instances=1,2] [--duration=60] [--partners=200] [--admins=20] [--think=0]
 * [--app=<dir>] [--beside=<dir>] [--keep-base]`: the portal under load. Partners save their own Sales
 * Reports while administrators read the dashboard and the consolidated reports, against one built
 * server and against two sharing the database (the generator sends each user to one of them in
 * turn, as a load balancer would). See bench/README.md, "Load".
 *
 * The data set is the bench one (`portal_bench_<size>`, generated when missing; M has 294 active
 * partners). It is copied (`CREATE DATABASE … TEMPLATE`) to `portal_load_<size>_base`, where one
 * server signs every user in once over POST /login (a successful sign-in gives its attempt back,
 * so the 50-per-address limit counts none of them; argon2id's cost makes this about 20 s on two
 * quiet cores). Each configuration then runs on a fresh copy of that base, so the bench data set is
 * never changed and every configuration starts from the same rows and the same sessions:
 * the built server(s) as `npm start` runs them (NODE_ENV=production, the worker on,
 * REMINDER_SCHEDULER=off, LOG_LEVEL=warn, ports 3820, 3821), every partner's page opened once,
 * then `--duration` seconds of:
 * - partners (the first `--partners` active partners whose open-quarter Sales Report is not
 *   approved and holds at most 2,000 rows): each saves its own report in a loop as the grid does,
 *   one JSON post of 1 to 5 changed or 1 to 5 added rows with their grid positions and the
 *   `version` its page gave it, then reads the page's data again (`/partner/sales-report.data`,
 *   what the browser revalidates after the save's redirect), whose version the next save sends;
 * - administrators: the dashboard (three tabs) and the three consolidated reports in turn;
 * - with `--think=<ms>`, each user pauses between half and one and a half times that after each
 *   save and page (and starts within one pause); without it, users send their next request at once.
 * Every request's latency and status is kept. Afterwards the database is read: every row an
 * acknowledged save (302) added must be there once, every row it changed must hold the value of
 * the last acknowledged save that changed it, each report's row count and version must have
 * moved by exactly the acknowledged saves, and the dashboard's sums (dashboard_sales) must equal
 * the rows they sum. While the load runs, pg_stat_activity of the load database is sampled every
 * 100 ms (who waits for what), each server answers a static file every 250 ms (the delay of its
 * event loop, seen from outside), and the CPU time of the servers, of the database's sessions and
 * of this generator is read from /proc.
 *
 * `--app=<dir>` measures the build in another checkout; `--beside=<dir>` runs a second build at the
 * same time under the same load (its own copy, ports 3830…), so both meet the same machine: the
 * way to compare two builds on a busy one. `--keep-base` keeps the signed-in base and its cookies
 * for the next run. BENCH_NODE_ARGS adds Node options to the servers (e.g. --cpu-prof).
 *
 * Prints a table per configuration and a summary, writes every figure to
 * $TMPDIR/portal-load-<size>.json, and exits 1 on any error or lost row. Servers are stopped at
 * the end, also on an error or Ctrl-C; the last copy stays for a look (`portal_load_<size>`).
 */
import { spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import postgres from "postgres";
import { decode } from "turbo-stream";
import { CURRENCIES, FORMULATION_TYPES, MONTHS } from "../app/db/reference-data";
import { unpackSalesRows, type PackedSalesRows, type SalesGridRows } from "../app/reports/sales/contract";
import { deriveFdfValues } from "../app/reports/sales/rows";
import { type SalesKind } from "../app/reports/sales/columns";
import { benchDatabaseUrl, benchServerUrl, parseSize, type BenchSize } from "./generate";
import { startBuiltServer, stopServer } from "./server";

const HOST = "127.0.0.1";
const FIRST_PORT = 3820;
const SESSION_SECRET = "bench-load-session-secret-not-for-production";
const REQUEST_TIMEOUT_MS = 60_000;
const ACTIVITY_SAMPLE_MS = 100;
const PROBE_MS = 250;
/** Reports larger than this are left out of the partners who save (their page is a bulk case of its own). */
const MAX_REPORT_ROWS = 2_000;

// ---------------------------------------------------------------- options

interface Options {
  size: BenchSize;
  instances: number[];
  durationS: number;
  partners: number;
  admins: number;
  /** Pause of a virtual user between two of its requests (ms, drawn between half and one and a half times). */
  thinkMs: number;
  /** The folder whose build/server.js is measured (another checkout, to compare two builds). */
  appDir: string;
  /** Another build, measured beside the first under the same load at the same time (its own database copy, ports 3830…). */
  besideDir: string | null;
  /** Keep the signed-in base copy and its cookies for the next run (and use the last run's when there is one). */
  keepBase: boolean;
}

function parseOptions(argv: string[]): Options {
  const flag = (name: string) => argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const number = (name: string, fallback: number) => {
    const value = flag(name);
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`--${name} takes a number`);
    return parsed;
  };
  const instances = (flag("instances") ?? "1,2").split(",").map(Number);
  if (instances.some((count) => !Number.isInteger(count) || count < 1 || count > 4)) throw new Error("--instances takes a list of 1 to 4, e.g. 1,2");
  return {
    size: parseSize(argv.find((arg) => !arg.startsWith("--")) ?? "M"),
    instances,
    durationS: number("duration", 60),
    partners: number("partners", 200),
    admins: number("admins", 20),
    thinkMs: number("think", 0),
    appDir: path.resolve(flag("app") ?? "."),
    keepBase: argv.includes("--keep-base"),
    besideDir: flag("beside") ? path.resolve(flag("beside")!) : null,
  };
}

// ---------------------------------------------------------------- small helpers

function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}
const ms = (value: number) => (Number.isNaN(value) ? "—" : value >= 100 ? `${Math.round(value)} ms` : `${value.toFixed(1)} ms`);
const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));
const think = (mean: number) => (mean > 0 ? sleep(mean * (0.5 + Math.random())) : Promise.resolve());
const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)];

/** Runs `work` over `items`, `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index], index);
      }
    }),
  );
}

// ---------------------------------------------------------------- HTTP: node:http with keep-alive, one agent per server

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  ms: number;
}

const agents = new Map<number, http.Agent>();
function agentFor(port: number) {
  let agent = agents.get(port);
  if (!agent) agents.set(port, (agent = new http.Agent({ keepAlive: true, maxSockets: Infinity })));
  return agent;
}

/** Requests sent again because the server had closed their idle keep-alive connection as they left (see `request`). */
let resentOnClosedConnection = 0;

/**
 * One request on a keep-alive connection. A connection the server closes for idleness (Node's
 * keepAliveTimeout, 5 s) can be taken for a request in the same moment: the request then fails
 * with ECONNRESET before any answer, unread by the server. Browsers send it again on a new
 * connection; so does this, once (on a connection of its own: the pool's other idle connections
 * may be closing too), and counts it.
 */
function request(
  port: number,
  pathname: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; keepBody?: boolean } = {},
  resent = false,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const headers: Record<string, string> = { Host: `localhost:${port}`, ...options.headers };
    if (options.body !== undefined) headers["Content-Length"] = String(Buffer.byteLength(options.body));
    let answered = false;
    const req = http.request({ host: HOST, port, path: pathname, method: options.method ?? "GET", headers, agent: resent ? false : agentFor(port) }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => {
        if (options.keepBody !== false) chunks.push(chunk);
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), ms: performance.now() - start }));
      res.on("error", reject);
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`timeout after ${REQUEST_TIMEOUT_MS} ms: ${pathname}`)));
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (!answered && !resent && req.reusedSocket && error.code === "ECONNRESET") {
        resentOnClosedConnection++;
        request(port, pathname, options, true).then((reply) => resolve({ ...reply, ms: performance.now() - start }), reject);
      } else reject(error);
    });
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** A browser's cookies for one site: what Set-Cookie gives, sent back. */
class CookieJar {
  private cookies = new Map<string, string>();
  static from(header: string) {
    const jar = new CookieJar();
    for (const pair of header.split("; ").filter(Boolean)) jar.cookies.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    return jar;
  }
  take(headers: http.IncomingHttpHeaders) {
    for (const line of ([] as string[]).concat(headers["set-cookie"] ?? [])) {
      const pair = line.split(";")[0];
      const at = pair.indexOf("=");
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      const expired = /;\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(line);
      if (!value || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

const bodyText = (reply: Reply) => (reply.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(reply.body) : reply.body).toString("utf8");

// ---------------------------------------------------------------- the servers

const startServer = (appDir: string, databaseUrl: string, port: number, logFile: string) =>
  startBuiltServer({ appDir, databaseUrl, port, sessionSecret: SESSION_SECRET, logFile, env: { LOG_LEVEL: "warn" } });

// ---------------------------------------------------------------- CPU time from /proc

const CLOCK_TICKS = 100;
/** utime + stime of a process, in seconds (0 when it is gone). */
function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
/** The machine's busy and total CPU time, in seconds. */
function machineCpu(): { busy: number; total: number } {
  const [line] = fs.readFileSync("/proc/stat", "utf8").split("\n");
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  const idle = values[3] + (values[4] ?? 0);
  return { busy: (total - idle) / CLOCK_TICKS, total: total / CLOCK_TICKS };
}

// ---------------------------------------------------------------- the data set

interface LoadPartner {
  partnerId: number;
  email: string;
  initialVersion: number;
  initialRows: number;
}

interface Meta {
  openQuarter: string;
  password: string;
  admin: string;
}

/** A fresh copy of `template` named `copy` (dropped first); its URL. */
async function copyDatabase(template: string, copy: string): Promise<string> {
  const server = postgres(benchServerUrl(), { max: 1, onnotice: () => {} });
  try {
    await server.unsafe(`DROP DATABASE IF EXISTS ${copy} WITH (FORCE)`);
    // A template must have no other session while it is copied: wait for one to end, a few times.
    for (let attempt = 1; ; attempt++) {
      try {
        await server.unsafe(`CREATE DATABASE ${copy} TEMPLATE ${template}`);
        break;
      } catch (error) {
        if (attempt >= 10 || !/being accessed by other users/.test((error as Error).message)) throw error;
        await sleep(3000);
      }
    }
  } finally {
    await server.end();
  }
  const url = new URL(benchServerUrl());
  url.pathname = `/${copy}`;
  return url.toString();
}

// ---------------------------------------------------------------- what the virtual users record

interface Sample {
  /** Start, in ms since the load began. */
  at: number;
  ms: number;
  /** 0: no answer (a refused connection, a timeout). */
  status: number;
}

interface Recorder {
  saves: Sample[];
  reloads: Sample[];
  reads: Map<string, Sample[]>;
  failures: string[];
}

/** What one partner's acknowledged saves wrote. */
interface Acknowledged {
  /** Purchasers of the rows acknowledged saves added (each unique). */
  added: Set<string>;
  /** Row id → the purchaser the last acknowledged save that changed it wrote. */
  changed: Map<number, string>;
  /** Rows a save that was not acknowledged changed after that: either value may stand. */
  uncertain: Set<number>;
  saves: number;
  conflicts: number;
  errors: number;
  addedRows: number;
  changedRows: number;
}

const newAcknowledged = (): Acknowledged => ({
  added: new Set(),
  changed: new Map(),
  uncertain: new Set(),
  saves: 0,
  conflicts: 0,
  errors: 0,
  addedRows: 0,
  changedRows: 0,
});

// ---------------------------------------------------------------- a virtual partner

interface PageState {
  version: number;
  rows: SalesGridRows;
  productNames: Record<SalesKind, string[]>;
  countries: string[];
}

/** The page's data as the browser reads it (single fetch: turbo-stream), the Sales Report route's part. */
async function pageState(reply: Reply): Promise<PageState> {
  const text = bodyText(reply);
  const decoded = await decode(new Blob([text]).stream());
  await decoded.done;
  const routes = decoded.value as Record<string, { data?: unknown }>;
  const data = routes["routes/_shell.partner.sales-report"]?.data as
    { view: { report: { version: number }; rows: PackedSalesRows; lists: { productNames: Record<SalesKind, string[]>; countries: string[] } } } | undefined;
  if (!data?.view) throw new Error(`the page's data holds no Sales Report: ${text.slice(0, 200)}`);
  return {
    version: data.view.report.version,
    rows: unpackSalesRows(data.view.rows),
    productNames: data.view.lists.productNames,
    countries: data.view.lists.countries,
  };
}

interface VirtualPartner {
  partner: LoadPartner;
  port: number;
  jar: CookieJar;
  page: PageState;
  ack: Acknowledged;
}

const USD_RATES = new Map(CURRENCIES.map((currency) => [currency.code, currency.usdRate]));
/** The purchaser of a row a save added: `Load <configuration>-<partner>-<save>-a<row>` (an edited row's: `-c<row>`). */
const ADDED_PURCHASER = /^Load \d+-\d+-\d+-a\d+$/;
type GridRow = Record<string, string | number>;

/**
 * The rows of one save, as the grid posts them: 1 to 5 saved rows edited (the whole row with its
 * id, a new purchaser, an API row's quantity and value), or 1 to 5 rows added at the end of a table
 * (an FDF row's derived values filled in as the grid fills them). Each row's purchaser is unique,
 * so the database can be searched for it afterwards.
 */
function gridSave(user: VirtualPartner, tag: number, serial: number, months: string[], year: number) {
  const { page, partner } = user;
  const count = 1 + Math.floor(Math.random() * 5);
  const posted: Record<SalesKind, { position: number; row: GridRow }[]> = { API: [], FDF: [] };
  const added: string[] = [];
  const changed = new Map<number, string>();
  // The rows this loop added keep their purchaser (it is how the check finds them): only the others are edited.
  const editable = (kind: SalesKind) =>
    page.rows[kind].map((row, position) => ({ row, position })).filter(({ row }) => !ADDED_PURCHASER.test(String(row.purchaser)));
  const candidates = { API: editable("API"), FDF: editable("FDF") };
  if (candidates.API.length + candidates.FDF.length > 0 && Math.random() < 0.5) {
    const taken = new Set<string>();
    for (let i = 0; i < count; i++) {
      const kind: SalesKind = candidates.FDF.length && (!candidates.API.length || Math.random() < 0.5) ? "FDF" : "API";
      const { position } = pick(candidates[kind]);
      if (taken.has(`${kind}${position}`)) continue;
      taken.add(`${kind}${position}`);
      const row: GridRow = { ...(page.rows[kind][position] as unknown as GridRow) };
      const purchaser = `Load ${tag}-${partner.partnerId}-${serial}-c${i}`;
      row.purchaser = purchaser;
      if (kind === "API") {
        const quantity = 10 + Math.floor(Math.random() * 500);
        row.quantity = String(quantity);
        row.totalValue = String(quantity * 120);
      }
      posted[kind].push({ position, row });
      changed.set(Number(row.id), purchaser);
    }
  } else {
    for (let i = 0; i < count; i++) {
      const kind: SalesKind = page.productNames.FDF.length && (!page.productNames.API.length || Math.random() < 0.6) ? "FDF" : "API";
      const purchaser = `Load ${tag}-${partner.partnerId}-${serial}-a${i}`;
      const common = { year: String(year), month: pick(months), country: pick(page.countries), purchaser, productName: pick(page.productNames[kind]) };
      let row: GridRow;
      if (kind === "API") {
        const quantity = 10 + Math.floor(Math.random() * 500);
        row = { ...common, quantity: String(quantity), totalValue: String(quantity * 120) };
      } else {
        const currency = pick(["USD", "INR", "KES", "ZAR", "EUR"]);
        const { row: derived } = deriveFdfValues(
          {
            currency,
            grossSalePriceCurrency: currency === "USD" || currency === "EUR" ? "3.15" : "250",
            quantity: String(1000 + Math.floor(Math.random() * 50_000)),
            deductableExpenses: "25",
            royaltyPercent: "5",
          },
          (code) => USD_RATES.get(code),
        );
        const { id: _unsaved, ...values } = derived;
        row = { ...values, ...common, strength: "50 mg", formulationType: pick(FORMULATION_TYPES), packSize: "30", procurementEndCountry: "", comments: "" };
      }
      posted[kind].push({ position: page.rows[kind].length + posted[kind].length, row });
      added.push(purchaser);
    }
  }
  const payload = { API: [] as GridRow[], FDF: [] as GridRow[], positions: { API: [] as number[], FDF: [] as number[] }, deletedIds: [] as number[] };
  for (const kind of ["API", "FDF"] as const) {
    posted[kind].sort((a, b) => a.position - b.position);
    payload[kind] = posted[kind].map((item) => item.row);
    payload.positions[kind] = posted[kind].map((item) => item.position);
  }
  return { payload, added, changed };
}

async function partnerLoop(
  user: VirtualPartner,
  tag: number,
  quarterId: number,
  months: string[],
  year: number,
  deadline: number,
  options: Options,
  recorder: Recorder,
  clock: () => number,
) {
  const { partner, port, jar, ack } = user;
  // People do not all press Save in the same second: with a pause between requests, each starts within one pause.
  await sleep(Math.random() * options.thinkMs);
  for (let serial = 1; performance.now() < deadline; serial++) {
    const { payload, added, changed } = gridSave(user, tag, serial, months, year);
    const body = JSON.stringify({ intent: "save", quarterId: String(quarterId), version: String(user.page.version), tab: pick(["API", "FDF"]), payload });
    const at = clock();
    let status = 0;
    try {
      const reply = await request(port, "/partner/sales-report", {
        method: "POST",
        body,
        headers: { "Content-Type": "application/json", Cookie: jar.header(), "Accept-Encoding": "gzip" },
      });
      status = reply.status;
      jar.take(reply.headers);
      recorder.saves.push({ at, ms: reply.ms, status });
      if (status !== 302) recorder.failures.push(`save of ${partner.email}: ${status} ${bodyText(reply).slice(0, 300)}`);
    } catch (error) {
      recorder.saves.push({ at, ms: clock() - at, status: 0 });
      recorder.failures.push(`save of ${partner.email}: ${(error as Error).message}`);
    }
    if (status === 302) {
      ack.saves += 1;
      for (const purchaser of added) ack.added.add(purchaser);
      for (const [id, purchaser] of changed) {
        ack.changed.set(id, purchaser);
        ack.uncertain.delete(id);
      }
      ack.addedRows += added.length;
      ack.changedRows += changed.size;
    } else {
      if (status === 409) ack.conflicts += 1;
      else ack.errors += 1;
      for (const id of changed.keys()) ack.uncertain.add(id);
    }

    // The page again, as the browser revalidates it after the save's redirect: the next save sends its version.
    const reloadAt = clock();
    try {
      const reply = await request(port, "/partner/sales-report.data", { headers: { Cookie: jar.header(), "Accept-Encoding": "gzip" } });
      jar.take(reply.headers);
      recorder.reloads.push({ at: reloadAt, ms: reply.ms, status: reply.status });
      if (reply.status === 200) user.page = await pageState(reply);
      else recorder.failures.push(`page of ${partner.email}: ${reply.status} ${bodyText(reply).slice(0, 300)}`);
    } catch (error) {
      recorder.reloads.push({ at: reloadAt, ms: clock() - reloadAt, status: 0 });
      recorder.failures.push(`page of ${partner.email}: ${(error as Error).message}`);
    }
    await think(options.thinkMs);
  }
}

// ---------------------------------------------------------------- a virtual administrator

/** What an administrator reads, in turn: the dashboard's tabs and the three consolidated reports of the open quarter. */
const ADMIN_PAGES = [
  { name: "dashboard", path: "/admin/dashboard" },
  { name: "dashboard", path: "/admin/dashboard?tab=sales-product" },
  { name: "dashboard", path: "/admin/dashboard?tab=summary" },
  { name: "consolidated sales-report", path: "/admin/report/sales-report" },
  { name: "consolidated filing-plans", path: "/admin/report/filing-plans" },
  { name: "consolidated development-timeline", path: "/admin/report/development-timeline" },
  { name: "consolidated sales-report", path: "/admin/report/sales-report?tab=FDF" },
] as const;

async function adminLoop(user: { port: number; jar: CookieJar }, deadline: number, options: Options, recorder: Recorder, clock: () => number) {
  await sleep(Math.random() * options.thinkMs);
  for (let turn = Math.floor(Math.random() * ADMIN_PAGES.length); performance.now() < deadline; turn++) {
    const page = ADMIN_PAGES[turn % ADMIN_PAGES.length];
    const samples = recorder.reads.get(page.name) ?? [];
    recorder.reads.set(page.name, samples);
    const at = clock();
    try {
      const reply = await request(user.port, page.path, { headers: { Cookie: user.jar.header(), "Accept-Encoding": "gzip" }, keepBody: false });
      user.jar.take(reply.headers);
      samples.push({ at, ms: reply.ms, status: reply.status });
      if (reply.status !== 200) recorder.failures.push(`${page.path}: ${reply.status}`);
    } catch (error) {
      samples.push({ at, ms: clock() - at, status: 0 });
      recorder.failures.push(`${page.path}: ${(error as Error).message}`);
    }
    await think(options.thinkMs);
  }
}

// ---------------------------------------------------------------- watching the database and the servers

interface Watch {
  stop(): Promise<WatchResult>;
}

interface WatchResult {
  samples: number;
  /** Mean sessions of the load database in each state (per sample), by state and wait. */
  states: { what: string; mean: number }[];
  /** Statements seen waiting for a lock: their first words, and in how many samples. */
  lockWaits: { statement: string; samples: number }[];
  /** Sessions inside a transaction per sample, and the longest transaction seen. */
  inTransactionMean: number;
  longestTransactionMs: number;
  /** A static file fetched from each server every 250 ms: its latency is the event loop's delay plus the accept queue. */
  probes: { port: number; p50: number; p95: number; max: number; count: number }[];
  cpu: { serversPercentOfCore: number[]; databasePercentOfCore: number; generatorPercentOfCore: number; machineBusyPercent: number };
}

function watch(databaseUrl: string, servers: { port: number; pid: number }[]): Watch {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  let running = true;
  let samples = 0;
  const states = new Map<string, number>();
  const lockWaits = new Map<string, number>();
  let inTransaction = 0;
  let longestTransactionMs = 0;
  const backendCpu = new Map<number, { first: number; last: number }>();
  const started = performance.now();
  const serverCpu = servers.map((server) => cpuSeconds(server.pid));
  const generatorCpu = process.cpuUsage();
  const machine = machineCpu();

  const sampler = (async () => {
    while (running) {
      const tick = performance.now();
      try {
        const rows = await sql`
          SELECT pid, state, wait_event_type, wait_event, left(regexp_replace(query, '\\s+', ' ', 'g'), 70) AS statement,
                 extract(epoch FROM now() - xact_start) * 1000 AS transaction_ms
          FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`;
        samples++;
        for (const row of rows) {
          const state = String(row.state ?? "unknown");
          const what =
            state === "active"
              ? row.wait_event_type
                ? `active, waiting: ${row.wait_event_type}/${row.wait_event}`
                : "active, running"
              : state === "idle in transaction"
                ? "idle in transaction (waiting for the server)"
                : state;
          states.set(what, (states.get(what) ?? 0) + 1);
          if (row.wait_event_type === "Lock")
            lockWaits.set(`${row.wait_event}: ${row.statement}`, (lockWaits.get(`${row.wait_event}: ${row.statement}`) ?? 0) + 1);
          if (row.transaction_ms != null) {
            inTransaction++;
            longestTransactionMs = Math.max(longestTransactionMs, Number(row.transaction_ms));
          }
          const cpu = cpuSeconds(Number(row.pid));
          const seen = backendCpu.get(Number(row.pid));
          if (seen) seen.last = cpu;
          else backendCpu.set(Number(row.pid), { first: cpu, last: cpu });
        }
      } catch {
        // a sample lost: the next one counts
      }
      await sleep(Math.max(0, ACTIVITY_SAMPLE_MS - (performance.now() - tick)));
    }
  })();

  const probeSamples = servers.map(() => [] as number[]);
  const probes = servers.map((server, index) =>
    (async () => {
      while (running) {
        try {
          const reply = await request(server.port, "/favicon.svg", { keepBody: false });
          if (reply.status === 200) probeSamples[index].push(reply.ms);
        } catch {
          // counted by the requests that failed
        }
        await sleep(PROBE_MS);
      }
    })(),
  );

  return {
    async stop() {
      const seconds = (performance.now() - started) / 1000;
      const servers_ = servers.map((server, index) => (100 * (cpuSeconds(server.pid) - serverCpu[index])) / seconds);
      for (const [pid, seen] of backendCpu) seen.last = Math.max(seen.last, cpuSeconds(pid));
      const databaseCpu = [...backendCpu.values()].reduce((sum, seen) => sum + seen.last - seen.first, 0);
      const generator = process.cpuUsage(generatorCpu);
      const machineNow = machineCpu();
      running = false;
      await Promise.all([sampler, ...probes]);
      await sql.end({ timeout: 5 });
      return {
        samples,
        states: [...states].map(([what, total]) => ({ what, mean: total / Math.max(samples, 1) })).sort((a, b) => b.mean - a.mean),
        lockWaits: [...lockWaits]
          .map(([statement, count]) => ({ statement, samples: count }))
          .sort((a, b) => b.samples - a.samples)
          .slice(0, 8),
        inTransactionMean: inTransaction / Math.max(samples, 1),
        longestTransactionMs,
        probes: servers.map((server, index) => ({
          port: server.port,
          p50: percentile(probeSamples[index], 50),
          p95: percentile(probeSamples[index], 95),
          max: Math.max(...probeSamples[index], 0),
          count: probeSamples[index].length,
        })),
        cpu: {
          serversPercentOfCore: servers_,
          databasePercentOfCore: (100 * databaseCpu) / seconds,
          generatorPercentOfCore: (100 * (generator.user + generator.system)) / 1e6 / seconds,
          machineBusyPercent: (100 * (machineNow.busy - machine.busy)) / (machineNow.total - machine.total),
        },
      };
    },
  };
}

// ---------------------------------------------------------------- the check afterwards

interface CheckResult {
  acknowledgedSaves: number;
  acknowledgedAdded: number;
  acknowledgedChanged: number;
  lostAdded: number;
  duplicatedAdded: number;
  lostChanges: number;
  uncertainChanges: number;
  reportsWithWrongCount: number;
  reportsWithWrongVersion: number;
  dashboardMismatches: number;
  rowsInLoadReports: number;
}

async function checkDatabase(sql: postgres.Sql, quarterId: number, users: VirtualPartner[]): Promise<CheckResult> {
  const result: CheckResult = {
    acknowledgedSaves: 0,
    acknowledgedAdded: 0,
    acknowledgedChanged: 0,
    lostAdded: 0,
    duplicatedAdded: 0,
    lostChanges: 0,
    uncertainChanges: 0,
    reportsWithWrongCount: 0,
    reportsWithWrongVersion: 0,
    dashboardMismatches: 0,
    rowsInLoadReports: 0,
  };
  const partnerIds = users.map((user) => user.partner.partnerId);
  const reports = await sql<{ partner_id: number; version: number; rows: number }[]>`
    SELECT r.partner_id, r.version, (SELECT count(*) FROM sales_rows s WHERE s.report_id = r.id)::int AS rows
    FROM reports r WHERE r.quarter_id = ${quarterId} AND r.type = 'sales' AND r.partner_id = ANY(${partnerIds})`;
  const reportOf = new Map(reports.map((report) => [report.partner_id, report]));
  const purchasers = await sql<{ purchaser: string; count: number }[]>`
    SELECT s.purchaser, count(*)::int AS count FROM sales_rows s JOIN reports r ON r.id = s.report_id
    WHERE r.quarter_id = ${quarterId} AND r.type = 'sales' AND r.partner_id = ANY(${partnerIds}) AND s.purchaser LIKE 'Load %'
    GROUP BY s.purchaser`;
  const stored = new Map(purchasers.map((row) => [row.purchaser, row.count]));
  const changedIds = users.flatMap((user) => [...user.ack.changed.keys()]);
  const current = new Map<number, string>();
  for (let at = 0; at < changedIds.length; at += 10_000) {
    const rows = await sql<{ id: number; purchaser: string }[]>`SELECT id, purchaser FROM sales_rows WHERE id = ANY(${changedIds.slice(at, at + 10_000)})`;
    for (const row of rows) current.set(row.id, row.purchaser);
  }
  for (const user of users) {
    const { ack, partner } = user;
    result.acknowledgedSaves += ack.saves;
    result.acknowledgedAdded += ack.addedRows;
    result.acknowledgedChanged += ack.changedRows;
    for (const purchaser of ack.added) {
      const count = stored.get(purchaser) ?? 0;
      if (count === 0) result.lostAdded++;
      if (count > 1) result.duplicatedAdded++;
    }
    for (const [id, purchaser] of ack.changed) {
      if (ack.uncertain.has(id)) result.uncertainChanges++;
      else if (current.get(id) !== purchaser) result.lostChanges++;
    }
    const report = reportOf.get(partner.partnerId);
    const rows = report?.rows ?? 0;
    result.rowsInLoadReports += rows;
    // Exact when every save of the partner was answered; a save without an answer may have been written.
    if (!ack.errors && !ack.conflicts) {
      if (rows !== partner.initialRows + ack.added.size) result.reportsWithWrongCount++;
      if ((report?.version ?? 0) !== partner.initialVersion + ack.saves) result.reportsWithWrongVersion++;
    }
  }
  // The dashboard's sums (kept by triggers in the saves' transactions) against the rows they sum:
  // per partner and month for the partners who saved, per month and per country and month over every partner.
  const measures = `count(*)::bigint AS row_count,
      coalesce(sum(CASE WHEN s.kind = 'FDF' THEN s.total_gross_value ELSE s.total_value END), 0) AS value_usd,
      coalesce(sum(CASE WHEN s.kind = 'FDF' THEN s.pack_size * s.quantity END), 0) AS units`;
  const counted = `s.product_id IS NOT NULL AND s.year IS NOT NULL AND s.month IS NOT NULL AND p.is_active`;
  const compare = (grain: string, keys: string[], direct: string, filter = "") => `
    WITH direct AS (${direct}),
    kept AS (SELECT ${keys.join(", ")}, row_count::bigint AS row_count, value_usd, units FROM dashboard_sales
             WHERE grain = '${grain}' AND NOT approved_only ${filter})
    SELECT count(*)::int AS mismatches FROM direct d FULL JOIN kept k USING (${keys.join(", ")})
    WHERE d.row_count IS DISTINCT FROM k.row_count OR d.value_usd IS DISTINCT FROM k.value_usd OR d.units IS DISTINCT FROM k.units`;
  const from = `FROM sales_rows s JOIN reports r ON r.id = s.report_id JOIN partners p ON p.id = r.partner_id`;
  const list = `ARRAY[${partnerIds.join(",")}]::int[]`;
  const checks = [
    compare(
      "partner_month",
      ["partner_id", "year", "month"],
      `SELECT r.partner_id, s.year, s.month, ${measures} ${from} WHERE ${counted} AND r.partner_id = ANY(${list}) GROUP BY 1, 2, 3`,
      `AND partner_id = ANY(${list})`,
    ),
    compare("month", ["year", "month"], `SELECT s.year, s.month, ${measures} ${from} WHERE ${counted} GROUP BY 1, 2`),
    compare(
      "country_month",
      ["country_id", "year", "month"],
      `SELECT coalesce(s.country_id, 0) AS country_id, s.year, s.month, ${measures} ${from} WHERE ${counted} GROUP BY 1, 2, 3`,
    ),
  ];
  for (const text of checks) result.dashboardMismatches += Number((await sql.unsafe(text))[0].mismatches);
  return result;
}

// ---------------------------------------------------------------- one configuration

interface Latency {
  count: number;
  ok: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  perSecond: number;
}

function latencyOf(samples: Sample[], okStatus: number, seconds: number): Latency {
  const times = samples.map((sample) => sample.ms);
  return {
    count: samples.length,
    ok: samples.filter((sample) => sample.status === okStatus).length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    max: Math.max(...times, 0),
    perSecond: samples.length / seconds,
  };
}

interface ConfigurationResult {
  build: string;
  instances: number;
  partners: number;
  admins: number;
  thinkMs: number;
  seconds: number;
  setupSeconds: number;
  saves: Latency & { conflicts: number; errors: number; rowsAddedPerSecond: number; rowsChangedPerSecond: number };
  saveWindows: { from: number; count: number; p50: number; p95: number }[];
  reloads: Latency & { errors: number };
  reads: Latency & { errors: number };
  readsByPage: Record<string, Latency>;
  check: CheckResult;
  watch: WatchResult;
  /** Of every build of the configuration: requests sent again after a keep-alive connection closed under them. */
  resentOnClosedConnection: number;
  failures: string[];
}

/** Where --keep-base keeps the base copy's cookies (they sign in as its users, and only there). */
const keptBaseFile = (size: BenchSize) => path.join(os.tmpdir(), `portal-load-${size.toLowerCase()}-sessions.json`);

/** The users of the load, signed in once: their cookies hold sessions of the base copy, so of every copy made from it. */
interface SignedIn {
  partners: { partnerId: number; email: string; jar: CookieJar }[];
  admins: CookieJar[];
}

/**
 * The base copy of the data set for this run: `portal_bench_<size>` copied, every user signed in
 * on it over POST /login (a server started on it for that alone). Each configuration then runs
 * on a copy of the base, so all start from the same data with the same sessions.
 */
async function prepareBase(options: Options, meta: Meta, logFile: string, servers: ChildProcess[]): Promise<{ baseName: string; signedIn: SignedIn }> {
  const template = new URL(benchDatabaseUrl(options.size)).pathname.slice(1);
  const baseName = `portal_load_${options.size.toLowerCase()}_base`;
  const kept = keptBaseFile(options.size);
  if (options.keepBase && fs.existsSync(kept)) {
    const saved = JSON.parse(fs.readFileSync(kept, "utf8")) as { partners: { partnerId: number; email: string; cookie: string }[]; admins: string[] };
    const server = postgres(benchServerUrl(), { max: 1, onnotice: () => {} });
    const [exists] = await server`SELECT 1 AS one FROM pg_database WHERE datname = ${baseName}`;
    await server.end();
    if (exists && saved.partners.length === options.partners && saved.admins.length === options.admins) {
      console.log(`${baseName} and its ${saved.partners.length + saved.admins.length} sessions kept from the last run (--keep-base)`);
      return {
        baseName,
        signedIn: {
          partners: saved.partners.map((partner) => ({ partnerId: partner.partnerId, email: partner.email, jar: CookieJar.from(partner.cookie) })),
          admins: saved.admins.map((cookie) => CookieJar.from(cookie)),
        },
      };
    }
  }
  const baseUrl = await copyDatabase(template, baseName);
  const sql = postgres(baseUrl, { max: 1, onnotice: () => {} });
  try {
    const [quarter] = await sql<{ id: number }[]>`SELECT id FROM quarters WHERE name = ${meta.openQuarter}`;
    // Active partners whose open-quarter Sales Report a partner may save (not approved), with their own login.
    const partners = await sql<{ partner_id: number; email: string }[]>`
      SELECT p.id AS partner_id, u.email
      FROM partners p
      JOIN users u ON u.partner_id = p.id AND u.role = 'PARTNER' AND u.is_active
      LEFT JOIN reports r ON r.partner_id = p.id AND r.quarter_id = ${quarter.id} AND r.type = 'sales'
      WHERE p.is_active AND (r.status IS NULL OR r.status <> 'Approved')
        AND coalesce((SELECT count(*) FROM sales_rows s WHERE s.report_id = r.id), 0) <= ${MAX_REPORT_ROWS}
      ORDER BY p.id LIMIT ${options.partners}`;
    if (partners.length < options.partners) throw new Error(`The data set has only ${partners.length} partners who may save; use a larger size (M or L).`);
    // The build with the fewest migrations signs the users in: the others migrate their copies further.
    const migrations = (appDir: string) =>
      (JSON.parse(fs.readFileSync(path.join(appDir, "drizzle/meta/_journal.json"), "utf8")) as { entries: unknown[] }).entries.length;
    const signInApp = [options.appDir, ...(options.besideDir ? [options.besideDir] : [])].sort((a, b) => migrations(a) - migrations(b))[0];
    servers.push(await startServer(signInApp, baseUrl, FIRST_PORT, logFile));
    const signedIn: SignedIn = {
      partners: partners.map((partner) => ({ partnerId: partner.partner_id, email: partner.email, jar: new CookieJar() })),
      admins: Array.from({ length: options.admins }, () => new CookieJar()),
    };
    const logins = [...signedIn.partners, ...signedIn.admins.map((jar) => ({ email: meta.admin, jar }))];
    const started = performance.now();
    // argon2id's deliberate cost bounds this (about 10 a second on two quiet cores).
    await eachLimited(logins, 4, async (login) => {
      const reply = await request(FIRST_PORT, "/login", {
        method: "POST",
        body: new URLSearchParams({ email: login.email, password: meta.password }).toString(),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
      if (reply.status !== 302) throw new Error(`sign-in of ${login.email}: ${reply.status} ${bodyText(reply).slice(0, 300)}`);
      login.jar.take(reply.headers);
    });
    console.log(`${logins.length} users signed in over POST /login on ${baseName}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    if (options.keepBase) {
      const saved = {
        partners: signedIn.partners.map((partner) => ({ partnerId: partner.partnerId, email: partner.email, cookie: partner.jar.header() })),
        admins: signedIn.admins.map((jar) => jar.header()),
      };
      fs.writeFileSync(kept, JSON.stringify(saved));
    }
    return { baseName, signedIn };
  } finally {
    while (servers.length) await stopServer(servers.pop()!);
    for (const agent of agents.values()) agent.destroy();
    agents.clear();
    await sql.end({ timeout: 5 });
  }
}

/** One build under load in a configuration: its database copy, its servers, its users. */
interface Side {
  label: string;
  appDir: string;
  copyName: string;
  databaseUrl: string;
  sql: postgres.Sql;
  ports: number[];
  servers: ChildProcess[];
  partners: VirtualPartner[];
  admins: { jar: CookieJar; port: number }[];
  quarter: { id: number; year: number; quarter: number };
  months: string[];
  setupSeconds: number;
}

/** A fresh copy of the base, the build's servers on it, and every partner's page opened once. */
async function setUpSide(
  label: string,
  appDir: string,
  firstPort: number,
  instances: number,
  options: Options,
  meta: Meta,
  base: { baseName: string; signedIn: SignedIn },
  logFile: string,
  servers: ChildProcess[],
): Promise<Side> {
  const setupStarted = performance.now();
  const copyName = `portal_load_${options.size.toLowerCase()}${firstPort === FIRST_PORT ? "" : `_${firstPort}`}`;
  const databaseUrl = await copyDatabase(base.baseName, copyName);
  const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  const [quarter] = await sql<{ id: number; year: number; quarter: number }[]>`SELECT id, year, quarter FROM quarters WHERE name = ${meta.openQuarter}`;
  const months = [0, 1, 2].map((offset) => MONTHS[(quarter.quarter - 1) * 3 + offset]);
  const partnerIds = base.signedIn.partners.map((partner) => partner.partnerId);
  const before = await sql<{ partner_id: number; version: number; rows: number }[]>`
    SELECT r.partner_id, r.version, (SELECT count(*) FROM sales_rows s WHERE s.report_id = r.id)::int AS rows
    FROM reports r WHERE r.quarter_id = ${quarter.id} AND r.type = 'sales' AND r.partner_id = ANY(${partnerIds})`;
  const reportBefore = new Map(before.map((row) => [row.partner_id, row]));

  const ports = Array.from({ length: instances }, (_, index) => firstPort + index);
  const own: ChildProcess[] = [];
  for (const port of ports) {
    const server = await startServer(appDir, databaseUrl, port, logFile);
    servers.push(server);
    own.push(server);
  }
  console.log(
    `  ${label}: a fresh copy of ${base.baseName} (${copyName}), server${instances > 1 ? "s" : ""} on port${instances > 1 ? "s" : ""} ${ports.join(", ")}`,
  );
  // A base made by a build with more migrations would measure that build's database, not this one's.
  const journal = JSON.parse(fs.readFileSync(path.join(appDir, "drizzle/meta/_journal.json"), "utf8")) as { entries: unknown[] };
  const [{ applied }] = await sql<{ applied: number }[]>`SELECT count(*)::int AS applied FROM drizzle.__drizzle_migrations`;
  if (applied !== journal.entries.length)
    throw new Error(`${copyName} holds ${applied} migrations, the build in ${appDir} has ${journal.entries.length}: run without --keep-base`);

  // Each partner opens its page once (its rows, lists and version). Users go to the servers in turn, as a load balancer sends them.
  const partners: VirtualPartner[] = [];
  await eachLimited(base.signedIn.partners, 8, async (login, index) => {
    const port = ports[index % instances];
    const jar = CookieJar.from(login.jar.header());
    const reply = await request(port, "/partner/sales-report.data", { headers: { Cookie: jar.header(), "Accept-Encoding": "gzip" } });
    if (reply.status !== 200) throw new Error(`the page of ${login.email}: ${reply.status}`);
    jar.take(reply.headers);
    const page = await pageState(reply);
    const stored = reportBefore.get(login.partnerId);
    if (page.version !== (stored?.version ?? 0))
      throw new Error(`the page of ${login.email} shows version ${page.version}, the database ${stored?.version ?? 0}`);
    partners[index] = {
      partner: { partnerId: login.partnerId, email: login.email, initialVersion: stored?.version ?? 0, initialRows: stored?.rows ?? 0 },
      port,
      jar,
      page,
      ack: newAcknowledged(),
    };
  });
  const admins = base.signedIn.admins.map((jar, index) => ({ jar: CookieJar.from(jar.header()), port: ports[(partners.length + index) % instances] }));
  return {
    label,
    appDir,
    copyName,
    databaseUrl,
    sql,
    ports,
    servers: own,
    partners,
    admins,
    quarter,
    months,
    setupSeconds: (performance.now() - setupStarted) / 1000,
  };
}

/**
 * One configuration (so many instances of each build): the sides set up one after the other,
 * then loaded at the same time (`--beside`: the same load on two builds at once, so both meet the
 * same machine), then each database checked.
 */
async function runConfiguration(
  tag: number,
  instances: number,
  options: Options,
  meta: Meta,
  base: { baseName: string; signedIn: SignedIn },
  logFile: string,
  servers: ChildProcess[],
): Promise<ConfigurationResult[]> {
  console.log(
    `\n== ${instances} instance${instances > 1 ? "s" : ""}: ${options.partners} partners saving, ${options.admins} administrators reading, ${options.durationS} s${options.thinkMs ? `, a pause of ${options.thinkMs / 2000}-${(options.thinkMs * 1.5) / 1000} s between a user's requests` : ""}`,
  );
  const builds = [
    { label: buildLabel(options.appDir), appDir: options.appDir },
    ...(options.besideDir ? [{ label: buildLabel(options.besideDir), appDir: options.besideDir }] : []),
  ];
  const sides: Side[] = [];
  try {
    for (const [index, build] of builds.entries())
      sides.push(await setUpSide(build.label, build.appDir, FIRST_PORT + 10 * index, instances, options, meta, base, logFile, servers));

    const runs = sides.map((side) => ({
      side,
      recorder: { saves: [], reloads: [], reads: new Map(), failures: [] } as Recorder,
      watcher: watch(
        side.databaseUrl,
        side.servers.map((server, index) => ({ port: side.ports[index], pid: server.pid! })),
      ),
    }));
    const started = performance.now();
    const clock = () => performance.now() - started;
    const deadline = started + options.durationS * 1000;
    const resentBefore = resentOnClosedConnection;
    console.log(`  load for ${options.durationS} s …`);
    await Promise.all(
      runs.flatMap(({ side, recorder }) => [
        ...side.partners.map((user) => partnerLoop(user, tag, side.quarter.id, side.months, side.quarter.year, deadline, options, recorder, clock)),
        ...side.admins.map((user) => adminLoop(user, deadline, options, recorder, clock)),
      ]),
    );
    const seconds = (performance.now() - started) / 1000;
    const watched = await Promise.all(runs.map((run) => run.watcher.stop()));

    const results: ConfigurationResult[] = [];
    for (const [index, { side, recorder }] of runs.entries()) {
      const check = await checkDatabase(side.sql, side.quarter.id, side.partners);
      const saves = latencyOf(recorder.saves, 302, seconds);
      const allReads = [...recorder.reads.values()].flat();
      const windows: ConfigurationResult["saveWindows"] = [];
      for (let from = 0; from < options.durationS; from += 10) {
        const inWindow = recorder.saves.filter((sample) => sample.at >= from * 1000 && sample.at < (from + 10) * 1000).map((sample) => sample.ms);
        windows.push({ from, count: inWindow.length, p50: percentile(inWindow, 50), p95: percentile(inWindow, 95) });
      }
      results.push({
        build: side.label,
        instances,
        partners: options.partners,
        admins: options.admins,
        thinkMs: options.thinkMs,
        seconds,
        setupSeconds: side.setupSeconds,
        saves: {
          ...saves,
          conflicts: recorder.saves.filter((sample) => sample.status === 409).length,
          errors: recorder.saves.filter((sample) => sample.status !== 302 && sample.status !== 409).length,
          rowsAddedPerSecond: check.acknowledgedAdded / seconds,
          rowsChangedPerSecond: check.acknowledgedChanged / seconds,
        },
        saveWindows: windows,
        reloads: { ...latencyOf(recorder.reloads, 200, seconds), errors: recorder.reloads.filter((sample) => sample.status !== 200).length },
        reads: { ...latencyOf(allReads, 200, seconds), errors: allReads.filter((sample) => sample.status !== 200).length },
        readsByPage: Object.fromEntries([...recorder.reads].map(([name, samples]) => [name, latencyOf(samples, 200, seconds)])),
        check,
        watch: watched[index],
        resentOnClosedConnection: resentOnClosedConnection - resentBefore,
        failures: recorder.failures.slice(0, 20),
      });
    }
    return results;
  } finally {
    while (servers.length) await stopServer(servers.pop()!);
    for (const agent of agents.values()) agent.destroy();
    agents.clear();
    for (const side of sides) await side.sql.end({ timeout: 5 });
  }
}

/** A build's name in the tables: its folder's name. */
const buildLabel = (appDir: string) => path.basename(appDir);

// ---------------------------------------------------------------- printing

function printConfiguration(result: ConfigurationResult) {
  const line = (label: string, latency: Latency, extra = "") =>
    console.log(
      `  ${label.padEnd(34)} ${String(latency.count).padStart(6)} (${latency.perSecond.toFixed(1)}/s)  p50 ${ms(latency.p50).padStart(8)}  p95 ${ms(latency.p95).padStart(8)}  p99 ${ms(latency.p99).padStart(8)}  max ${ms(latency.max).padStart(8)}${extra}`,
    );
  console.log(`  ${"requests".padEnd(34)}  count (per s)`);
  line("save (POST, 302)", result.saves, `  409: ${result.saves.conflicts}, errors: ${result.saves.errors}`);
  line("page data after the save", result.reloads, `  errors: ${result.reloads.errors}`);
  line("administrators' pages", result.reads, `  errors: ${result.reads.errors}`);
  for (const [name, latency] of Object.entries(result.readsByPage)) line(`  ${name}`, latency);
  if (result.resentOnClosedConnection) console.log(`  sent again on a new connection (the server had closed the idle one): ${result.resentOnClosedConnection}`);
  console.log(`  saves per 10 s: ${result.saveWindows.map((window) => `${window.count} (p95 ${ms(window.p95)})`).join(", ")}`);
  const check = result.check;
  console.log(
    `  acknowledged: ${check.acknowledgedSaves} saves, ${check.acknowledgedAdded} rows added (${result.saves.rowsAddedPerSecond.toFixed(0)}/s), ${check.acknowledgedChanged} changed; ` +
      `lost: ${check.lostAdded} added, ${check.lostChanges} changes (${check.uncertainChanges} after an unanswered save); duplicated: ${check.duplicatedAdded}; ` +
      `reports with a wrong row count: ${check.reportsWithWrongCount}, wrong version: ${check.reportsWithWrongVersion}; dashboard sums off: ${check.dashboardMismatches}`,
  );
  const watched = result.watch;
  console.log(
    `  database sessions (mean of ${watched.samples} samples, ${watched.inTransactionMean.toFixed(1)} inside a transaction, the longest ${ms(watched.longestTransactionMs)}):`,
  );
  for (const state of watched.states) console.log(`    ${state.mean.toFixed(2).padStart(6)}  ${state.what}`);
  if (watched.lockWaits.length) {
    console.log("  waiting for a lock (samples):");
    for (const wait of watched.lockWaits) console.log(`    ${String(wait.samples).padStart(6)}  ${wait.statement}`);
  }
  console.log(
    `  static file from each server (event loop delay): ${watched.probes.map((probe) => `:${probe.port} p50 ${ms(probe.p50)}, p95 ${ms(probe.p95)}, max ${ms(probe.max)}`).join("; ")}`,
  );
  const requests = result.saves.count + result.reloads.count + result.reads.count;
  const serverCpuMs = (watched.cpu.serversPercentOfCore.reduce((a, b) => a + b, 0) / 100) * result.seconds * 1000;
  console.log(
    `  CPU, % of one core: server${watched.cpu.serversPercentOfCore.length > 1 ? "s" : ""} ${watched.cpu.serversPercentOfCore.map((value) => value.toFixed(0)).join(" + ")}, ` +
      `database sessions ${watched.cpu.databasePercentOfCore.toFixed(0)}, generator ${watched.cpu.generatorPercentOfCore.toFixed(0)}; the machine ${watched.cpu.machineBusyPercent.toFixed(0)}% busy (all processes); ` +
      `server CPU per request ${ms(serverCpuMs / Math.max(requests, 1))}`,
  );
  if (result.failures.length) console.log(`  first failures:\n    ${result.failures.slice(0, 5).join("\n    ")}`);
}

function printSummary(results: ConfigurationResult[]) {
  console.log(
    "\n| build | instances | saves/s (rows added/s) | save p50 / p95 / p99 | page after save p95 | admin pages/s | admin p50 / p95 / p99 | errors (409) | rows lost |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const result of results) {
    const errors = result.saves.errors + result.reloads.errors + result.reads.errors;
    console.log(
      `| ${result.build} | ${result.instances} | ${result.saves.perSecond.toFixed(1)} (${result.saves.rowsAddedPerSecond.toFixed(0)}) | ${ms(result.saves.p50)} / ${ms(result.saves.p95)} / ${ms(result.saves.p99)} | ${ms(result.reloads.p95)} | ` +
        `${result.reads.perSecond.toFixed(1)} | ${ms(result.reads.p50)} / ${ms(result.reads.p95)} / ${ms(result.reads.p99)} | ${errors} (${result.saves.conflicts}) | ${result.check.lostAdded + result.check.lostChanges} of ${result.check.acknowledgedAdded + result.check.acknowledgedChanged} |`,
    );
  }
}

// ---------------------------------------------------------------- main

async function main() {
  const options = parseOptions(process.argv.slice(2));
  const template = new URL(benchDatabaseUrl(options.size)).pathname.slice(1);

  // The data set, generated when missing (or left unfinished).
  const server = postgres(benchServerUrl(), { max: 1, onnotice: () => {} });
  const [exists] = await server`SELECT 1 AS one FROM pg_database WHERE datname = ${template}`;
  await server.end();
  let complete = false;
  if (exists) {
    const probe = postgres(benchDatabaseUrl(options.size), { max: 1, onnotice: () => {} });
    complete = (await probe`SELECT to_regclass('bench_meta') IS NOT NULL AS ok`)[0].ok;
    await probe.end();
  }
  if (!complete) {
    console.log(`${template} is missing: generating it (bench/generate.ts ${options.size})`);
    const result = spawnSync(process.execPath, ["--import", "tsx", "bench/generate.ts", options.size], { stdio: "inherit" });
    if (result.status !== 0) throw new Error("bench/generate.ts failed");
  }
  for (const appDir of [options.appDir, ...(options.besideDir ? [options.besideDir] : [])]) {
    if (fs.existsSync(path.join(appDir, "build/index.js")) && fs.existsSync(path.join(appDir, "build/server.js"))) continue;
    console.log(`${appDir}/build is missing: npm run build`);
    const result = spawnSync("npm", ["run", "build"], { cwd: appDir, stdio: "inherit" });
    if (result.status !== 0) throw new Error("npm run build failed");
  }
  const probe = postgres(benchDatabaseUrl(options.size), { max: 1, onnotice: () => {} });
  const [{ value: meta }] = (await probe`SELECT value FROM bench_meta WHERE key = 'meta'`) as unknown as { value: Meta }[];
  await probe.end();

  const logFile = path.join(os.tmpdir(), `portal-load-${options.size.toLowerCase()}.log`);
  fs.writeFileSync(logFile, "");
  const servers: ChildProcess[] = [];
  const onSignal = () => {
    void Promise.all(servers.map(stopServer)).finally(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  const base = await prepareBase(options, meta, logFile, servers);
  const results: ConfigurationResult[] = [];
  for (const [tag, instances] of options.instances.entries()) {
    for (const result of await runConfiguration(tag + 1, instances, options, meta, base, logFile, servers)) {
      console.log(`  -- ${result.build}, ${instances} instance${instances > 1 ? "s" : ""}`);
      printConfiguration(result);
      results.push(result);
    }
  }
  printSummary(results);
  if (!options.keepBase) {
    const server_ = postgres(benchServerUrl(), { max: 1, onnotice: () => {} });
    await server_.unsafe(`DROP DATABASE IF EXISTS ${base.baseName} WITH (FORCE)`);
    await server_.end();
  }
  const output = path.join(os.tmpdir(), `portal-load-${options.size.toLowerCase()}.json`);
  fs.writeFileSync(
    output,
    `${JSON.stringify({ size: options.size, ranAt: new Date().toISOString(), machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, node: process.version, loadAverage: os.loadavg() }, options, results }, null, 2)}\n`,
  );
  console.log(`Written: ${output}`);
  const failed = results.some(
    (result) =>
      result.saves.errors + result.reloads.errors + result.reads.errors > 0 ||
      result.check.lostAdded + result.check.lostChanges + result.check.duplicatedAdded + result.check.dashboardMismatches > 0,
  );
  if (failed) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});

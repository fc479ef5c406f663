/**
 * What the access matrix (tests/integration/access-matrix.test.ts) needs around its table: the
 * app's routes as Remix itself reads them from app/routes, a route's params from a concrete
 * path, a loader or action run in-process with its answer read whole, and a fingerprint of the
 * database to tell that a refused request changed nothing.
 */
import path from "node:path";
import { sql } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import type { AppLoadContext } from "@remix-run/node";
import { flatRoutes } from "@remix-run/dev/dist/config/flat-routes.js";
import remixConfig from "../../remix.config.js";
import { db } from "~/db/client.server";
import * as schema from "~/db/schema";
import { rowsOfResult } from "./database";

// ---------------------------------------------------------------- the routes

export type RouteHandler = (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => unknown;
export interface RouteModule {
  loader?: RouteHandler;
  action?: RouteHandler;
}

export interface AppRoute {
  /** Remix's route id: `root`, or `routes/` and the file name without its extension. */
  id: string;
  /** The file under app/. */
  file: string;
  /** The URL pattern, parents' paths included: `/admin/sales-report/:id`, `/api/*`. */
  pattern: string;
  /** A layout: its loader runs for every path below its own. */
  isLayout: boolean;
  module: RouteModule;
}

const APP_DIRECTORY = path.resolve(import.meta.dirname, "../../app");

/** Every route module, as the bundler would load it. */
const MODULES = import.meta.glob(["/app/root.tsx", "/app/routes/**/*.{ts,tsx}"], { eager: true }) as Record<string, RouteModule>;

/**
 * The routes of the app as the Remix compiler finds them (its own flat-routes reader, with the
 * ignored files of remix.config.js), the root first.
 */
export function appRoutes(): AppRoute[] {
  const manifest = flatRoutes(APP_DIRECTORY, (remixConfig as { ignoredRouteFiles?: string[] }).ignoredRouteFiles ?? []);
  const routes = Object.values(manifest);
  const fullPath = (id: string): string => {
    const route = manifest[id];
    if (!route) return "";
    const parent = route.parentId && route.parentId !== "root" ? fullPath(route.parentId) : "";
    return [parent, route.path].filter(Boolean).join("/");
  };
  const moduleOf = (file: string) => {
    const module = MODULES[`/app/${file}`];
    if (!module) throw new Error(`The route file app/${file} was not found by import.meta.glob`);
    return module;
  };
  const parents = new Set(routes.map((route) => route.parentId));
  return [
    { id: "root", file: "root.tsx", pattern: "/", isLayout: true, module: moduleOf("root.tsx") },
    ...routes
      .map((route) => ({
        id: route.id,
        file: route.file,
        pattern: `/${fullPath(route.id)}`,
        isLayout: parents.has(route.id),
        module: moduleOf(route.file),
      }))
      .sort((a, b) => a.id.localeCompare(b.id)),
  ];
}

/**
 * The params Remix would hand the route for `url` (path and query), or null when the path is
 * not one of the route's (a layout's pattern matches the paths below it).
 */
export function paramsFor(route: Pick<AppRoute, "pattern" | "isLayout">, url: string): Record<string, string> | null {
  const pathname = new URL(url, "http://localhost").pathname;
  const names: string[] = [];
  const source = route.pattern
    .split("/")
    .filter(Boolean)
    .map((segment) => {
      if (segment === "*") {
        names.push("*");
        return "/(.*)";
      }
      if (segment.startsWith(":")) {
        names.push(segment.slice(1));
        return "/([^/]+)";
      }
      return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
    })
    .join("");
  const match = new RegExp(`^${source}${route.isLayout ? "(?:/.*)?" : "/?"}$`).exec(pathname);
  if (!match) return null;
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1])]));
}

// ---------------------------------------------------------------- running a loader or an action

export interface PageAnswer {
  status: number;
  location: string | null;
  headers: Headers;
  /** JSON or the route's data; undefined for a file or text. */
  data: any;
  /** The body of a file or text answer. */
  bytes: number;
  /** What it answered, on one line, for failure messages. */
  summary: string;
}

type DataWithInit = { type: "DataWithResponseInit"; data: unknown; init: ResponseInit | null };
const isDataWithInit = (value: unknown): value is DataWithInit =>
  typeof value === "object" && value !== null && (value as { type?: string }).type === "DataWithResponseInit";

const preview = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

/**
 * Runs a loader or an action as Remix would, thrown or returned, and reads its answer whole (a
 * streamed download is read to its end, so no cursor stays open). An error that is not a
 * Response is thrown on: Remix would answer it with a 500.
 */
export async function runHandler(handler: RouteHandler, request: Request, params: Record<string, string>, context: AppLoadContext): Promise<PageAnswer> {
  let outcome: unknown;
  try {
    outcome = await handler({ request, params, context });
  } catch (thrown) {
    if (!(thrown instanceof Response) && !isDataWithInit(thrown)) throw thrown;
    outcome = thrown;
  }
  if (outcome instanceof Response) {
    const location = outcome.headers.get("Location");
    const type = outcome.headers.get("Content-Type") ?? "";
    if (type.includes("json")) {
      const data = await outcome.json();
      return { status: outcome.status, location, headers: outcome.headers, data, bytes: 0, summary: `${outcome.status} ${preview(data)}` };
    }
    const body = new Uint8Array(await outcome.arrayBuffer());
    const text = type.startsWith("text/") && body.length < 400 ? ` ${new TextDecoder().decode(body)}` : ` (${type || "no type"}, ${body.length} bytes)`;
    return {
      status: outcome.status,
      location,
      headers: outcome.headers,
      data: undefined,
      bytes: body.length,
      summary: `${outcome.status}${location ? ` → ${location}` : ""}${text}`,
    };
  }
  if (isDataWithInit(outcome)) {
    const headers = new Headers(outcome.init?.headers);
    const status = outcome.init?.status ?? 200;
    return { status, location: headers.get("Location"), headers, data: outcome.data, bytes: 0, summary: `${status} ${preview(outcome.data)}` };
  }
  return { status: 200, location: null, headers: new Headers(), data: outcome, bytes: 0, summary: `200 ${preview(outcome)}` };
}

// ---------------------------------------------------------------- the database: what a request wrote

/**
 * Rows a request may write without changing anything the portal keeps: its own session (each case
 * signs in afresh; a lock or a sign-out writes there by design), the sign-in throttle's counters,
 * the time a bearer token was last used (noted on every call, refused or not), and a submission's
 * PDF kept by its first download (drawn from the immutable snapshot). Every other row written,
 * audit_log and outbox included, is a change.
 */
const UNWATCHED_TABLES = new Set(["sessions", "rate_limits", "submission_pdfs"]);
const WATCHED_UPDATES: Record<string, string[]> = { api_tokens: ["user_id", "token_hash", "expires_at", "revoked_at"] };

const TABLES = Object.values(schema as Record<string, unknown>)
  .filter((value): value is PgTable => value instanceof PgTable)
  .map((table) => getTableConfig(table).name)
  .filter((name) => !UNWATCHED_TABLES.has(name))
  .sort();

// A row trigger on every table notes the tables a request wrote rows to (a rolled-back write
// leaves no note; a statement that matched no row is no write): hashing the database before and
// after each case would cost far more than the requests themselves.
const WRITES_TABLE = "access_matrix_writes";
const WRITES_TRIGGER = "access_matrix_note_write";

export async function startNotingWrites() {
  const statements = [
    `create unlogged table if not exists ${WRITES_TABLE} (name text primary key)`,
    `create or replace function ${WRITES_TRIGGER}() returns trigger language plpgsql as $$
     begin
       insert into ${WRITES_TABLE} values (TG_TABLE_NAME) on conflict do nothing;
       return null;
     end $$`,
    ...TABLES.map((name) => {
      const update = WATCHED_UPDATES[name] ? `update of ${WATCHED_UPDATES[name].join(", ")}` : "update";
      return `create or replace trigger ${WRITES_TRIGGER} after insert or ${update} or delete on "${name}" for each row execute function ${WRITES_TRIGGER}()`;
    }),
  ];
  for (const statement of statements) await db.execute(sql.raw(statement));
}

export async function stopNotingWrites() {
  const statements = [
    ...TABLES.map((name) => `drop trigger if exists ${WRITES_TRIGGER} on "${name}"`),
    `drop function if exists ${WRITES_TRIGGER}()`,
    `drop table if exists ${WRITES_TABLE}`,
  ];
  for (const statement of statements) await db.execute(sql.raw(statement));
}

/** The tables written to since the last call, by name. */
export async function takeWrittenTables(): Promise<string[]> {
  const rows = rowsOfResult(await db.execute(sql.raw(`delete from ${WRITES_TABLE} returning name`)));
  return rows.map((row) => String(row.name)).sort();
}

/**
 * Helpers of the hostile-input suite (tests/integration/hostile-input.test.ts): request bodies
 * built byte by byte (so that invalid percent-encodings, lying content types and bodies without
 * one can be sent), the generated mutations of a form, a runner that reports what an action
 * answered without ever throwing, and a fingerprint of the application tables with a fast
 * restore for the cases that were (legitimately) accepted.
 */
import { sql } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import type * as z from "zod";
import type { AppLoadContext } from "@remix-run/node";
import { db } from "~/db/client.server";
import * as schema from "~/db/schema";
import { readToast, type Toast } from "~/utils/toast.server";
import { copyTables, resetDatabase, restoreTables } from "./database";

// ---------------------------------------------------------------- bodies

/** A file part of a multipart body. */
export interface FilePart {
  filename: string;
  type: string;
  bytes: Uint8Array;
}

/**
 * One field of a posted form. `raw` values are sent as they are: already percent-encoded in a
 * urlencoded body (`a%ED%A0%80`), raw bytes in a multipart body.
 */
export interface Entry {
  name: string;
  value: string | FilePart;
  raw?: { urlencoded: string; bytes: Uint8Array };
}

export type Form = Entry[];

export const entry = (name: string, value: string | FilePart): Entry => ({ name, value });

/** The entries of a plain record, in order. */
export const formOf = (record: Record<string, string | FilePart>): Form => Object.entries(record).map(([name, value]) => entry(name, value));

const encoder = new TextEncoder();
const formEncode = (text: string) => new URLSearchParams([["", text]]).toString().slice(1);

/** `application/x-www-form-urlencoded`, as a browser sends it (raw entries keep their own encoding). */
function urlencoded(form: Form): string {
  return form
    .map((item) => {
      const value = item.raw ? item.raw.urlencoded : typeof item.value === "string" ? formEncode(item.value) : formEncode(item.value.filename);
      return `${formEncode(item.name)}=${value}`;
    })
    .join("&");
}

const MULTIPART_BOUNDARY = "----hostile-input-7MA4YWxkTrZu0gW";

/** `multipart/form-data` with MULTIPART_BOUNDARY, built by hand so that parts may hold any bytes. */
function multipart(form: Form): Uint8Array {
  const chunks: Uint8Array[] = [];
  for (const item of form) {
    const name = item.name.replace(/"/g, "%22").replace(/\r?\n/g, " ");
    let head = `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"`;
    let bytes: Uint8Array;
    if (item.raw) bytes = item.raw.bytes;
    else if (typeof item.value === "string") bytes = encoder.encode(item.value);
    else {
      head += `; filename="${item.value.filename}"\r\nContent-Type: ${item.value.type}`;
      bytes = item.value.bytes;
    }
    chunks.push(encoder.encode(`${head}\r\n\r\n`), bytes, encoder.encode("\r\n"));
  }
  chunks.push(encoder.encode(`--${MULTIPART_BOUNDARY}--\r\n`));
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}

/** A request whose body and Content-Type are exactly the given ones (null: no Content-Type header at all). */
function rawRequest(path: string, { body, contentType, cookie }: { body: Uint8Array | string; contentType: string | null; cookie?: string }) {
  const headers = new Headers();
  if (cookie) headers.set("Cookie", cookie);
  if (contentType !== null) headers.set("Content-Type", contentType);
  // A Uint8Array body gets no Content-Type of its own (a string body would be labelled text/plain).
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  return new Request(`http://localhost${path}`, { method: "POST", headers, body: bytes as unknown as BodyInit });
}

export function formRequest(path: string, form: Form, { multipartBody = false, cookie }: { multipartBody?: boolean; cookie?: string } = {}) {
  return multipartBody
    ? rawRequest(path, { body: multipart(form), contentType: `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`, cookie })
    : rawRequest(path, { body: urlencoded(form), contentType: "application/x-www-form-urlencoded", cookie });
}

// ---------------------------------------------------------------- fields and mutations

/**
 * What a field accepts, which decides whether a mutation of it must be refused:
 * - text: free text (a name, an address, a comment): any printable text may be accepted;
 * - lenient: a value the route may ignore or default (a tab, a page number, a return path);
 * - amount: a non-negative decimal with up to 14 integer digits (2147483648 is a valid quantity);
 * - phone: ten digits (2147483648 is a valid number);
 * - idList: ids of rows to delete: a value that is no id may be ignored, a well-formed id that is
 *   not a row of the report must be refused;
 * - json: the grid's JSON body (`{}` is an empty save);
 * - everything else is structured (an id, an e-mail, an enum, a date, a password...) and every
 *   changed value must be refused.
 * A trailing `?` marks a field that may also be left out or empty (lenient, dayList, checkbox,
 * json and idList always may).
 */
export type BaseFieldKind =
  | "text"
  | "lenient"
  | "email"
  | "password"
  | "id"
  | "idList"
  | "version"
  | "enum"
  | "code"
  | "number"
  | "amount"
  | "phone"
  | "date"
  | "dayList"
  | "checkbox"
  | "json"
  | "file";
export type FieldKind = BaseFieldKind | `${BaseFieldKind}?`;

export type Expectation = "refuse" | "either";

export interface HostileCase {
  /** What the failure list shows: `field: mutation`. */
  label: string;
  expect: Expectation;
  /** The posted form; null when the case builds its own request. */
  form?: Form;
  /** Builds the whole request (non-form bodies). */
  request?: (path: string, cookie?: string) => Request;
  /** Replaces the route params. */
  params?: Record<string, string>;
  /** Posts without the session cookie. */
  anonymous?: boolean;
  /** A row of another partner that the case names: it must come out unchanged, whatever the answer. */
  protectedRow?: { table: string; id: number };
}

export const MEGABYTE_STRING = "a".repeat(1024 * 1024);
const ZALGO = `Z${"\u0300\u0301\u0302\u0303\u0308\u0336\u0337".repeat(15)}`;

interface ValueMutation {
  name: string;
  /** The new value from the base value. */
  value: (base: string) => string;
  /** Percent-encoded tail appended to the encoded base value (and the same bytes in multipart). */
  rawTail?: { urlencoded: string; bytes: number[] };
  group: "number" | "text" | "huge" | "nul" | "encoding" | "literal";
}

const NUMBER_WORDS = ["NaN", "Infinity", "1e309", "-0", "0x10", "2147483648", "99999999999999999999", "-1"];

const VALUE_MUTATIONS: ValueMutation[] = [
  { name: "[] as text", value: () => "[]", group: "literal" },
  { name: "{} as text", value: () => "{}", group: "literal" },
  { name: "true as text", value: () => "true", group: "literal" },
  ...NUMBER_WORDS.map((word): ValueMutation => ({ name: word, value: () => word, group: "number" })),
  { name: "a 1 MB string", value: () => MEGABYTE_STRING, group: "huge" },
  { name: "a NUL byte (a\\u0000b)", value: () => "a\u0000b", group: "nul" },
  {
    name: "value + %ED%A0%80 (encoded lone surrogate)",
    value: (base) => base,
    rawTail: { urlencoded: "%ED%A0%80", bytes: [0xed, 0xa0, 0x80] },
    group: "encoding",
  },
  { name: "value + %C0%AF (overlong UTF-8)", value: (base) => base, rawTail: { urlencoded: "%C0%AF", bytes: [0xc0, 0xaf] }, group: "encoding" },
  { name: "value + RTL override", value: (base) => `${base}\u202Efdp.exe`, group: "text" },
  { name: "value + emoji", value: (base) => `${base} 💊🧬👩🏽‍⚕️`, group: "text" },
  { name: "value + combining characters", value: (base) => `${base} ${ZALGO}`, group: "text" },
  { name: "value + <script>", value: (base) => `${base}<script>alert(1)</script>`, group: "text" },
];

const ALWAYS_OPTIONAL: BaseFieldKind[] = ["lenient", "dayList", "checkbox", "json", "idList"];

function valueExpectation(kind: BaseFieldKind, mutation: ValueMutation): Expectation {
  if (kind === "lenient") return "either";
  if (mutation.group === "huge" || mutation.group === "nul") return "refuse";
  if (kind === "idList") return mutation.name === "2147483648" || mutation.name === "99999999999999999999" ? "refuse" : "either";
  if ((kind === "amount" || kind === "phone") && mutation.name === "2147483648") return "either";
  if (kind === "json") return mutation.name === "{} as text" ? "either" : "refuse";
  if (kind === "text") return "either";
  return "refuse";
}

function replaceField(form: Form, name: string, replacement: Entry[]): Form {
  const index = form.findIndex((item) => item.name === name);
  if (index < 0) return [...form, ...replacement];
  return [...form.slice(0, index), ...replacement, ...form.slice(index + 1).filter((item) => item.name !== name)];
}

/** The mutations of one field of `base`: missing, empty, wrong types, numbers, huge, NUL, bad encodings, tricky text. */
export function fieldMutations(base: Form, field: string, spec: FieldKind): HostileCase[] {
  const kind = spec.replace(/\?$/, "") as BaseFieldKind;
  const original = base.find((item) => item.name === field)?.value;
  const baseValue = typeof original === "string" ? original : "";
  const optional = spec.endsWith("?") || ALWAYS_OPTIONAL.includes(kind);
  const structural: Expectation = optional ? "either" : "refuse";
  const cases: HostileCase[] = [
    { label: `${field}: missing`, expect: optional ? "either" : "refuse", form: base.filter((item) => item.name !== field) },
    { label: `${field}: empty`, expect: optional ? "either" : "refuse", form: replaceField(base, field, [entry(field, "")]) },
    { label: `${field}: nested ${field}[a][b]`, expect: structural, form: replaceField(base, field, [entry(`${field}[a][b]`, baseValue)]) },
    { label: `${field}: array ${field}[]`, expect: structural, form: replaceField(base, field, [entry(`${field}[]`, baseValue)]) },
    { label: `${field}: posted twice (second "x")`, expect: "either", form: replaceField(base, field, [entry(field, baseValue), entry(field, "x")]) },
  ];
  if (kind === "file") return cases;
  for (const mutation of VALUE_MUTATIONS) {
    const value = mutation.value(baseValue);
    const item: Entry = mutation.rawTail
      ? {
          name: field,
          value,
          raw: {
            urlencoded: formEncode(value) + mutation.rawTail.urlencoded,
            bytes: new Uint8Array([...encoder.encode(value), ...mutation.rawTail.bytes]),
          },
        }
      : entry(field, value);
    cases.push({ label: `${field}: ${mutation.name}`, expect: valueExpectation(kind, mutation), form: replaceField(base, field, [item]) });
  }
  return cases;
}

/** A name nested `depth` levels deep: a[b][b][b]... */
export const deepName = (depth: number) => `a${"[b]".repeat(depth)}`;

/** 20,000 values of one field. */
export function repeated(base: Form, field: string, count = 20_000): Form {
  const value = base.find((item) => item.name === field)?.value ?? "1";
  const rest = base.filter((item) => item.name !== field);
  return [...rest, ...Array.from({ length: count }, () => entry(field, value))];
}

export function withEntries(base: Form, ...extra: [string, string][]): Form {
  return [...base, ...extra.map(([name, value]) => entry(name, value))];
}

export function without(base: Form, field: string): Form {
  return base.filter((item) => item.name !== field);
}

export function setField(base: Form, field: string, value: string | FilePart): Form {
  return replaceField(base, field, [entry(field, value)]);
}

const JSON_CONTENT = "application/json";

/** The same base form as JSON, text/plain, without Content-Type, as multipart without a boundary, empty, or lying. */
export function bodyCases(base: Form, { multipartRoute = false } = {}): HostileCase[] {
  const record: Record<string, string> = {};
  for (const item of base) if (typeof item.value === "string") record[item.name] = item.value;
  const encoded = urlencoded(base);
  const cases: HostileCase[] = [
    {
      label: "body: the form as JSON (application/json)",
      expect: "refuse",
      request: (path, cookie) => rawRequest(path, { body: JSON.stringify(record), contentType: JSON_CONTENT, cookie }),
    },
    {
      label: "body: JSON array (application/json)",
      expect: "refuse",
      request: (path, cookie) => rawRequest(path, { body: "[1,2,3]", contentType: JSON_CONTENT, cookie }),
    },
    {
      label: "body: the form labelled text/plain",
      expect: "refuse",
      request: (path, cookie) => rawRequest(path, { body: encoded, contentType: "text/plain", cookie }),
    },
    {
      label: "body: the form without Content-Type",
      expect: "refuse",
      request: (path, cookie) => rawRequest(path, { body: encoded, contentType: null, cookie }),
    },
    {
      label: "body: multipart/form-data without boundary",
      expect: "refuse",
      request: (path, cookie) => rawRequest(path, { body: encoded, contentType: "multipart/form-data", cookie }),
    },
    {
      label: "body: urlencoded form labelled multipart with a boundary",
      expect: "refuse",
      request: (path, cookie) => rawRequest(path, { body: encoded, contentType: `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`, cookie }),
    },
    {
      label: "body: empty (urlencoded)",
      expect: "refuse",
      request: (path, cookie) => rawRequest(path, { body: "", contentType: "application/x-www-form-urlencoded", cookie }),
    },
    { label: "body: empty (no Content-Type)", expect: "refuse", request: (path, cookie) => rawRequest(path, { body: "", contentType: null, cookie }) },
    {
      label: "body: Content-Type with a bogus charset",
      expect: "either",
      request: (path, cookie) => rawRequest(path, { body: encoded, contentType: "application/x-www-form-urlencoded; charset=x-hostile", cookie }),
    },
  ];
  if (!multipartRoute) {
    cases.push({
      label: "body: the form as multipart (a form body in the other encoding)",
      expect: "either",
      request: (path, cookie) => rawRequest(path, { body: multipart(base), contentType: `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`, cookie }),
    });
  }
  return cases;
}

/** 20 MB of `a=` (one field `a` whose value is `a=a=a=…`): slow, so only a few routes get it. */
export function twentyMegabyteCase(): HostileCase {
  const body = "a=".repeat(10 * 1024 * 1024);
  return {
    label: "body: 20 MB of a=a=a=…",
    expect: "refuse",
    request: (path, cookie) => rawRequest(path, { body, contentType: "application/x-www-form-urlencoded", cookie }),
  };
}

// ---------------------------------------------------------------- running an action

type DataWithInit = { type: "DataWithResponseInit"; data: unknown; init: ResponseInit | null };
const isDataWithInit = (value: unknown): value is DataWithInit =>
  typeof value === "object" && value !== null && (value as { type?: string }).type === "DataWithResponseInit";

export const MAX_REPLY_BYTES = 64 * 1024;

/**
 * The length of JSON.stringify(value), counted without building it and stopping past `limit`:
 * a reply holding a sparse array of 100,000,000 holes is measured at once.
 */
function jsonSize(value: unknown, limit = MAX_REPLY_BYTES): number {
  let size = 0;
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length) {
    if (size > limit) return size;
    const item = stack.pop();
    if (item === null || item === undefined) size += 4;
    else if (typeof item === "string") size += item.length + 2;
    else if (typeof item === "number" || typeof item === "boolean" || typeof item === "bigint") size += String(item).length;
    else if (typeof item === "function" || typeof item === "symbol") size += 0;
    else if (item instanceof Date) size += 26;
    else if (typeof item === "object") {
      if (seen.has(item)) continue;
      seen.add(item);
      if (Array.isArray(item)) {
        // Every element, hole or not, takes at least "null," or one character and a comma.
        size += 2 + item.length * 2;
        if (size > limit) return size;
        for (let index = item.length - 1; index >= 0; index--) stack.push(item[index]);
      } else {
        size += 2;
        for (const [key, child] of Object.entries(item)) {
          size += key.length + 4;
          stack.push(child);
        }
      }
    }
  }
  return size;
}

export interface Outcome {
  status: number;
  location: string | null;
  toast: Toast | null;
  bodySize: number;
  /** A thrown error that is not a Response (Remix would answer 500). */
  thrown?: string;
  /** A short description for failure messages. */
  summary: string;
}

type Action = (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => unknown;

async function toastOf(headers: Headers): Promise<Toast | null> {
  const cookie = headers
    .getSetCookie()
    .map((setCookie) => setCookie.split(";")[0])
    .filter((pair) => pair.startsWith("__toast="))
    .join("; ");
  if (!cookie) return null;
  return (await readToast(new Request("http://localhost/", { headers: { Cookie: cookie } }))).toast;
}

const oneLine = (text: string, max = 200) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
};

const preview = (value: unknown) => {
  if (jsonSize(value, 4096) > 4096) return "(large)";
  try {
    return oneLine(JSON.stringify(value) ?? String(value), 160);
  } catch (error) {
    return `(unserialisable: ${String(error)})`;
  }
};

/** An error on one line: a failed query by its SQL's start and the database's own message. */
function describeError(thrown: unknown): string {
  if (!(thrown instanceof Error)) return oneLine(String(thrown));
  const cause = thrown.cause instanceof Error ? ` (cause: ${oneLine(thrown.cause.message, 160)})` : "";
  return `${thrown.name}: ${oneLine(thrown.message.split("\nparams:")[0], cause ? 90 : 200)}${cause}`;
}

/** Runs an action and describes its answer, whatever it did: it never throws. */
export async function runAction(action: Action, request: Request, params: Record<string, string>, context: AppLoadContext): Promise<Outcome> {
  let outcome: unknown;
  try {
    outcome = await action({ request, params, context });
  } catch (thrown) {
    if (!(thrown instanceof Response) && !isDataWithInit(thrown)) {
      const error = describeError(thrown);
      return { status: 500, location: null, toast: null, bodySize: 0, thrown: error, summary: `threw ${error}` };
    }
    outcome = thrown;
  }
  if (outcome instanceof Response) {
    const text = await outcome.text();
    const location = outcome.headers.get("Location");
    const toast = await toastOf(outcome.headers);
    const toastText = toast ? ` toast ${toast.type} "${toast.message}"` : "";
    const summary = `${outcome.status}${location ? ` → ${location}` : ""}${toastText}${text ? ` body ${oneLine(text, 160)}` : ""}`;
    return { status: outcome.status, location, toast, bodySize: encoder.encode(text).length, summary };
  }
  if (isDataWithInit(outcome)) {
    const status = outcome.init?.status ?? 200;
    const headers = new Headers(outcome.init?.headers);
    const location = headers.get("Location");
    const toast = await toastOf(headers);
    const bodySize = jsonSize(outcome.data);
    return { status, location, toast, bodySize, summary: `${status} ${preview(outcome.data)}` };
  }
  const bodySize = jsonSize(outcome);
  return { status: 200, location: null, toast: null, bodySize, summary: `200 ${preview(outcome)}` };
}

// ---------------------------------------------------------------- database fingerprint and restore

/**
 * Tables a refused request may legitimately touch: its own session (a fresh one per case, an
 * ended one after a lock or a password change) and the sign-in throttle counters. Everything
 * else, audit_log and outbox included, must stay the same when a request is refused.
 */
const TECHNICAL_TABLES = new Set(["sessions", "rate_limits"]);

export const APPLICATION_TABLES = Object.values(schema as Record<string, unknown>)
  .filter((value): value is PgTable => value instanceof PgTable)
  .map((table) => getTableConfig(table).name)
  .filter((name) => !TECHNICAL_TABLES.has(name))
  .sort();

const fingerprintQuery = (tables: readonly string[]) =>
  tables
    .map((name) => `select '${name}' as t, count(*)::int as n, coalesce(md5(string_agg(md5(x::text), '' order by md5(x::text))), '') as h from "${name}" x`)
    .join(" union all ");

export type Fingerprint = Map<string, string>;

/** Row count and md5 of the rows of the given application tables (all of them by default). */
export async function fingerprint(tables: readonly string[] = APPLICATION_TABLES): Promise<Fingerprint> {
  const result = (await db.execute(sql.raw(fingerprintQuery(tables)))) as unknown as { rows?: { t: string; n: number; h: string }[] } & {
    t: string;
    n: number;
    h: string;
  }[];
  const rows = result.rows ?? result;
  return new Map(rows.map((row) => [row.t, `${row.n}:${row.h}`]));
}

export function changedTables(before: Fingerprint, after: Fingerprint): string[] {
  return APPLICATION_TABLES.filter((name) => after.has(name) && before.get(name) !== after.get(name));
}

// Hashing every table after each of thousands of cases is most of the suite's time: a statement
// trigger on every application table notes which tables a case wrote to (a rolled-back write
// leaves no note), and only those are hashed again.
const WRITES_TABLE = "hostile_input_writes";
const WRITES_TRIGGER = "hostile_input_note_write";

export async function startNotingWrites() {
  const statements = [
    `create unlogged table if not exists ${WRITES_TABLE} (name text primary key)`,
    `create or replace function ${WRITES_TRIGGER}() returns trigger language plpgsql as $$
     begin
       insert into ${WRITES_TABLE} values (TG_TABLE_NAME) on conflict do nothing;
       return null;
     end $$`,
    ...APPLICATION_TABLES.map(
      (name) =>
        `create or replace trigger ${WRITES_TRIGGER} after insert or update or delete or truncate on "${name}" for each statement execute function ${WRITES_TRIGGER}()`,
    ),
  ];
  for (const statement of statements) await db.execute(sql.raw(statement));
}

export async function stopNotingWrites() {
  const statements = [
    ...APPLICATION_TABLES.map((name) => `drop trigger if exists ${WRITES_TRIGGER} on "${name}"`),
    `drop function if exists ${WRITES_TRIGGER}()`,
    `drop table if exists ${WRITES_TABLE}`,
  ];
  for (const statement of statements) await db.execute(sql.raw(statement));
}

/** The tables written to since the last call. */
export async function takeWrittenTables(): Promise<string[]> {
  const result = (await db.execute(sql.raw(`delete from ${WRITES_TABLE} returning name`))) as unknown as { rows?: { name: string }[] } & { name: string }[];
  return (result.rows ?? result).map((row) => row.name).filter((name) => APPLICATION_TABLES.includes(name));
}

const SNAPSHOT_SCHEMA = "hostile_input_snapshot";
let fastRestore = true;

/** Copies every table, so that an accepted case can be undone in milliseconds. */
export const takeSnapshot = () => copyTables(SNAPSHOT_SCHEMA);

/**
 * Puts the changed tables back as they were at the snapshot (foreign keys are not checked while
 * doing so, which needs a superuser: otherwise the whole demo database is reset, slowly).
 */
export async function restoreChangedTables(tables: string[]) {
  if (!tables.length) return;
  if (fastRestore) {
    try {
      return await restoreTables(SNAPSHOT_SCHEMA, tables);
    } catch {
      fastRestore = false;
    }
  }
  await resetDatabase();
  await takeSnapshot();
}

/** Whether the last restore had to reset the database (ids and sessions changed: the caller rebuilds its context). */
export const restoreResetsDatabase = () => !fastRestore;

export async function dropSnapshot() {
  await db.execute(sql.raw(`drop schema if exists ${SNAPSHOT_SCHEMA} cascade`));
}

/** The md5 of one row ("" when there is none). */
export async function rowHash({ table, id }: { table: string; id: number }): Promise<string> {
  const result = (await db.execute(sql.raw(`select md5(x::text) as h from "${table}" x where id = ${Number(id)}`))) as unknown as { rows?: { h: string }[] } & {
    h: string;
  }[];
  const rows = result.rows ?? result;
  return rows[0]?.h ?? "";
}

// ---------------------------------------------------------------- the JSON API

/** Route params (a record id, an enum) as a hostile client writes them. */
export const HOSTILE_PARAMS: [label: string, value: string][] = [
  ["99999999999", "99999999999"],
  ["2147483648", "2147483648"],
  ["-1", "-1"],
  ["1e309", "1e309"],
  ["NaN", "NaN"],
  ["abc", "abc"],
  ["%00", "\u0000"],
];

/**
 * A hostile value of an API field: `value` builds it from the field's base value, or `raw` builds
 * the bytes written in its place (URL-encoded for a query parameter, JSON text for a body field:
 * what JSON.stringify cannot write). `forbidden`: it holds characters that no text may hold,
 * refused with the field named whatever the field; otherwise the field's own schema says whether
 * it must be refused. `numeric`: a number out of range or written oddly, for a field that holds a
 * number (a text field gets a few numbers only: to its code they are all the same wrong type).
 */
type ApiMutation<Raw = string | Uint8Array> = { name: string; forbidden?: boolean; numeric?: boolean } & (
  { value: (base: string) => unknown; raw?: undefined } | { raw: (base: string) => Raw; value?: undefined }
);

/** Leaves the field out. */
export const MISSING = Symbol("missing");

const text = (name: string, value: (base: string) => string, flags: { forbidden?: boolean; numeric?: boolean } = {}): ApiMutation<never> => ({
  name,
  value,
  ...flags,
});

/** Texts with characters no text may hold: control characters other than tab, line feed and carriage return. */
const FORBIDDEN_TEXTS = [
  text("a NUL byte (a\\u0000b)", () => "a\u0000b", { forbidden: true }),
  text("value + NUL", (base) => `${base}\u0000`, { forbidden: true }),
  text("value + \\u0001", (base) => `${base}\u0001`, { forbidden: true }),
  text("value + \\u000b (vertical tab)", (base) => `${base}\u000b`, { forbidden: true }),
  text("value + \\u001b (escape)", (base) => `${base}\u001b`, { forbidden: true }),
  text("value + \\u007f (delete)", (base) => `${base}\u007f`, { forbidden: true }),
];

/** Texts a field may accept, and must then store as they are: markup and injections, scripts and marks, white space and invisible characters; and the too long. */
const TRICKY_TEXTS = [
  text("empty", () => ""),
  text("value + RTL override, emoji, combining characters", (base) => `${base}\u202Efdp.exe 💊🧬👩🏽‍⚕️ ${ZALGO}`),
  text(
    "value + <script>, an attribute breakout, LIKE wildcards, SQL",
    (base) => `${base}<script>alert(1)</script>"><img src=x onerror=alert(1)> %_\\' OR '1'='1' --`,
  ),
  // Inside the text: trimming (which removes a BOM and a line separator at either end) is no change of it.
  text(
    "value + tab, line feed, carriage return, C1 controls, zero-width space, BOM, line separator",
    (base) => `${base}\tx\r\ny\u0085\u009b\u200b\ufeff\u2028x`,
  ),
  text("a 10,000-character string", () => "a".repeat(10_000)),
  text("a 1 MB string", () => MEGABYTE_STRING),
];

const NUMBER_TEXTS = NUMBER_WORDS.map((word) => text(word, () => word, { numeric: true }));

/** Bytes that are not UTF-8 after the value: an encoded lone surrogate and an overlong "/" (read as replacement characters). */
const BAD_UTF8 = [0xed, 0xa0, 0x80, 0xc0, 0xaf];
const BAD_UTF8_NAME = "value + bytes that are not UTF-8 (ED A0 80, C0 AF)";

/** A query parameter's hostile values. */
export const QUERY_MUTATIONS: ApiMutation<string>[] = [
  { name: "missing", value: () => MISSING },
  ...FORBIDDEN_TEXTS,
  ...TRICKY_TEXTS,
  ...NUMBER_TEXTS,
  { name: BAD_UTF8_NAME, raw: (base) => formEncode(base) + BAD_UTF8.map((byte) => `%${byte.toString(16).toUpperCase()}`).join("") },
];

const utf8 = (value: string) => encoder.encode(value);
const deepJson = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

/** A body field's hostile values: the texts of a query parameter, half surrogate pairs, and every other JSON type. */
export const JSON_MUTATIONS: ApiMutation[] = [
  { name: "missing", value: () => MISSING },
  ...FORBIDDEN_TEXTS,
  text("value + a lone high surrogate \\ud800", (base) => `${base}\ud800`, { forbidden: true }),
  text("a lone low surrogate \\udc00 + value", (base) => `\udc00${base}`, { forbidden: true }),
  ...TRICKY_TEXTS,
  ...NUMBER_TEXTS,
  { name: BAD_UTF8_NAME, raw: (base) => new Uint8Array([...utf8(JSON.stringify(base).slice(0, -1)), ...BAD_UTF8, ...utf8('"')]) },
  { name: "null", value: () => null },
  { name: "true", value: () => true },
  { name: "0", value: () => 0 },
  { name: "1e309 (Infinity once parsed)", raw: () => "1e309" },
  { name: "-1", value: () => -1, numeric: true },
  { name: "1.5", value: () => 1.5, numeric: true },
  { name: "2147483648", value: () => 2_147_483_648, numeric: true },
  { name: "9007199254740993 (beyond exact integers)", raw: () => "9007199254740993", numeric: true },
  { name: "-0", raw: () => "-0", numeric: true },
  { name: "[]", value: () => [] },
  { name: "[value]", value: (base) => [base] },
  { name: '{"a":{"b":value}}', value: (base) => ({ a: { b: base } }) },
  { name: "[[[…]]] 10,000 levels deep", raw: () => deepJson(10_000) },
  { name: '{"__proto__":{"polluted":"yes"}}', raw: () => '{"__proto__":{"polluted":"yes"}}' },
];

/** The mutations of a field of this base value: the numeric ones only when it holds a number (or nothing: it may). */
export function mutationsFor<Mutation extends ApiMutation<unknown>>(mutations: Mutation[], base: unknown): Mutation[] {
  const holdsNumber = base === undefined || base === null || typeof base === "number" || (typeof base === "string" && /^-?\d+(\.\d+)?$/.test(base));
  return holdsNumber ? mutations : mutations.filter((mutation) => !mutation.numeric);
}

/** The base value of a field as the text its mutations start from. */
export const baseText = (value: unknown): string => (value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value));

const RAW_MARK = "\u{F0000}raw\u{F0000}";

/** Sets `path` of a copy of `value` (MISSING deletes it); objects and lists on the way are created as needed. */
function setPath(value: unknown, path: readonly (string | number)[], replacement: unknown): unknown {
  if (!path.length) return replacement;
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(typeof value === "object" && value !== null ? value : {}) }) as Record<string | number, unknown>;
  const child = setPath(copy[head], rest, replacement);
  if (child === MISSING) delete copy[head];
  else copy[head] = child;
  return copy;
}

/**
 * `body` with the field at `path` set to `mutation`'s value: the value the server reads from it,
 * and the bytes the client sends, built when asked (a raw value is written as it is).
 */
export function mutatedBody(body: unknown, path: readonly (string | number)[], mutation: ApiMutation, base: string) {
  if (!mutation.raw) {
    const value = setPath(body, path, mutation.value(base));
    return { value, bytes: () => JSON.stringify(value) };
  }
  const raw = mutation.raw;
  const bytes = () => {
    const [before, after] = JSON.stringify(setPath(body, path, RAW_MARK)).split(JSON.stringify(RAW_MARK));
    const text = raw(base);
    return typeof text === "string" ? `${before}${text}${after}` : new Uint8Array([...utf8(before), ...text, ...utf8(after)]);
  };
  const sent = bytes();
  return { value: JSON.parse(typeof sent === "string" ? sent : new TextDecoder().decode(sent)) as unknown, bytes };
}

/** A query string of entries; `raw` entries are already encoded. */
export function queryString(entries: { name: string; value: string; raw?: string }[]): string {
  return entries.map((item) => `${formEncode(item.name)}=${item.raw ?? formEncode(item.value)}`).join("&");
}

/** Where a field is in a call's path parameters, query or body. */
export type FieldPath = (string | number)[];

/** The schema that says whether a value is an object, a list or a map: through optional, default, pipes and the like. */
function structureOf(schema: z.ZodType): z.ZodType {
  const def = schema._zod.def as { type: string; innerType?: z.ZodType; in?: z.ZodType };
  if (def.innerType) return structureOf(def.innerType);
  if (def.type === "pipe" && def.in) return structureOf(def.in);
  return schema;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Every field of `schema` as far as `value` (a valid base) reaches: each key of an object, given
 * or not, the first element of a list and the first entry of a map the base holds, and the lists
 * and maps themselves.
 */
export function schemaFields(schema: z.ZodType, value: unknown, path: FieldPath = []): FieldPath[] {
  const fields: FieldPath[] = path.length ? [path] : [];
  const def = structureOf(schema)._zod.def as { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType; valueType?: z.ZodType };
  if (def.type === "object" && def.shape) {
    for (const [key, child] of Object.entries(def.shape)) fields.push(...schemaFields(child, isObject(value) ? value[key] : undefined, [...path, key]));
  } else if (def.type === "array" && def.element && Array.isArray(value) && value.length) {
    fields.push(...schemaFields(def.element, value[0], [...path, 0]));
  } else if (def.type === "record" && def.valueType && isObject(value)) {
    const [key] = Object.keys(value);
    if (key !== undefined) fields.push(...schemaFields(def.valueType, value[key], [...path, key]));
  }
  return fields;
}

/** The value at `path` (undefined when it is not there). */
export function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let found = value;
  for (const segment of path) found = typeof found === "object" && found !== null ? (found as Record<string | number, unknown>)[segment] : undefined;
  return found;
}

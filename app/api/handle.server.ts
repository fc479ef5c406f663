/**
 * Answers every request under /api: finds the call by method and path, checks the bearer token
 * and the role, reads and validates the path, query and body with the call's zod schemas (unknown
 * fields refused), runs the handler and answers JSON, or the error shape of spec section 8.
 */
import * as z from "zod";
import type { AppLoadContext } from "@remix-run/node";
import { isDatabaseUnavailable } from "~/db/unavailable.server";
import { findApiTokenUser } from "~/models/api-token.server";
import { WorkflowError } from "~/reports/frame/workflow.server";
import { readJsonBody, REQUEST_REFUSALS } from "~/utils/form-data.server";
import { logger } from "~/utils/logger.server";
import { CHARACTERS_NOT_ALLOWED, isStorableText } from "~/utils/text-rules";
import { inEnglish, NOT_AUTHORIZED, PAGE_NOT_FOUND } from "~/utils/messages";
import { ApiError, invalid, MAX_NAMED_FIELDS, type ApiCall, type ApiErrorBody } from "./call.server";
import { API_CALLS } from "./calls/index.server";

export const API_BASE = "/api";
export const SESSION_TIMEOUT = "Session timeout!";
const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

interface Route {
  call: ApiCall;
  pattern: RegExp;
  names: string[];
}

/** `/admin/partner/{id}/` as a pattern; a trailing slash is optional, as clients differ. */
function compile(call: ApiCall): Route {
  const names: string[] = [];
  const source = call.path
    .replace(/\/$/, "")
    .split("/")
    .map((segment) => {
      const match = /^\{(\w+)\}$/.exec(segment);
      if (!match) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(match[1]);
      return "([^/]+)";
    })
    .join("/");
  return { call, names, pattern: new RegExp(`^${source}/?$`) };
}

/** A literal segment beats a parameter: `/template/sales/submit/` is not partner "submit". */
const ROUTES = API_CALLS.map(compile).sort((a, b) => a.names.length - b.names.length);

function json(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json; charset=utf-8", ...headers } });
}

function errorAnswer(status: number, body: ApiErrorBody, headers: Record<string, string> = {}) {
  return json(body, status, headers);
}

/** Zod issues as field path -> messages ("" for the body itself). */
function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const field = issue.path.join(".");
    // A body of thousands of bad entries is answered with the first fields (invalid names no more).
    if (!(field in errors) && Object.keys(errors).length === MAX_NAMED_FIELDS) break;
    (errors[field] ??= []).push(issue.message);
  }
  return errors;
}

/**
 * The field names of an object schema (through pipes, refinements, optionals), or null for another
 * schema, or for an object whose catchall checks the keys it does not declare (a map by id).
 */
function knownKeys(schema: z.core.$ZodType): string[] | null {
  const def = schema._zod.def as {
    type: string;
    shape?: Record<string, unknown>;
    catchall?: z.core.$ZodType;
    innerType?: z.core.$ZodType;
    in?: z.core.$ZodType;
  };
  if (def.type === "object" && def.shape) return def.catchall && def.catchall._zod.def.type !== "never" ? null : Object.keys(def.shape);
  if (def.innerType) return knownKeys(def.innerType);
  if (def.type === "pipe" && def.in) return knownKeys(def.in);
  return null;
}

/**
 * Unknown fields are refused, whether or not the form's schema would strip them; `__proto__` even
 * where a catchall takes any other key (zod's output would drop it without a word).
 */
function unknownFields(schema: z.ZodType, value: unknown): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  const known = knownKeys(schema);
  if (!known) return Object.hasOwn(value, "__proto__") ? ["__proto__"] : [];
  return Object.keys(value).filter((key) => !known.includes(key));
}

/** A 400 naming the fields with one message. */
function refuseFields(fields: string[], message: string): never {
  throw invalid(Object.fromEntries(fields.map((field) => [field, [message]])));
}

/** The entries of an object or a list (indexes as names), read as they are needed. */
function* entriesOf(value: unknown): Generator<[string, unknown]> {
  if (Array.isArray(value)) for (let index = 0; index < value.length; index++) yield [String(index), value[index]];
  else if (typeof value === "object" && value !== null) for (const key of Object.keys(value)) yield [key, (value as Record<string, unknown>)[key]];
}

/**
 * The fields whose name or text cannot be stored (a control character, which PostgreSQL refuses
 * in text as NUL, or half a surrogate pair), by path as zod names them, at any depth: no call,
 * whatever its schema says of the field, hands one to its handler. Walked with a stack of its own
 * (a body may nest a hundred thousand levels), one list or object open per level.
 */
function unstorableFields(fields: Iterable<[string, unknown]>, prefix: string[]): string[] {
  const found: string[] = [];
  const open: { key: string; entries: Iterator<[string, unknown]> }[] = [{ key: "", entries: fields[Symbol.iterator]() }];
  while (open.length && found.length < MAX_NAMED_FIELDS) {
    const next = open[open.length - 1].entries.next();
    if (next.done) {
      open.pop();
      continue;
    }
    const [key, value] = next.value;
    if (!isStorableText(key) || (typeof value === "string" && !isStorableText(value))) {
      found.push([...prefix, ...open.slice(1).map((level) => level.key), key].join("."));
    } else if (typeof value === "object" && value !== null) open.push({ key, entries: entriesOf(value) });
  }
  return found;
}

/**
 * Checks a part of the request (`where`: path, query or body) against the call's schema. `fields`
 * are its raw entries whose texts are checked first: every value of a repeated query parameter.
 */
function parsed<S extends z.ZodType | undefined>(schema: S, value: unknown, where: string, fields: Iterable<[string, unknown]> = entriesOf(value)) {
  if (!schema) return undefined;
  const unstorable = unstorableFields(fields, where === "body" ? [] : [where]);
  if (unstorable.length) refuseFields(unstorable, CHARACTERS_NOT_ALLOWED);
  const unknown = unknownFields(schema, value);
  if (unknown.length)
    refuseFields(
      unknown.map((key) => (where === "body" ? key : `${where}.${key}`)),
      "Unknown field.",
    );
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = Object.entries(fieldErrors(result.error)).map(([key, messages]) => [
    where === "body" ? key : [where, key].filter(Boolean).join("."),
    messages,
  ]);
  throw invalid(Object.fromEntries(errors));
}

const STATUS_WORDS: Record<number, ApiErrorBody["status"]> = {
  400: "invalid",
  403: "forbidden",
  404: "notfound",
  409: "conflict",
  413: "too_large",
  415: "unsupported",
  429: "rate_limited",
};

/** A refusal thrown by shared code (a model's WorkflowError, a body reader's 4xx) in the API's shape. */
async function asApiError(error: unknown): Promise<ApiError | null> {
  if (error instanceof ApiError) return error;
  if (error instanceof WorkflowError) {
    return new ApiError(error.status, { status: STATUS_WORDS[error.status] ?? "error", detail: inEnglish(error.message, error.values) });
  }
  const init = (error as { init?: ResponseInit | null; data?: unknown } | null)?.init;
  if (init?.status && init.status >= 400 && init.status < 500) {
    const message = ((error as { data?: { message?: string } }).data?.message ?? "") || REQUEST_REFUSALS.badRequest;
    return new ApiError(init.status, { status: STATUS_WORDS[init.status] ?? "error", detail: message });
  }
  if (error instanceof Response && error.status >= 400 && error.status < 500) {
    return new ApiError(error.status, { status: STATUS_WORDS[error.status] ?? "error", detail: error.statusText || REQUEST_REFUSALS.badRequest });
  }
  return null;
}

function bearerToken(request: Request): string | null {
  const match = /^Bearer ([A-Za-z0-9_-]{20,100})$/.exec(request.headers.get("Authorization") ?? "");
  return match ? match[1] : null;
}

async function authorise(call: ApiCall, request: Request) {
  if (call.access === "public") return null;
  const token = bearerToken(request);
  const found = token ? await findApiTokenUser(token) : null;
  if (!found) throw new ApiError(401, { status: "unauthorized", detail: SESSION_TIMEOUT }, { "WWW-Authenticate": 'Bearer realm="api"' });
  if (!call.access.includes(found.user.role)) throw new ApiError(403, { status: "forbidden", detail: NOT_AUTHORIZED });
  return found;
}

/** A path segment decoded; one that is not valid percent-encoding is read as it is (and refused by its schema). */
function pathSegment(segment: string) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export async function handleApiRequest(request: Request, context: AppLoadContext): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.slice(API_BASE.length) || "/";
  const matching = ROUTES.map((route) => ({ route, match: route.pattern.exec(path) })).filter(({ match }) => match);
  if (!matching.length) return errorAnswer(404, { status: "notfound", detail: PAGE_NOT_FOUND });
  const found = matching.find(({ route }) => route.call.method === request.method);
  if (!found) {
    const allowed = [...new Set(matching.map(({ route }) => route.call.method))].join(", ");
    return errorAnswer(405, { status: "error", detail: `Method not allowed. Allowed: ${allowed}.` }, { Allow: allowed });
  }
  const { call, names } = found.route;
  try {
    const signedIn = await authorise(call, request);
    const rawParams = Object.fromEntries(names.map((name, index) => [name, pathSegment(found.match![index + 1])]));
    const params = parsed(call.params, rawParams, "path");
    const query = parsed(call.query, Object.fromEntries(url.searchParams), "query", url.searchParams);
    let body: unknown;
    if (call.body) body = parsed(call.body, await readJsonBody(request, { maxBytes: call.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES }), "body");
    const answer = await call.handle({ params, query, body, request, context, user: signedIn?.user ?? null, tokenId: signedIn?.tokenId ?? null } as never);
    return answer instanceof Response ? answer : json(answer);
  } catch (error) {
    const refusal = await asApiError(error);
    if (refusal) return errorAnswer(refusal.httpStatus, refusal.body, refusal.headers);
    if (isDatabaseUnavailable(error)) {
      logger.warn({ err: error, requestId: context.requestId, call: `${call.method} ${call.path}` }, "API call: database unavailable");
      return errorAnswer(503, { status: "error", detail: "The service is briefly unavailable. Try again in a few seconds." }, { "Retry-After": "5" });
    }
    logger.error({ err: error, requestId: context.requestId, call: `${call.method} ${call.path}` }, "API call failed");
    return errorAnswer(500, { status: "error", detail: "The server could not answer. Try again later." });
  }
}

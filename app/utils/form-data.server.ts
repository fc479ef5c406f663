/**
 * Every action reads its body here, so that no request costs more than its size warrants: a
 * byte limit on the body (checked while it streams, not only from Content-Length), only form
 * bodies, and, for conform forms, only the fields the form's zod schema knows, with list
 * indexes no higher than the schema's own maximum. Unknown fields are dropped before parsing,
 * so a refusal never echoes them back.
 */
import { getPaths, INTENT, STATE } from "@conform-to/dom";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, unstable_createMemoryUploadHandler, unstable_parseMultipartFormData } from "@remix-run/node";
import type { z } from "zod";
import { BAD_REQUEST } from "./messages";

export const REQUEST_REFUSALS = {
  notAForm: "The request must be sent as a form.",
  tooLarge: "The request is too large.",
  badRequest: BAD_REQUEST,
} as const;

/** Bytes a plain form may post (the partner form with every product and person fits many times over). */
export const FORM_MAX_BYTES = 128 * 1024;

/** A list field whose schema states no maximum holds at most this many rows. */
const DEFAULT_LIST_MAX = 100;

function refuse(status: 400 | 413 | 415, message: string): never {
  throw data({ message }, { status });
}

/** Whether `error` is a refusal thrown here with `status`. */
export function isRefusal(error: unknown, status: number): boolean {
  return typeof error === "object" && error !== null && (error as { init?: ResponseInit | null }).init?.status === status;
}

const mediaType = (request: Request) => (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();

class BodyTooLarge extends Error {}

/** The body as a stream that fails once more than `maxBytes` have come through. */
function limitedBody(request: Request, maxBytes: number): ReadableStream<Uint8Array> | null {
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (declared > maxBytes) refuse(413, REQUEST_REFUSALS.tooLarge);
  if (!request.body) return null;
  let received = 0;
  return request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength;
        if (received > maxBytes) controller.error(new BodyTooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
}

async function bodyText(request: Request, maxBytes: number): Promise<string> {
  const body = limitedBody(request, maxBytes);
  if (!body) return "";
  try {
    return await new Response(body).text();
  } catch (error) {
    if (error instanceof BodyTooLarge) refuse(413, REQUEST_REFUSALS.tooLarge);
    throw error;
  }
}

/** A urlencoded form body of at most `maxBytes`; any other body is refused with a 4xx. */
export async function readForm(request: Request, { maxBytes = FORM_MAX_BYTES } = {}): Promise<FormData> {
  if (mediaType(request) !== "application/x-www-form-urlencoded") refuse(415, REQUEST_REFUSALS.notAForm);
  const form = new FormData();
  for (const [name, value] of new URLSearchParams(await bodyText(request, maxBytes))) form.append(name, value);
  return form;
}

/**
 * A multipart form (a file upload) of at most `maxBytes` in all, keeping only the named
 * fields; each part is held in memory up to `maxPartBytes`.
 */
export async function readMultipartForm(
  request: Request,
  { fields, maxBytes, maxPartBytes }: { fields: readonly string[]; maxBytes: number; maxPartBytes: number },
): Promise<FormData> {
  if (mediaType(request) !== "multipart/form-data" || !/boundary=/i.test(request.headers.get("Content-Type") ?? "")) {
    refuse(415, REQUEST_REFUSALS.notAForm);
  }
  const body = limitedBody(request, maxBytes);
  if (!body) refuse(400, REQUEST_REFUSALS.badRequest);
  const limited = new Request(request.url, { method: request.method, headers: request.headers, body, duplex: "half" } as RequestInit);
  const keepPart = unstable_createMemoryUploadHandler({ maxPartSize: maxPartBytes });
  try {
    return await unstable_parseMultipartFormData(limited, async (part) => {
      if (fields.includes(part.name)) return keepPart(part);
      for await (const chunk of part.data) void chunk;
      return undefined;
    });
  } catch (error) {
    if (error instanceof BodyTooLarge || (error instanceof Error && error.name === "MaxPartSizeExceededError")) {
      refuse(413, REQUEST_REFUSALS.tooLarge);
    }
    // A malformed multipart body (no closing boundary, broken headers).
    refuse(400, REQUEST_REFUSALS.badRequest);
  }
}

// ---------------------------------------------------------------- conform forms

type SchemaNode = z.core.$ZodType;
type Segment = string | number;

/** The schema that describes a field's value, through optional, default, transform and the like. */
function unwrap(node: SchemaNode): SchemaNode {
  const def = node._zod.def as { type: string; innerType?: SchemaNode; in?: SchemaNode };
  if (def.innerType) return unwrap(def.innerType);
  if (def.type === "pipe" && def.in) return unwrap(def.in);
  return node;
}

function listMax(node: SchemaNode): number {
  const checks = (node._zod.def.checks ?? []) as { _zod: { def: { check: string; maximum?: number } } }[];
  const max = checks.find((check) => check._zod.def.check === "max_length")?._zod.def.maximum;
  return max ?? DEFAULT_LIST_MAX;
}

/**
 * Whether the schema has a field at `segments`. A list index may go one past the list's maximum,
 * so that the schema's own "at most N" message is what a too-long list gets.
 */
function schemaHasField(schema: SchemaNode, segments: Segment[]): boolean {
  let node = unwrap(schema);
  for (const segment of segments) {
    const def = node._zod.def as { type: string; shape?: Record<string, SchemaNode>; element?: SchemaNode };
    if (def.type === "object" && typeof segment === "string" && def.shape && Object.hasOwn(def.shape, segment)) {
      node = unwrap(def.shape[segment]);
    } else if (def.type === "array" && typeof segment === "number" && def.element && segment <= listMax(node)) {
      node = unwrap(def.element);
    } else {
      return false;
    }
  }
  return true;
}

/** The most values a field may repeat (`partnerId=1&partnerId=2`): its list maximum, else one. */
function repeatLimit(schema: SchemaNode, segments: Segment[]): number {
  let node = unwrap(schema);
  for (const segment of segments) {
    const def = node._zod.def as { shape?: Record<string, SchemaNode>; element?: SchemaNode };
    const next = typeof segment === "string" ? def.shape?.[segment] : def.element;
    if (!next) return 1;
    node = unwrap(next);
  }
  return node._zod.def.type === "array" ? listMax(node) + 1 : 1;
}

function pathOf(name: string): Segment[] | null {
  if (name.length > 200) return null;
  try {
    const segments = getPaths(name);
    return segments.every((segment) => segment !== "") ? (segments as Segment[]) : null;
  } catch {
    return null;
  }
}

const LIST_INTENTS = new Set(["insert", "remove"]);

/**
 * conform's Add and Remove row buttons (the form without JavaScript) post an intent: only these
 * two, on a list of the schema, at an index within the list. Anything else is refused.
 */
function checkIntent(schema: SchemaNode, serialized: FormDataEntryValue): void {
  let intent: { type?: unknown; payload?: { name?: unknown; index?: unknown; defaultValue?: unknown } };
  try {
    intent = typeof serialized === "string" && serialized.length <= 2048 ? JSON.parse(serialized) : null;
  } catch {
    refuse(400, REQUEST_REFUSALS.badRequest);
  }
  const payload = intent?.payload;
  const path = typeof payload?.name === "string" ? pathOf(payload.name) : null;
  const listNode = path && schemaHasField(schema, path) ? repeatLimit(schema, path) : 0;
  const index = payload?.index;
  const indexOk = index === undefined || (typeof index === "number" && Number.isInteger(index) && index >= 0 && index < listNode);
  const defaultOk = payload?.defaultValue === undefined || (typeof payload.defaultValue === "object" && payload.defaultValue !== null);
  if (!LIST_INTENTS.has(String(intent?.type)) || listNode <= 1 || !indexOk || !defaultOk) {
    refuse(400, REQUEST_REFUSALS.badRequest);
  }
}

/**
 * conform's parseWithZod over the fields the schema knows. Unknown fields, and list rows past
 * the schema's maximum, are dropped before parsing: the reply can only echo what the form holds.
 */
export function parseForm<Schema extends z.ZodType>(formData: FormData, schema: Schema) {
  const known = new FormData();
  const repeats = new Map<string, number>();
  for (const [name, value] of formData) {
    if (name === STATE) continue;
    if (name === INTENT) {
      checkIntent(schema, value);
      known.set(INTENT, value);
      continue;
    }
    const path = pathOf(name);
    if (!path || !schemaHasField(schema, path)) continue;
    const seen = (repeats.get(name) ?? 0) + 1;
    if (seen > repeatLimit(schema, path)) continue;
    repeats.set(name, seen);
    known.append(name, value);
  }
  return parseWithZod(known, { schema });
}

/** A whole form read and parsed: the body limit, then the schema's fields only. */
export async function readFormSubmission<Schema extends z.ZodType>(request: Request, schema: Schema) {
  return parseForm(await readForm(request), schema);
}

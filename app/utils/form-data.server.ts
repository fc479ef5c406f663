/**
 * Every action reads its body here, so that no request costs more than its size warrants: a
 * byte limit on the body (checked while it streams, not only from Content-Length), only form
 * bodies, and, for conform forms, only the fields the form's zod schema knows, with list
 * indexes no higher than the schema's own maximum. Unknown fields are dropped before parsing,
 * so a refusal never echoes them back.
 */
import { formatPaths, getPaths, INTENT, STATE } from "@conform-to/dom";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, MaxPartSizeExceededError, unstable_createMemoryUploadHandler, unstable_parseMultipartFormData } from "@remix-run/node";
import * as z from "zod";
import { BAD_REQUEST } from "./messages";

export const REQUEST_REFUSALS = {
  notAForm: "The request must be sent as a form.",
  notJson: "The request must be sent as JSON (Content-Type: application/json).",
  badJson: "The request body is not valid JSON.",
  tooLarge: "The request is too large.",
  badRequest: BAD_REQUEST,
} as const;

/** Bytes a plain form may post (the partner form with every product and person fits many times over). */
const FORM_MAX_BYTES = 128 * 1024;

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
    // Cancelling the request's body would end the connection before the refusal is sent.
    { preventCancel: true },
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
  for (const [name, value] of formFields(await bodyText(request, maxBytes))) form.append(name, value);
  return form;
}

/**
 * A urlencoded body's fields as URLSearchParams reads them. Each name and value is decoded by
 * decodeURIComponent, several times faster on a large grid post; one it refuses (a malformed
 * escape) is decoded by URLSearchParams, which keeps what it cannot read.
 */
export function formFields(body: string): [string, string][] {
  const fields: [string, string][] = [];
  for (const pair of body.split("&")) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    fields.push(equals === -1 ? [formText(pair), ""] : [formText(pair.slice(0, equals)), formText(pair.slice(equals + 1))]);
  }
  return fields;
}

function formText(encoded: string): string {
  try {
    return decodeURIComponent(encoded.replaceAll("+", " "));
  } catch {
    return new URLSearchParams(`_=${encoded}`).get("_")!;
  }
}

/** A JSON body (an API call) of at most `maxBytes`; any other body, or JSON that does not parse, is refused with a 4xx. */
export async function readJsonBody(request: Request, { maxBytes }: { maxBytes: number }): Promise<unknown> {
  if (mediaType(request) !== "application/json") refuse(415, REQUEST_REFUSALS.notJson);
  const text = await bodyText(request, maxBytes);
  try {
    return JSON.parse(text);
  } catch {
    refuse(400, REQUEST_REFUSALS.badJson);
  }
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
    if (error instanceof BodyTooLarge || error instanceof MaxPartSizeExceededError) {
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

/** The list's own "at most N" message, as its schema words it. */
function tooManyRowsMessage(list: SchemaNode): string {
  const overfull = Array.from({ length: listMax(list) + 1 }, () => ({}));
  const issue = z.safeParse(list, overfull).error?.issues.find((candidate) => candidate.code === "too_big" && candidate.path.length === 0);
  return issue?.message ?? BAD_REQUEST;
}

type FieldLookup =
  | { kind: "field"; node: SchemaNode }
  | { kind: "unknown" }
  /** A row index past the list's maximum: `list` is the list's field name. */
  | { kind: "overflow"; list: string; node: SchemaNode };

/** What the schema says of the field at `segments`. */
function lookUpField(schema: SchemaNode, segments: Segment[]): FieldLookup {
  let node = unwrap(schema);
  for (const [position, segment] of segments.entries()) {
    const def = node._zod.def as { type: string; shape?: Record<string, SchemaNode>; element?: SchemaNode };
    if (def.type === "object" && typeof segment === "string" && def.shape && Object.hasOwn(def.shape, segment)) {
      node = unwrap(def.shape[segment]);
    } else if (def.type === "array" && typeof segment === "number" && def.element) {
      if (segment >= listMax(node)) return { kind: "overflow", list: formatPaths(segments.slice(0, position)), node };
      node = unwrap(def.element);
    } else {
      return { kind: "unknown" };
    }
  }
  return { kind: "field", node };
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

/**
 * conform's Add and Remove row buttons (the form without JavaScript) post an intent: only these
 * two, on a list of the schema, at an index within the list. Anything else is refused.
 */
function checkIntent(schema: SchemaNode, serialized: FormDataEntryValue): void {
  let intent: { type?: unknown; payload?: { name?: unknown; index?: unknown; defaultValue?: unknown } } | null;
  try {
    intent = typeof serialized === "string" && serialized.length <= 2048 ? JSON.parse(serialized) : null;
  } catch {
    refuse(400, REQUEST_REFUSALS.badRequest);
  }
  const payload = intent?.payload;
  const path = typeof payload?.name === "string" ? pathOf(payload.name) : null;
  const field = path ? lookUpField(schema, path) : null;
  const list = field?.kind === "field" && field.node._zod.def.type === "array" ? field.node : null;
  const index = payload?.index;
  const indexOk = index === undefined || (typeof index === "number" && Number.isInteger(index) && index >= 0 && list !== null && index < listMax(list));
  const defaultOk = payload?.defaultValue === undefined || (typeof payload.defaultValue === "object" && payload.defaultValue !== null);
  if ((intent?.type !== "insert" && intent?.type !== "remove") || !list || !indexOk || !defaultOk) {
    refuse(400, REQUEST_REFUSALS.badRequest);
  }
}

function checkState(serialized: FormDataEntryValue): void {
  try {
    if (typeof serialized === "string" && serialized.length <= 8192 && typeof JSON.parse(serialized) === "object") return;
  } catch {
    // refused below
  }
  refuse(400, REQUEST_REFUSALS.badRequest);
}

/**
 * conform's parseWithZod over the fields the schema knows: unknown fields are dropped before
 * parsing, so the reply can only echo what the form holds. A row past a list's maximum is not
 * read: the submission fails with the list's own "at most N" message.
 */
export function parseForm<Schema extends z.ZodType>(formData: FormData, schema: Schema) {
  const known = new FormData();
  const repeats = new Map<string, number>();
  const overflows = new Map<string, string>();
  for (const [name, value] of formData) {
    // conform's own state field: not used by the portal's forms, but a malformed one is refused like a malformed intent.
    if (name === STATE) {
      checkState(value);
      continue;
    }
    if (name === INTENT) {
      checkIntent(schema, value);
      known.set(INTENT, value);
      continue;
    }
    const path = pathOf(name);
    const field = path ? lookUpField(schema, path) : { kind: "unknown" as const };
    if (field.kind === "overflow") {
      if (!overflows.has(field.list)) overflows.set(field.list, tooManyRowsMessage(field.node));
      continue;
    }
    if (field.kind === "unknown") continue;
    // A repeated name (`partnerId=1&partnerId=2`) is a list: no more values than its maximum allows.
    const seen = (repeats.get(name) ?? 0) + 1;
    const limit = field.node._zod.def.type === "array" ? listMax(field.node) : 1;
    if (seen > limit) {
      if (!overflows.has(name) && limit > 1) overflows.set(name, tooManyRowsMessage(field.node));
      continue;
    }
    repeats.set(name, seen);
    known.append(name, value);
  }
  const submission = parseWithZod(known, { schema });
  if (overflows.size === 0 || submission.status === undefined) return submission;
  const overflowErrors = Object.fromEntries([...overflows].map(([list, message]) => [list, [message]]));
  return {
    ...submission,
    status: "error" as const,
    reply: (options: Parameters<typeof submission.reply>[0] = {}) =>
      submission.reply({ ...options, fieldErrors: { ...("fieldErrors" in options ? options.fieldErrors : {}), ...overflowErrors } }),
  };
}

/** A whole form read and parsed: the body limit, then the schema's fields only. */
export async function readFormSubmission<Schema extends z.ZodType>(request: Request, schema: Schema) {
  return parseForm(await readForm(request), schema);
}

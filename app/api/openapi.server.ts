/** The OpenAPI 3.1 document of the JSON API, generated from the calls' zod schemas (zod-openapi). */
import * as z from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import { ApiErrorSchema, type ApiCall } from "./call.server";
import { API_CALLS } from "./calls/index.server";
import { API_BASE } from "./handle.server";

const ERROR_TEXTS: Record<number, string> = {
  400: "Invalid data: `errors` holds the messages by field.",
  401: "No token, or an expired or ended one (`Session timeout!`); on /login/ the reason the sign-in failed.",
  403: "The caller's role, or the partner asked for, is not the caller's.",
  404: "`notfound`: no such record (or `expired` for a reset token).",
  409: "The report changed since it was read, or its state does not allow the action.",
  413: "The body is larger than the call accepts.",
  415: "The body is not JSON.",
  429: "Too many attempts: wait for the seconds in Retry-After.",
};

const errorResponse = (status: number) => ({
  description: ERROR_TEXTS[status],
  content: { "application/json": { schema: ApiErrorSchema } },
  ...(status === 429 ? { headers: { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" as const } } } } : {}),
});

function operation(call: ApiCall): ZodOpenApiOperationObject {
  const statuses = new Set<number>([...call.errors, ...(call.access === "public" ? [] : [401, 403]), 429]);
  if (call.body) statuses.add(413).add(415);
  const answer =
    call.answer instanceof z.ZodType
      ? { description: "OK", content: { "application/json": { schema: call.answer, ...(call.example?.answer ? { example: call.example.answer } : {}) } } }
      : { description: call.answer.description, content: { [call.answer.contentType]: { schema: { type: "string" as const, format: "binary" } } } };
  return {
    summary: call.summary,
    tags: [call.tag],
    operationId: `${call.method.toLowerCase()}${call.path.replace(/[{}]/g, "").replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? "").toUpperCase())}`,
    ...(call.access === "public" ? { security: [] } : { description: `Roles: ${call.access.join(", ")}.` }),
    requestParams: { ...(call.params ? { path: call.params as never } : {}), ...(call.query ? { query: call.query as never } : {}) },
    ...(call.body
      ? {
          requestBody: {
            required: true,
            content: { "application/json": { schema: call.body, ...(call.example?.body ? { example: call.example.body } : {}) } },
          },
        }
      : {}),
    responses: { 200: answer, ...Object.fromEntries([...statuses].sort().map((status) => [String(status), errorResponse(status)])) },
  };
}

function buildDocument() {
  const paths: ZodOpenApiPathsObject = {};
  for (const call of API_CALLS) {
    paths[`${API_BASE}${call.path}`] = { ...paths[`${API_BASE}${call.path}`], [call.method.toLowerCase()]: operation(call) };
  }
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "MPP Data Portal API",
      version: "1.0.0",
      description:
        "Partners report and administrators review by machine with the rules of the web pages. Sign in with POST /api/login/, then send `Authorization: Bearer <access>` with every other call. Bodies are JSON; unknown fields are refused.",
    },
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    security: [{ bearer: [] }],
    paths,
  });
}

let document: ReturnType<typeof buildDocument> | undefined;
/** Built once per process: the calls do not change while it runs. */
export function openApiDocument() {
  document ??= buildDocument();
  return document;
}

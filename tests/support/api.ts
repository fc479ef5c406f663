/**
 * JSON API calls in integration tests: through the same dispatcher as the server, and every
 * answer checked against the OpenAPI document the app serves (ajv, JSON Schema 2020-12).
 */
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { eq } from "drizzle-orm";
import { beforeEach, expect } from "vitest";
import { db } from "~/db/client.server";
import { partners } from "~/db/schema";
import { handleApiRequest } from "~/api/handle.server";
import { openApiDocument } from "~/api/openapi.server";
import { testContext } from "./remix";

export interface ApiAnswer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the bytes of a file. */
  body: any;
}

export async function callApi(
  method: string,
  path: string,
  {
    token,
    body,
    query,
    rawBody,
    headers,
  }: { token?: string; body?: unknown; query?: Record<string, string>; rawBody?: BodyInit; headers?: Record<string, string> } = {},
): Promise<ApiAnswer> {
  const url = new URL(`http://localhost/api${path}`);
  for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, value);
  const requestHeaders = new Headers(headers);
  if (token) requestHeaders.set("Authorization", `Bearer ${token}`);
  if (body !== undefined && !requestHeaders.has("Content-Type")) requestHeaders.set("Content-Type", "application/json");
  const response = await handleApiRequest(
    new Request(url, { method, headers: requestHeaders, body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)) }),
    testContext(),
  );
  const type = response.headers.get("Content-Type") ?? "";
  const parsed = type.startsWith("application/json") ? await response.json() : new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, body: parsed };
}

/** Signs in through POST /api/login/ and returns the bearer token. */
export async function apiToken(email: string, password: string): Promise<string> {
  const answer = await callApi("POST", "/login/", { body: { email, password } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.access;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const validators = new Map<string, ReturnType<typeof ajv.compile>>();

/**
 * Asserts that `answer` is one the document lists for the call (`path` as the document writes
 * it, with `{id}`), and that its JSON body matches that answer's schema.
 */
export function expectDocumented(method: string, path: string, answer: ApiAnswer) {
  const document = openApiDocument() as any;
  const operation = document.paths[`/api${path}`]?.[method.toLowerCase()];
  expect(operation, `${method} /api${path} is in the OpenAPI document`).toBeDefined();
  const response = operation.responses[String(answer.status)];
  expect(response, `${method} ${path} documents status ${answer.status}`).toBeDefined();
  const json = response.content?.["application/json"];
  if (!json) return;
  const key = `${method} ${path} ${answer.status}`;
  if (!validators.has(key)) validators.set(key, ajv.compile({ ...json.schema, $defs: undefined, components: document.components }));
  const validate = validators.get(key)!;
  const valid = validate(answer.body);
  expect(valid, `${key}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

export function expectStatus(answer: ApiAnswer, status: number) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
}

/** A refusal: the status, the error shape, and the documented answer. */
export function expectRefused(method: string, path: string, answer: ApiAnswer, status: number) {
  expectStatus(answer, status);
  expectDocumented(method, path, answer);
}

async function partnerIdOf(email: string) {
  const [partner] = await db.select({ id: partners.id }).from(partners).where(eq(partners.email, email));
  return partner.id;
}

const DEMO_ACCOUNTS = {
  admin: ["admin@example.org", "admin-pass-1"],
  staff: ["staff@example.org", "staff-pass-1"],
  partner1: ["partner1@example.org", "partner-pass-1"],
  partner2: ["partner2@example.org", "partner-pass-2"],
  partner3: ["partner3@example.org", "partner-pass-3"],
} as const;
type DemoAccount = keyof typeof DEMO_ACCOUNTS;

/** Tokens of the demo accounts asked for (each sign-in costs a password hash check) and the demo partners' ids. */
async function demoSignIn(accounts: readonly DemoAccount[]) {
  const tokens = await Promise.all(accounts.map((account) => apiToken(DEMO_ACCOUNTS[account][0], DEMO_ACCOUNTS[account][1])));
  const [acme, borealis, cedar] = await Promise.all(["partner1@example.org", "partner2@example.org", "partner3@example.org"].map(partnerIdOf));
  return { ...(Object.fromEntries(accounts.map((account, index) => [account, tokens[index]])) as Record<DemoAccount, string>), acme, borealis, cedar };
}

/** The demo sign-in, done again before each test of the file once the seed is back: its fields are filled by the time a test runs. */
export function demoSignInBeforeEach(accounts: readonly DemoAccount[] = Object.keys(DEMO_ACCOUNTS) as DemoAccount[]) {
  const demo = {} as Awaited<ReturnType<typeof demoSignIn>>;
  beforeEach(async () => {
    Object.assign(demo, await demoSignIn(accounts));
  });
  return demo;
}

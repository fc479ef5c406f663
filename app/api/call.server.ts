/**
 * One JSON API call: its method and path (spec section 7), who may make it, the zod schemas of
 * its path, query, body and answer, and the handler that calls the model functions the pages
 * call. The dispatcher (handle.server.ts) and the OpenAPI document (openapi.server.ts) both read
 * these declarations, so what is documented is what is checked.
 */
import * as z from "zod";
import type { AppLoadContext } from "@remix-run/node";
import type { AuthUser, Role } from "~/models/user.server";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** Error statuses a call may answer with, beyond 429 that any call may, and 401 and 403 that any call with a token may. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415;

/** Every error answer has this shape (spec section 8). */
export const ApiErrorSchema = z
  .object({
    status: z.enum(["invalid", "unauthorized", "forbidden", "notfound", "expired", "conflict", "too_large", "unsupported", "rate_limited", "error"]),
    detail: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional().meta({ description: "Field errors by field path (400 only)." }),
  })
  .meta({ id: "ApiError" });
export type ApiErrorBody = z.infer<typeof ApiErrorSchema>;

/** A refusal the dispatcher turns into an error answer. */
export class ApiError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly body: ApiErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.detail);
  }
}

export const notFound = (detail: string) => new ApiError(404, { status: "notfound", detail });

/** A 400 with field errors by path; a model's "people[0].name" is keyed as zod's "people.0.name". */
/** A refusal names this many fields at most, each cut to this many characters: what it echoes of a request stays small. */
export const MAX_NAMED_FIELDS = 100;
const MAX_FIELD_NAME = 200;

export function invalid(errors: Record<string, string[]>) {
  const byPath = Object.entries(errors)
    .slice(0, MAX_NAMED_FIELDS)
    .map(([key, messages]) => {
      const path = key.replace(/\[(\d+)\]/g, ".$1");
      return [path.length > MAX_FIELD_NAME ? `${path.slice(0, MAX_FIELD_NAME)}…` : path, messages];
    });
  return new ApiError(400, { status: "invalid", detail: "Invalid data!", errors: Object.fromEntries(byPath) });
}

/** A downloaded file instead of JSON. */
export interface FileAnswer {
  contentType: string;
  description: string;
}

interface Input<Params, Query, Body> {
  params: Params;
  query: Query;
  body: Body;
  request: Request;
  context: AppLoadContext;
}

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface ApiCall<
  P extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  B extends Schema | undefined = Schema | undefined,
> {
  method: HttpMethod;
  /** The path under /api, as the spec writes it, with `{name}` for path parameters. */
  path: string;
  summary: string;
  tag: string;
  /** "public": no token (login, password reset); otherwise the roles that may call. */
  access: "public" | readonly Role[];
  params?: P;
  query?: Q;
  body?: B;
  /** The largest body this call accepts (64 KB unless said). */
  maxBodyBytes?: number;
  answer: Schema | FileAnswer;
  /** Statuses beyond 200, 401 and 429 (and 403 for a role-restricted call). */
  errors: readonly ErrorStatus[];
  example?: { body?: unknown; answer?: unknown };
  handle(input: Input<Out<P>, Out<Q>, Out<B>> & { user: AuthUser | null }): Promise<unknown>;
}

/** A call with a signed-in user: `user` is never null in its handler. */
type SignedInCall<P extends Schema | undefined, Q extends Schema | undefined, B extends Schema | undefined> = Omit<ApiCall<P, Q, B>, "handle" | "access"> & {
  access: readonly Role[];
  /** `tokenId`: the bearer token the call came with (logout ends it). */
  handle(input: Input<Out<P>, Out<Q>, Out<B>> & { user: AuthUser; tokenId: number }): Promise<unknown>;
};

export function signedInCall<P extends Schema | undefined = undefined, Q extends Schema | undefined = undefined, B extends Schema | undefined = undefined>(
  call: SignedInCall<P, Q, B>,
): ApiCall {
  return call as unknown as ApiCall;
}

/** The declaration of a feature's calls that all share one tag and the same roles: each call names only the rest. */
export function callsUnder(tag: string, access: readonly Role[]) {
  return <P extends Schema | undefined = undefined, Q extends Schema | undefined = undefined, B extends Schema | undefined = undefined>(
    call: Omit<SignedInCall<P, Q, B>, "tag" | "access">,
  ) => signedInCall<P, Q, B>({ ...call, tag, access });
}

export function publicCall<P extends Schema | undefined = undefined, Q extends Schema | undefined = undefined, B extends Schema | undefined = undefined>(
  call: Omit<ApiCall<P, Q, B>, "access"> & { handle(input: Input<Out<P>, Out<Q>, Out<B>>): Promise<unknown> },
): ApiCall {
  return { ...call, access: "public" } as unknown as ApiCall;
}

export const ALL_ROLES = ["ADMIN", "STAFF", "PARTNER"] as const satisfies readonly Role[];
export const ADMIN_AND_STAFF = ["ADMIN", "STAFF"] as const satisfies readonly Role[];

/** A path parameter that is a record id. */
export const idParam = z.coerce.number().int().positive().max(2_147_483_647);

/** The page a list is asked for (1-based); a page past the end answers the last page. */
export const pageNumberQuery = (description: string) => z.coerce.number().int().min(1).max(1_000_000).optional().meta({ description, example: 1 });

/** The paging fields of a list's answer; `pagedAnswer` fills them from a model's page. */
export const pagedAnswerFields = (countDescription: string) => ({
  count: z.number().int().meta({ description: countDescription }),
  page_number: z.number().int(),
  page_size: z.number().int(),
  pages: z.number().int(),
});

export function pagedAnswer(page: { total: number; page: number; pageSize: number; pages: number }) {
  return { count: page.total, page_number: page.page, page_size: page.pageSize, pages: page.pages };
}

/** `/…/{partnerId}/`: the partner a call is about. */
export const PartnerParams = z.object({ partnerId: idParam });

/** `?quarter=Q2 2026`: a quarter up to the open one; none means the open quarter. */
export const QuarterQuery = z
  .object({ quarter: z.string().max(20).optional().meta({ description: "A quarter such as 'Q2 2026'; the open quarter when left out.", example: "Q2 2026" }) })
  .strict();

import type { IncomingMessage, ServerResponse } from "node:http";
import pino from "pino";
import pretty from "pino-pretty";

const REDACTED = "[redacted]";

/**
 * The text with the secrets a URL can carry replaced: the token of a set-password link
 * (`/set-password/<token>`, also percent-encoded inside another URL's query) and the value of a
 * `token=` query parameter. Every URL that is logged passes through here.
 */
export function redactSecrets(text: string): string {
  return text.replace(/(set-password(?:\/|%2F))[^/?&#\s"'<>]+/gi, `$1${REDACTED}`).replace(/([?&](?:token|access_token)=)[^&#\s"'<>]*/gi, `$1${REDACTED}`);
}

/** A failed Drizzle query names its parameters (a session id, an e-mail, a hash): the query is kept, the values are not. */
function withoutQueryParameters(text: string): string {
  return text.replace(/\nparams: [\s\S]*?(?=\n\s+at |$)/, `\nparams: ${REDACTED}`);
}

/**
 * An error as it is logged: its kind, message, stack, code and cause, nothing else. Errors can
 * carry what they were handed (a request with its headers, a form, a query's parameters), so
 * their other properties are left out; of anything else thrown only a string or the kind of value.
 */
function errorForLog(error: unknown, depth = 0): unknown {
  if (typeof error === "string") return { message: redactSecrets(error) };
  if (!(error instanceof Error)) return { type: (error as object | null | undefined)?.constructor?.name ?? String(error) };
  const clean = (text: string | undefined) => (text === undefined ? undefined : redactSecrets(withoutQueryParameters(text)));
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    message: clean(error.message),
    stack: clean(error.stack),
    ...(typeof code === "string" || typeof code === "number" ? { code } : {}),
    ...(error.cause !== undefined && depth < 3 ? { cause: errorForLog(error.cause, depth + 1) } : {}),
  };
}

/** The request headers a log line may hold; cookies and credentials are never among them. */
const LOGGED_REQUEST_HEADERS = [
  "host",
  "user-agent",
  "content-type",
  "content-length",
  "origin",
  "referer",
  "sec-fetch-site",
  "x-forwarded-for",
  "x-request-id",
];
const LOGGED_RESPONSE_HEADERS = ["content-type", "content-length", "location"];

function pickHeaders(headers: Record<string, unknown>, names: string[]) {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = headers[name];
    if (typeof value === "string" || typeof value === "number") picked[name] = redactSecrets(String(value));
  }
  return picked;
}

/** The request log's serializers (pino-http, unwrapped): method, URL and a few headers; status and a few headers. */
export const requestLogSerializers = {
  req: (req: IncomingMessage & { id?: unknown; originalUrl?: string }) => ({
    id: req.id,
    method: req.method,
    url: redactSecrets(req.originalUrl ?? req.url ?? ""),
    headers: pickHeaders(req.headers, LOGGED_REQUEST_HEADERS),
    remoteAddress: req.socket?.remoteAddress,
  }),
  res: (res: ServerResponse) => ({
    statusCode: res.statusCode,
    headers: pickHeaders(res.getHeaders(), LOGGED_RESPONSE_HEADERS),
  }),
  err: errorForLog,
};

/** A request's log line as a person reads it: method, URL, status and time taken; any other entry its message. */
function readableMessage(entry: Record<string, unknown>, messageKey: string): string {
  const req = entry.req as { method?: string; url?: string } | undefined;
  const res = entry.res as { statusCode?: number } | undefined;
  if (!req?.method) return String(entry[messageKey] ?? "");
  return `${req.method} ${req.url} ${res?.statusCode ?? "-"} ${entry.responseTime ?? "-"} ms`;
}

/**
 * On a terminal, one readable line an entry; anywhere else (a container's or a service manager's
 * log collector, which reads no TTY) JSON lines. The other fields of an entry follow on its line.
 */
const destination = process.stdout.isTTY
  ? pretty({
      sync: true,
      singleLine: true,
      translateTime: "SYS:HH:MM:ss",
      ignore: "pid,hostname,service,req,res,responseTime",
      messageFormat: readableMessage,
    })
  : undefined;

/** Structured logs; the request id (reqId) ties a 500 page to its log line. */
export const logger = pino(
  {
    level: process.env.LOG_LEVEL || (process.env.NODE_ENV === "test" ? "silent" : "info"),
    base: { service: "mpp-portal" },
    serializers: { err: errorForLog },
    // A second line of defence for any log call handed credentials by mistake.
    redact: {
      paths: [
        "headers.cookie",
        "headers.authorization",
        'headers["set-cookie"]',
        "*.headers.cookie",
        "*.headers.authorization",
        '*.headers["set-cookie"]',
        "password",
        "*.password",
        "token",
        "*.token",
      ],
      censor: REDACTED,
    },
  },
  destination,
);

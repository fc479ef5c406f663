/** Connection failures as postgres.js and Node name them, beside PostgreSQL's own classes below. */
const CONNECTION_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
]);
/** PostgreSQL shutting down or starting (57P01–57P03); class 08 is a connection exception. */
const SERVER_UNAVAILABLE = /^(08...|57P0[123])$/;

/**
 * Whether an error says the database cannot be reached just now (stopped, restarting, connection
 * lost), as opposed to a query that is wrong: the answer is then 503, to be tried again. Drizzle
 * wraps the driver's error as its `cause`.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current = error;
  for (let depth = 0; current && typeof current === "object" && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (CONNECTION_CODES.has(code) || SERVER_UNAVAILABLE.test(code))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

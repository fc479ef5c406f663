/** The largest value of a PostgreSQL `integer` (serial ids): anything above it is no record of ours. */
export const MAX_ID = 2_147_483_647;

/** A record id from untrusted input (a path, a query, a form field, JSON): a positive int4, else null. */
export function parseId(value: unknown): number | null {
  const id = typeof value === "string" && /^\d{1,10}$/.test(value) ? Number(value) : value;
  return typeof id === "number" && Number.isInteger(id) && id > 0 && id <= MAX_ID ? id : null;
}

/** Pieces of SQL the query builder writes slowly or not at all. */
import { sql, type AnyColumn, type SQL } from "drizzle-orm";

/** SQL as a LIMIT or an OFFSET: the query builder types them as numbers and writes SQL as it is. */
export const sqlCount = (value: SQL) => value as unknown as number;

/**
 * `OFFSET 0` as SQL (the query builder leaves out an offset of the number 0): a subquery with it
 * is planned as it is written, neither flattened into the outer query nor losing its order.
 */
export const OFFSET_ZERO = sqlCount(sql`0`);

/**
 * `column = any('{1,2,3}'::integer[])`: the ids as one parameter. `inArray` writes a parameter
 * per id, and building a query with 500 of them took the query builder over a millisecond.
 */
export const idIn = (column: AnyColumn | SQL, ids: readonly number[]): SQL => sql`${column} = any(${`{${ids.join(",")}}`}::integer[])`;

/** A statement as the query builder compiles it (`.toSQL()`): text with $1, $2… and their values. */
export interface CompiledQuery {
  sql: string;
  params: unknown[];
}

/**
 * A compiled query with its bind parameters written in as literals, for the statements that take
 * none (COPY). Numbers must be finite; a text is quoted as it is when it holds neither a quote nor
 * a backslash (an untyped literal, so it still compares with enums), else it is spelled in hex and
 * decoded by the server, so no setting of standard_conforming_strings can change its meaning.
 */
export function inlineParams(query: CompiledQuery): string {
  const used = new Set<number>();
  const text = query.sql.replace(/\$(\d+)\b/g, (_, digits: string) => {
    const index = Number(digits) - 1;
    if (index >= query.params.length) throw new Error(`The query names $${digits} and has ${query.params.length} parameters.`);
    used.add(index);
    return literal(query.params[index]);
  });
  if (used.size !== query.params.length) throw new Error("The query leaves parameters unused.");
  return text;
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`Not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "string") {
    if (!/['\\\0]/.test(value)) return `'${value}'`;
    return `convert_from(decode('${Buffer.from(value, "utf8").toString("hex")}', 'hex'), 'UTF8')`;
  }
  throw new Error(`No literal for a parameter of type ${typeof value}.`);
}

import { describe, expect, it } from "vitest";
import { inlineParams } from "~/db/inline-params";

describe("a compiled query with its parameters written in (COPY takes none)", () => {
  it("writes numbers, booleans and NULL as they are, and a plain text quoted", () => {
    expect(inlineParams({ sql: "select $1, $2, $3, $4, $5, $6", params: [12, -1.5, true, null, 3n, "Kenya"] })).toBe("select 12, -1.5, TRUE, NULL, 3, 'Kenya'");
  });

  it("spells a text holding a quote, a backslash or a NUL in hex, so no quoting setting changes it", () => {
    expect(inlineParams({ sql: "where a = $1", params: ["O'Brien"] })).toBe("where a = convert_from(decode('4f27427269656e', 'hex'), 'UTF8')");
    expect(inlineParams({ sql: "where a = $1", params: ["a\\b"] })).toContain("decode('615c62', 'hex')");
  });

  it("tells $1 from $10 and reads each parameter as often as it is named", () => {
    const params = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
    expect(inlineParams({ sql: "$10 $1 $2 $3 $4 $5 $6 $7 $8 $9 $1", params })).toBe("'j' 'a' 'b' 'c' 'd' 'e' 'f' 'g' 'h' 'i' 'a'");
  });

  it("refuses what it cannot write or a query that does not match its parameters", () => {
    expect(() => inlineParams({ sql: "select $1", params: [Number.NaN] })).toThrow(/finite/);
    expect(() => inlineParams({ sql: "select $1", params: [{ a: 1 }] })).toThrow(/No literal/);
    expect(() => inlineParams({ sql: "select $2", params: [1] })).toThrow(/names \$2/);
    expect(() => inlineParams({ sql: "select $1", params: [1, 2] })).toThrow(/unused/);
  });
});

import { describe, expect, it } from "vitest";
import { textFilter } from "~/reports/consolidated/query";
import { queryText } from "~/utils/text-rules";

describe("a text from a page's query string", () => {
  it("is trimmed, and empty is none", () => {
    expect(queryText("  Acme Generics ")).toBe("Acme Generics");
    expect(queryText("   ")).toBeUndefined();
    expect(queryText("")).toBeUndefined();
    expect(queryText(null)).toBeUndefined();
    expect(queryText("Tab\there 😀")).toBe("Tab\there 😀");
  });

  it("is none when it holds a control character or half a surrogate pair: nothing stored can match it", () => {
    for (const value of ["\u0000", "Q3\u00002026", "\u001f", "a\u007f", "\ud800", "x\udc00y", "😀".slice(0, 1)]) {
      expect(queryText(value), JSON.stringify(value)).toBeUndefined();
      expect(textFilter.parse(value), JSON.stringify(value)).toBeUndefined();
    }
  });
});

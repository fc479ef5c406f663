import { describe, expect, it } from "vitest";
import { applyBlock, isBlock, parseClipboardBlock } from "~/reports/sales/sales-paste";

describe("a block pasted from a spreadsheet", () => {
  it("splits tabs and line breaks (CRLF too); a final line break makes no empty row", () => {
    expect(parseClipboardBlock("2026\tMarch\r\n2025\tMay\r\n")).toEqual([
      ["2026", "March"],
      ["2025", "May"],
    ]);
    expect(parseClipboardBlock("a\t\tc\n\tb")).toEqual([
      ["a", "", "c"],
      ["", "b"],
    ]);
    expect(parseClipboardBlock("")).toEqual([]);
  });

  it("reads quoted cells with tabs, line breaks and doubled quotes; a quote inside text stays", () => {
    expect(parseClipboardBlock('"two\nlines"\t"say ""hi"""\n5" pack\tx')).toEqual([
      ["two\nlines", 'say "hi"'],
      ['5" pack', "x"],
    ]);
  });

  it("tells one value from a block", () => {
    expect(isBlock("India")).toBe(false);
    expect(isBlock("India\n")).toBe(false);
    expect(isBlock("India\tKenya")).toBe(true);
    expect(isBlock("India\nKenya")).toBe(true);
  });

  it("writes from the start cell rightwards and downwards, adds rows, skips locked columns and drops overflow", () => {
    const rows = [
      { _key: 1, a: "1", b: "2", c: "3" },
      { _key: 2, a: "", b: "", c: "" },
    ];
    let key = 10;
    const result = applyBlock(
      rows,
      [
        ["x", "y", "overflow"],
        ["p", "q"],
        ["m", "n"],
      ],
      {
        startRow: 1,
        startColumn: 1,
        columnKeys: ["a", "b", "c"],
        editable: (column) => column !== "c",
        emptyRow: () => ({ _key: ++key, a: "", b: "", c: "" }),
      },
    );
    expect(result).toEqual([
      { _key: 1, a: "1", b: "2", c: "3" },
      { _key: 2, a: "", b: "x", c: "" },
      { _key: 11, a: "", b: "p", c: "" },
      { _key: 12, a: "", b: "m", c: "" },
    ]);
    expect(result[0]).toBe(rows[0]);
    expect(rows[1].b).toBe("");
  });
});

import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { batched, csvResponse, DOWNLOAD_BATCH_ROWS, xlsxResponse } from "~/reports/consolidated/download.server";
import { baseQuery, idFilter } from "~/reports/consolidated/query";
import { readQuery } from "~/utils/query-string.server";
import { pageWindow, queryHref } from "~/reports/consolidated/paging";
import { z } from "zod";

const columns = [
  { key: "company", label: "Company Name" },
  { key: "note", label: "Comments" },
  { key: "value", label: "Total Value (USD)" },
];
async function* rowsOf(rows: (string | number | null)[][]) {
  yield* rows;
}

describe("consolidated downloads", () => {
  it("CSV: a byte-order mark, the header, accents and Chinese as typed, formulas neutralised, numbers as numbers", async () => {
    const response = csvResponse(
      "pdt-report.csv",
      columns,
      rowsOf([
        ["Société Générique", '=HYPERLINK("x")', 12.5],
        ["上海医药", "+1 call", null],
        ["Tab\tCo", "-2", 0],
        ["@home", "\rreturn", 3],
      ]),
    );
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="pdt-report.csv"');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = parse(Buffer.from(bytes), { bom: true }) as string[][];
    expect(records).toEqual([
      ["Company Name", "Comments", "Total Value (USD)"],
      ["Société Générique", '\'=HYPERLINK("x")', "12.5"],
      ["上海医药", "'+1 call", ""],
      ["Tab\tCo", "'-2", "0"],
      ["'@home", "'\rreturn", "3"],
    ]);
  });

  it("xlsx: the same rows in one sheet, formulas neutralised", async () => {
    const response = xlsxResponse("pdt-report.xlsx", "PDT", columns, rowsOf([["上海医药", "=1+1", 7]]));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await response.arrayBuffer()) as ExcelJS.Buffer);
    const sheet = workbook.getWorksheet("PDT")!;
    expect(sheet.getRow(1).values).toEqual([undefined, "Company Name", "Comments", "Total Value (USD)"]);
    expect(sheet.getRow(2).values).toEqual([undefined, "上海医药", "'=1+1", 7]);
  });

  it("batched: every row of a keyset query, batch after batch, ending with a short batch", async () => {
    const all = Array.from({ length: DOWNLOAD_BATCH_ROWS * 2 + 5 }, (_, index) => ({ id: index + 1 }));
    const calls: (number | null)[] = [];
    const fetch = async (after: number | null) => {
      calls.push(after);
      return all.filter((row) => row.id > (after ?? 0)).slice(0, DOWNLOAD_BATCH_ROWS);
    };
    const seen: number[] = [];
    for await (const row of batched(fetch, (row) => row.id)) seen.push(row.id);
    expect(seen).toEqual(all.map((row) => row.id));
    expect(calls).toEqual([null, DOWNLOAD_BATCH_ROWS, DOWNLOAD_BATCH_ROWS * 2]);
  });
});

describe("the consolidated query contract", () => {
  const schema = z.object({ ...baseQuery, partner: idFilter });
  it("reads the query string; values a link cannot mean fall back to none", () => {
    expect(readQuery(schema, new URL("http://x/r?page=3&partner=12&quarter=Q2%202026&dir=desc"))).toEqual({
      page: 3,
      partner: 12,
      quarter: "Q2 2026",
      dir: "desc",
    });
    expect(readQuery(schema, new URL("http://x/r?page=x&partner=-1&dir=up&quarter=%20"))).toEqual({ page: 1, dir: "asc" });
    expect(readQuery(schema, new URL("http://x/r?partner=99999999999"))).toEqual({ page: 1, dir: "asc" });
  });
  it("a page past the end is the last page; an empty result has one page", () => {
    expect(pageWindow(9, 120, 50)).toEqual({ page: 3, pages: 3, offset: 100, limit: 50 });
    expect(pageWindow(1, 0, 50)).toEqual({ page: 1, pages: 1, offset: 0, limit: 50 });
  });
  it("links keep only the values set", () => {
    expect(queryHref("/admin/report/x", { page: 1, partner: 3, status: "", product: undefined })).toBe("/admin/report/x?partner=3");
    expect(queryHref("/admin/report/x", { page: 2 })).toBe("/admin/report/x?page=2");
  });
});

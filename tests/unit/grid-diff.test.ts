import { describe, expect, it } from "vitest";
import { filingChanges, productKey } from "~/reports/filing/filing-grid-editor";
import { changedPdtRows, gridRow } from "~/reports/pdt/pdt-grid-editor";
import { changedRows } from "~/reports/sales/sales-grid-editor";
import { nextRowKey, type EditableRow } from "~/reports/frame/editable-grid";
import type { PdtGridRow } from "~/reports/pdt/model.server";
import { emptySalesRow } from "~/reports/sales/rows";

/** A saved API row as the grid loads it. */
const apiRow = (id: number, purchaser: string): EditableRow => ({
  ...emptySalesRow("API"),
  id,
  _key: nextRowKey(),
  year: "2026",
  month: "March",
  country: "Kenya",
  purchaser,
  quantity: "10",
  totalValue: "100",
});

describe("the Sales grid posts only what changed", () => {
  it("a one-cell edit of a large report posts that row alone, with its grid position", () => {
    const loadedRows = Array.from({ length: 12_000 }, (_, index) => apiRow(index + 1, `Buyer ${index}`));
    const loaded = new Map(loadedRows.map((row) => [row.id as number, row as Record<string, unknown>]));
    const edited = loadedRows.map((row) => (row.id === 5_000 ? { ...row, purchaser: "New buyer" } : row));
    const padded = [...edited, { ...emptySalesRow("API"), _key: nextRowKey() }];
    const { inputs, positions } = changedRows("API", padded, loaded);
    expect(inputs).toHaveLength(1);
    expect(inputs[0]).toMatchObject({ id: 5_000, purchaser: "New buyer", country: "Kenya" });
    expect(positions).toEqual([4_999]);
    expect(JSON.stringify(inputs).length).toBeLessThan(10 * 1024);
  });

  it("new rows with a value are posted at their positions; empty padding rows are not; an emptied saved row is posted (to be deleted)", () => {
    const saved = apiRow(7, "Old buyer");
    const loaded = new Map([[7, saved as Record<string, unknown>]]);
    const emptied = { ...emptySalesRow("API"), id: 7, _key: saved._key };
    const typed = { ...emptySalesRow("API"), _key: nextRowKey(), purchaser: "Typed buyer" };
    const padding = { ...emptySalesRow("API"), _key: nextRowKey() };
    const { inputs, positions } = changedRows("API", [emptied, padding, typed, padding], loaded);
    expect(positions).toEqual([0, 2]);
    expect(inputs[0]).toMatchObject({ id: 7, purchaser: "" });
    expect(inputs[1]).toMatchObject({ purchaser: "Typed buyer" });
    expect(inputs[1].id).toBeUndefined();
  });
});

describe("the timeline grid posts only the changed rows, each with its product's status", () => {
  const row = (stageId: number, endDate: string | null): PdtGridRow => ({
    id: 40 + stageId,
    productId: 3,
    productName: "Dolutegravir API",
    category: "API",
    stageId,
    stageName: `Stage ${stageId}`,
    status: "UNDER_DEVELOPMENT",
    notes: "",
    startDate: "2026-01-05",
    endDate,
    previous: null,
    slip: { start: null, end: null },
    history: {},
  });
  it("an unchanged grid posts nothing; a changed date posts its row as typed (the loaded dates as ISO)", () => {
    const loaded = [row(1, "2026-03-31"), row(2, null)];
    const grid = loaded.map(gridRow);
    expect(changedPdtRows(grid, grid)).toEqual([]);
    const edited = [grid[0], { ...grid[1], endDate: "7/1/2026" }];
    expect(changedPdtRows(edited, grid)).toEqual([
      { productId: 3, stageId: 2, status: "UNDER_DEVELOPMENT", notes: "", startDate: "2026-01-05", endDate: "7/1/2026" },
    ]);
  });
  it("a status typed as its label is posted as the status", () => {
    const grid = [gridRow(row(1, null))];
    expect(changedPdtRows([{ ...grid[0], status: "on hold" }], grid)[0].status).toBe("ON_HOLD");
  });
});

describe("the filing grid posts the map country → product → status of the changed cells", () => {
  it("an emptied cell is posted as '0'; unchanged cells are left out", () => {
    const products = [{ id: 11 }, { id: 12 }];
    const loaded: EditableRow[] = [
      { _key: 1, countryId: 101, country: "India", [productKey(11)]: "Filed", [productKey(12)]: "0" },
      { _key: 2, countryId: 102, country: "Kenya", [productKey(11)]: "Registered", [productKey(12)]: "Q1 2027" },
    ];
    expect(filingChanges(loaded, loaded, products)).toEqual({ cells: {}, count: 0 });
    const edited = [
      { ...loaded[0], [productKey(12)]: "Filing-Planned" },
      { ...loaded[1], [productKey(11)]: "0" },
    ];
    expect(filingChanges(edited, loaded, products)).toEqual({ cells: { "101": { "12": "Filing-Planned" }, "102": { "11": "0" } }, count: 2 });
  });
});

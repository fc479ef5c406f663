import { describe, expect, it } from "vitest";
import { FILING_EMPTY, filingStatusOptions, normaliseFilingCell, plannedFilingQuarters } from "~/reports/filing/statuses";

const BASE = ["Filed", "Registered", "Filing-Planned", "Not Planned"] as const;

describe("plannedFilingQuarters", () => {
  it("names the four quarters after the open one, across a year boundary", () => {
    expect(plannedFilingQuarters({ year: 2026, quarter: 4 })).toEqual(["Q1 2027", "Q2 2027", "Q3 2027", "Q4 2027"]);
    expect(plannedFilingQuarters({ year: 2027, quarter: 1 })).toEqual(["Q2 2027", "Q3 2027", "Q4 2027", "Q1 2028"]);
    expect(plannedFilingQuarters({ year: 2026, quarter: 2 })).toEqual(["Q3 2026", "Q4 2026", "Q1 2027", "Q2 2027"]);
  });
});

describe("filingStatusOptions", () => {
  it("puts the base statuses first, then the planned quarters", () => {
    expect(filingStatusOptions(BASE, { year: 2026, quarter: 4 })).toEqual([
      "Filed",
      "Registered",
      "Filing-Planned",
      "Not Planned",
      "Q1 2027",
      "Q2 2027",
      "Q3 2027",
      "Q4 2027",
    ]);
  });

  it("rolls when the open quarter moves on", () => {
    const options = filingStatusOptions(BASE, { year: 2027, quarter: 1 });
    expect(options).not.toContain("Q1 2027");
    expect(options.slice(-4)).toEqual(["Q2 2027", "Q3 2027", "Q4 2027", "Q1 2028"]);
  });
});

describe("normaliseFilingCell", () => {
  const options = filingStatusOptions(BASE, { year: 2026, quarter: 4 });

  it("reads blank and 0 as the empty cell", () => {
    expect(FILING_EMPTY).toBe("0");
    expect(normaliseFilingCell("", options)).toEqual({ ok: true, value: "0" });
    expect(normaliseFilingCell("   \t", options)).toEqual({ ok: true, value: "0" });
    expect(normaliseFilingCell("0", options)).toEqual({ ok: true, value: "0" });
    expect(normaliseFilingCell(" 0 ", options)).toEqual({ ok: true, value: "0" });
  });

  it("matches an option whatever its case and returns its own spelling", () => {
    expect(normaliseFilingCell("filed", options)).toEqual({ ok: true, value: "Filed" });
    expect(normaliseFilingCell("  NOT PLANNED ", options)).toEqual({ ok: true, value: "Not Planned" });
    expect(normaliseFilingCell("filing-planned", options)).toEqual({ ok: true, value: "Filing-Planned" });
    expect(normaliseFilingCell("q3 2027", options)).toEqual({ ok: true, value: "Q3 2027" });
  });

  it("refuses anything else", () => {
    expect(normaliseFilingCell("Approved", options)).toEqual({ ok: false });
    expect(normaliseFilingCell("Filing Planned", options)).toEqual({ ok: false });
    expect(normaliseFilingCell("Q4 2026", options)).toEqual({ ok: false });
    expect(normaliseFilingCell("Q1 2028", options)).toEqual({ ok: false });
    expect(normaliseFilingCell("00", options)).toEqual({ ok: false });
  });
});

import { describe, it, expect } from "vitest";
import {
  formatPdtDate,
  INVALID_DATA_HINT,
  INVALID_DATA_TITLE,
  isAmbiguousPdtDate,
  namedPdtDate,
  normalisePdtRow,
  normalisePdtStatus,
  parsePdtDate,
  PDT_COLUMN_LABELS,
  PDT_STATUSES,
  slipDays,
  type PdtCells,
} from "~/reports/pdt/rows";
import { VALIDATION_DIALOG_TITLE } from "~/reports/frame/contract";
import { TEXT_MAX } from "~/utils/text-rules";

const row = (cells: Partial<PdtCells>): PdtCells => ({ status: "PLANNED", notes: "", startDate: "", endDate: "", ...cells });

describe("parsePdtDate", () => {
  it("reads M/D/YYYY and MM/DD/YYYY", () => {
    expect(parsePdtDate("1/5/2026")).toEqual({ ok: true, value: "2026-01-05" });
    expect(parsePdtDate("01/05/2026")).toEqual({ ok: true, value: "2026-01-05" });
    expect(parsePdtDate("12/31/2026")).toEqual({ ok: true, value: "2026-12-31" });
    expect(parsePdtDate("1/15/2026")).toEqual({ ok: true, value: "2026-01-15" });
  });

  it("reads the ISO form a date input posts", () => {
    expect(parsePdtDate("2026-03-09")).toEqual({ ok: true, value: "2026-03-09" });
    expect(parsePdtDate("  2026-03-09 ")).toEqual({ ok: true, value: "2026-03-09" });
  });

  it("refuses dates that are not on the calendar", () => {
    for (const text of ["2/30/2026", "13/1/2026", "0/1/2026", "1/0/2026", "2/29/2027", "4/31/2026", "2026-02-30", "2026-13-01"]) {
      expect(parsePdtDate(text), text).toEqual({ ok: false });
    }
    expect(parsePdtDate("2/29/2028")).toEqual({ ok: true, value: "2028-02-29" });
    expect(parsePdtDate("2/29/2000")).toEqual({ ok: true, value: "2000-02-29" });
    expect(parsePdtDate("2/29/1900")).toEqual({ ok: false });
  });

  it("refuses other shapes and years out of range", () => {
    for (const text of ["1-5-2026", "1/5/26", "2026/01/05", "001/5/2026", "1/5/2026x", "5 Jan 2026", "2026-1-5", "1/5/1899", "1/1/2201", "abc"]) {
      expect(parsePdtDate(text), text).toEqual({ ok: false });
    }
    expect(parsePdtDate("1/1/1900")).toEqual({ ok: true, value: "1900-01-01" });
    expect(parsePdtDate("12/31/2200")).toEqual({ ok: true, value: "2200-12-31" });
  });

  it("clears the date on empty input or a single space", () => {
    expect(parsePdtDate("")).toEqual({ ok: true, value: null });
    expect(parsePdtDate(" ")).toEqual({ ok: true, value: null });
    expect(parsePdtDate(" \t ")).toEqual({ ok: true, value: null });
  });
});

describe("isAmbiguousPdtDate", () => {
  it("flags an M/D/YYYY whose day and month could swap: both 12 or less and different", () => {
    for (const text of ["05/11/2026", "5/11/2026", " 11/5/2026 ", "1/12/2026", "12/1/2026"]) expect(isAmbiguousPdtDate(text), text).toBe(true);
    // It is still read month first.
    expect(parsePdtDate("05/11/2026")).toEqual({ ok: true, value: "2026-05-11" });
  });

  it("leaves alone what reads only one way: a day over 12, the same day and month, ISO", () => {
    for (const text of ["5/13/2026", "12/31/2026", "7/7/2026", "07/07/2026", "2026-05-11", "2026-11-05"]) expect(isAmbiguousPdtDate(text), text).toBe(false);
  });

  it("leaves alone what is refused, and empty cells", () => {
    for (const text of ["13/5/2026", "5/11/1899", "5/11/26", "0/5/2026", "", " ", "May 11"]) expect(isAmbiguousPdtDate(text), text).toBe(false);
  });
});

describe("namedPdtDate", () => {
  it("names the month in the page's language, the day never moved by a time zone", () => {
    expect(namedPdtDate("2026-05-11", "en")).toBe("11 May 2026");
    expect(namedPdtDate("2026-05-11", "fr")).toBe("11 mai 2026");
    expect(namedPdtDate("2026-11-05", "es")).toBe("5 de noviembre de 2026");
    expect(namedPdtDate("2026-11-05", "it")).toBe("5 novembre 2026");
    expect(namedPdtDate("2026-05-11", "zh")).toBe("2026年5月11日");
    expect(namedPdtDate("2026-01-01", "en")).toBe("1 January 2026");
    expect(namedPdtDate("2026-12-31T00:00:00.000Z", "en")).toBe("31 December 2026");
  });

  it("is empty when there is no date", () => {
    expect(namedPdtDate(null, "en")).toBe("");
    expect(namedPdtDate(undefined, "fr")).toBe("");
    expect(namedPdtDate("not a date", "en")).toBe("");
  });
});

describe("formatPdtDate", () => {
  it("writes MM/DD/YYYY, zero-padded", () => {
    expect(formatPdtDate("2026-01-05")).toBe("01/05/2026");
    expect(formatPdtDate("2028-02-29")).toBe("02/29/2028");
    expect(formatPdtDate("2026-12-31T00:00:00.000Z")).toBe("12/31/2026");
  });

  it("writes nothing for no date", () => {
    expect(formatPdtDate(null)).toBe("");
    expect(formatPdtDate(undefined)).toBe("");
    expect(formatPdtDate("")).toBe("");
    expect(formatPdtDate("not a date")).toBe("");
  });

  it("round-trips with parsePdtDate", () => {
    const parsed = parsePdtDate(formatPdtDate("2031-07-04"));
    expect(parsed).toEqual({ ok: true, value: "2031-07-04" });
  });
});

describe("slipDays", () => {
  it("counts whole days, positive when the plan moved later", () => {
    expect(slipDays("2026-01-30", "2026-02-02")).toBe(3);
    expect(slipDays("2026-02-02", "2026-01-30")).toBe(-3);
    expect(slipDays("2026-05-01", "2026-05-01")).toBe(0);
  });

  it("crosses a year and a leap day", () => {
    expect(slipDays("2025-12-31", "2026-01-01")).toBe(1);
    expect(slipDays("2028-02-28", "2028-03-01")).toBe(2);
    expect(slipDays("2027-02-28", "2027-03-01")).toBe(1);
    expect(slipDays("2026-01-01", "2027-01-01")).toBe(365);
    expect(slipDays("2028-01-01", "2029-01-01")).toBe(366);
  });

  it("does not drift across a daylight saving change", () => {
    expect(slipDays("2026-03-28", "2026-03-30")).toBe(2);
    expect(slipDays("2026-10-24", "2026-10-26")).toBe(2);
  });

  it("is null when either date is missing", () => {
    expect(slipDays(null, "2026-01-01")).toBeNull();
    expect(slipDays("2026-01-01", null)).toBeNull();
    expect(slipDays(null, null)).toBeNull();
  });
});

describe("normalisePdtStatus", () => {
  it("accepts the codes in any case, with spaces for underscores", () => {
    expect(normalisePdtStatus("PLANNED")).toBe("PLANNED");
    expect(normalisePdtStatus("  planned ")).toBe("PLANNED");
    expect(normalisePdtStatus("under development")).toBe("UNDER_DEVELOPMENT");
    expect(normalisePdtStatus("Under_Development")).toBe("UNDER_DEVELOPMENT");
    expect(normalisePdtStatus("on hold")).toBe("ON_HOLD");
  });

  it("accepts the English labels", () => {
    expect(normalisePdtStatus("Under Development")).toBe("UNDER_DEVELOPMENT");
    expect(normalisePdtStatus("On Hold")).toBe("ON_HOLD");
    expect(normalisePdtStatus("Approved")).toBe("APPROVED");
  });

  it("refuses anything else", () => {
    for (const text of ["", " ", "PLAN", "underdevelopment", "done", "FILED!"]) expect(normalisePdtStatus(text), text).toBeNull();
  });

  it("knows every status", () => {
    expect(PDT_STATUSES).toEqual(["PLANNED", "UNDER_DEVELOPMENT", "ON_HOLD", "DROPPED", "FILED", "APPROVED"]);
    for (const status of PDT_STATUSES) expect(normalisePdtStatus(status.toLowerCase())).toBe(status);
  });
});

describe("normalisePdtRow", () => {
  it("returns a row ready to store", () => {
    expect(normalisePdtRow({ status: "filed", notes: "  Dossier sent  ", startDate: "1/5/2026", endDate: "2026-06-30" })).toEqual({
      ok: true,
      row: { status: "FILED", notes: "Dossier sent", startDate: "2026-01-05", endDate: "2026-06-30" },
    });
  });

  it("turns empty notes and cleared dates into null", () => {
    expect(normalisePdtRow(row({ notes: "   ", startDate: " ", endDate: "" }))).toEqual({
      ok: true,
      row: { status: "PLANNED", notes: null, startDate: null, endDate: null },
    });
  });

  it("requires a status from the list", () => {
    expect(normalisePdtRow(row({ status: "" }))).toEqual({ ok: false, invalid: ["status"] });
    expect(normalisePdtRow(row({ status: "Finished" }))).toEqual({ ok: false, invalid: ["status"] });
  });

  it("reads M/D/YYYY and ISO alike", () => {
    expect(normalisePdtRow(row({ startDate: "05/11/2026", endDate: "2026-05-11" }))).toEqual({
      ok: true,
      row: { status: "PLANNED", notes: null, startDate: "2026-05-11", endDate: "2026-05-11" },
    });
  });

  it("marks invalid dates", () => {
    expect(normalisePdtRow(row({ startDate: "2/30/2026", endDate: "13/1/2026" }))).toEqual({ ok: false, invalid: ["startDate", "endDate"] });
  });

  it("refuses an end date before its start date, but accepts the same day", () => {
    expect(normalisePdtRow(row({ startDate: "3/1/2026", endDate: "2/28/2026" }))).toEqual({ ok: false, invalid: ["endDate"] });
    expect(normalisePdtRow(row({ startDate: "3/1/2026", endDate: "3/1/2026" })).ok).toBe(true);
    expect(normalisePdtRow(row({ startDate: "", endDate: "2/28/2026" })).ok).toBe(true);
    expect(normalisePdtRow(row({ startDate: "3/1/2026", endDate: "" })).ok).toBe(true);
  });

  it("refuses notes that are too long or hold control characters", () => {
    expect(normalisePdtRow(row({ notes: "x".repeat(TEXT_MAX.note) })).ok).toBe(true);
    expect(normalisePdtRow(row({ notes: "x".repeat(TEXT_MAX.note + 1) }))).toEqual({ ok: false, invalid: ["notes"] });
    expect(normalisePdtRow(row({ notes: "a\u0000b" }))).toEqual({ ok: false, invalid: ["notes"] });
    expect(normalisePdtRow(row({ notes: "line one\nline two\ttab" })).ok).toBe(true);
  });

  it("lists every invalid column in column order", () => {
    expect(normalisePdtRow({ status: "x", notes: "\u0007", startDate: "x", endDate: "y" })).toEqual({
      ok: false,
      invalid: ["status", "notes", "startDate", "endDate"],
    });
  });
});

describe("labels and messages", () => {
  it("names the columns", () => {
    expect(PDT_COLUMN_LABELS).toEqual({ status: "Status", notes: "Notes", startDate: "Start Date", endDate: "End Date" });
  });

  it("shares the 'Invalid data!' title with the sales grids", () => {
    expect(INVALID_DATA_TITLE).toBe("Invalid data!");
    expect(INVALID_DATA_TITLE).toBe(VALIDATION_DIALOG_TITLE);
    expect(INVALID_DATA_HINT).toBe("Please input valid entries!");
  });
});

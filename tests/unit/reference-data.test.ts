import { describe, it, expect } from "vitest";
import { API_STAGES, COUNTRIES, CURRENCIES, FDF_STAGES, FORMULATION_TYPES, MONTHS, REGIONS, THERAPY_AREAS } from "../../app/db/reference-data";

describe("COUNTRIES", () => {
  it("contains at least 240 entries", () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(240);
  });

  it("has unique two-letter ISO codes", () => {
    const codes = COUNTRIES.map((c) => c.isoCode);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[A-Z]{2}$/);
  });

  it("has unique, non-empty names sorted by name", () => {
    const names = COUNTRIES.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name.trim()).not.toBe("");
    const sorted = [...names].sort((a, b) => a.localeCompare(b, "en"));
    expect(names).toEqual(sorted);
  });

  it("has well-formed calling codes", () => {
    for (const c of COUNTRIES) expect(c.callingCode, c.isoCode).toMatch(/^\+\d{1,4}$/);
  });

  it("has India as +91 and the United States as +1", () => {
    expect(COUNTRIES.find((c) => c.isoCode === "IN")).toEqual({
      isoCode: "IN",
      name: "India",
      callingCode: "+91",
    });
    const us = COUNTRIES.find((c) => c.isoCode === "US");
    expect(us?.name).toBe("United States");
    expect(us?.callingCode).toBe("+1");
    expect(COUNTRIES.find((c) => c.isoCode === "GB")?.callingCode).toBe("+44");
  });
});

describe("CURRENCIES", () => {
  it("contains at least 140 entries", () => {
    expect(CURRENCIES.length).toBeGreaterThanOrEqual(140);
  });

  it("has unique three-letter codes sorted by code", () => {
    const codes = CURRENCIES.map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[A-Z]{3}$/);
    expect(codes).toEqual([...codes].sort());
  });

  it("has USD at exactly 1", () => {
    expect(CURRENCIES.find((c) => c.code === "USD")?.usdRate).toBe("1");
  });

  it("has positive, finite, plain-decimal usdRate strings", () => {
    for (const c of CURRENCIES) {
      expect(typeof c.usdRate, c.code).toBe("string");
      expect(c.usdRate, c.code).toMatch(/^\d+(\.\d+)?$/);
      const n = Number(c.usdRate);
      expect(Number.isFinite(n), c.code).toBe(true);
      expect(n, c.code).toBeGreaterThan(0);
    }
  });
});

describe("stages and enumerations", () => {
  it("has 12 FDF stages in order", () => {
    expect(FDF_STAGES).toHaveLength(12);
    expect(FDF_STAGES[0]).toBe("Development set-up");
    expect(FDF_STAGES[FDF_STAGES.length - 1]).toBe("WHO-PQ Approval (FDF)");
    expect(new Set(FDF_STAGES).size).toBe(FDF_STAGES.length);
  });

  it("has 13 API stages in order", () => {
    expect(API_STAGES).toHaveLength(13);
    expect(API_STAGES[0]).toBe("Investigation and route selection");
    expect(API_STAGES[API_STAGES.length - 1]).toBe("WHO-PQ Approval (API)");
    expect(new Set(API_STAGES).size).toBe(API_STAGES.length);
  });

  it("has 5 formulation types", () => {
    expect(FORMULATION_TYPES).toHaveLength(5);
    expect(FORMULATION_TYPES).toContain("Tablet");
  });

  it("has the expected therapy areas, regions and months", () => {
    expect(THERAPY_AREAS).toEqual(["HIV", "HCV", "HBV"]);
    expect(REGIONS).toHaveLength(7);
    expect(MONTHS).toHaveLength(12);
    expect(MONTHS[0]).toBe("January");
    expect(MONTHS[11]).toBe("December");
  });
});

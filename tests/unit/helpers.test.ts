import { afterEach, describe, expect, it } from "vitest";
import { formatDate, formatDateTime } from "~/utils/dates";
import { DEFAULT_DISPLAY, parseDisplaySettings } from "~/utils/display";
import { navigationFor } from "~/utils/navigation";
import { addQuarters, parseQuarterName, quarterBounds, quarterName, quarterOf } from "~/utils/quarters";
import { portalNow } from "~/utils/today.server";

describe("quarters", () => {
  it("names calendar quarters Q{n} {yyyy}", () => {
    expect(quarterName(quarterOf(new Date("2026-01-01T00:00:00Z")))).toBe("Q1 2026");
    expect(quarterName(quarterOf(new Date("2026-03-31T23:59:59Z")))).toBe("Q1 2026");
    expect(quarterName(quarterOf(new Date("2026-11-22T12:00:00Z")))).toBe("Q4 2026");
    expect(parseQuarterName("Q3 2026")).toEqual({ year: 2026, quarter: 3 });
    expect(parseQuarterName("Q5 2026")).toBeNull();
  });

  it("steps across years and knows each quarter's first and last day", () => {
    expect(addQuarters({ year: 2026, quarter: 4 }, 1)).toEqual({ year: 2027, quarter: 1 });
    expect(addQuarters({ year: 2026, quarter: 1 }, -1)).toEqual({ year: 2025, quarter: 4 });
    expect(addQuarters({ year: 2026, quarter: 2 }, -9)).toEqual({ year: 2024, quarter: 1 });
    expect(quarterBounds({ year: 2024, quarter: 1 })).toEqual({ startDate: "2024-01-01", endDate: "2024-03-31" });
    expect(quarterBounds({ year: 2026, quarter: 4 })).toEqual({ startDate: "2026-10-01", endDate: "2026-12-31" });
  });
});

describe("PORTAL_TODAY", () => {
  afterEach(() => {
    delete process.env.PORTAL_TODAY;
  });
  it("overrides today's date", () => {
    process.env.PORTAL_TODAY = "2025-02-14";
    expect(portalNow().toISOString().slice(0, 10)).toBe("2025-02-14");
  });
  it("rejects a malformed value", () => {
    process.env.PORTAL_TODAY = "14-02-2025";
    expect(() => portalNow()).toThrow(/YYYY-MM-DD/);
  });
});

describe("date formats", () => {
  it("shows report times as 'Do MMM YYYY, hh:mm A' and dates as DD-MM-YYYY", () => {
    expect(formatDateTime(new Date("2026-03-01T14:05:00Z"))).toBe("1st Mar 2026, 02:05 PM");
    expect(formatDateTime("2026-11-22T09:30:00Z")).toBe("22nd Nov 2026, 09:30 AM");
    expect(formatDate("2026-04-15")).toBe("15-04-2026");
    expect(formatDateTime(null)).toBe("");
  });
});

describe("display settings", () => {
  it("keeps known values and falls back for the rest", () => {
    expect(parseDisplaySettings({ theme: "dark", navStyle: "default", layoutType: "boxed" }, DEFAULT_DISPLAY)).toEqual({
      theme: "dark",
      navStyle: "default",
      layoutType: "boxed",
    });
    expect(parseDisplaySettings({ theme: "neon" }, DEFAULT_DISPLAY)).toEqual(DEFAULT_DISPLAY);
  });
});

describe("sidebar", () => {
  const labels = (role: Parameters<typeof navigationFor>[0]) =>
    navigationFor(role).flatMap((item) => ("children" in item ? [item.label, ...item.children.map((c) => c.label)] : [item.label]));

  it("gives admins and staff the admin menu with settings, and partners no settings", () => {
    expect(labels("ADMIN")).toEqual([
      "Dashboard",
      "Partner List",
      "Product List",
      "Reports",
      "Development Timeline",
      "Filing Plans",
      "Sales Report",
      "Partner Performance",
      "User Profile",
      "Profile",
      "Settings",
      "Change Password",
    ]);
    expect(labels("STAFF")).toEqual(labels("ADMIN"));
    expect(labels("PARTNER")).not.toContain("Settings");
    expect(labels("PARTNER")).toContain("Sales Report");
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatMonthName, formatPeriod } from "~/utils/dates";
import { DEFAULT_DISPLAY, parseDisplaySettings } from "~/utils/display";
import { countryName, formatNumber, sortByLabel } from "~/utils/locale-format";
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

  it("keeps DD-MM-YYYY in every language, and writes times with the language's month names and day periods", () => {
    for (const locale of ["en", "fr", "es", "zh", "ar", "it"]) expect(formatDate("2026-04-15", locale), locale).toBe("15-04-2026");
    expect(formatDateTime("2026-09-03T15:04:00Z", "fr")).toBe("3 sept. 2026, 03:04 PM");
    expect(formatDateTime("2026-09-03T15:04:00Z", "es")).toBe("3 sept 2026, 03:04 p. m.");
    expect(formatDateTime("2026-09-03T15:04:00Z", "it")).toBe("3 set 2026, 03:04 PM");
    expect(formatDateTime("2026-09-03T15:04:00Z", "zh")).toBe("2026年9月3日 下午03:04");
    expect(formatDateTime("2026-09-03T15:04:00Z", "ar")).toBe("3 سبتمبر 2026، 03:04 م");
  });

  it("names a sales month in the language; years and quarters stay as they are", () => {
    expect(formatPeriod("2026-07", "en")).toBe("Jul 2026");
    expect(formatPeriod("2026-07", "fr")).toBe("juil. 2026");
    expect(formatPeriod("2026-07", "zh")).toBe("2026年7月");
    expect(formatPeriod("2026-07", "ar")).toBe("يوليو 2026");
    expect(formatPeriod("2026", "fr")).toBe("2026");
    expect(formatPeriod("Q3 2026", "ar")).toBe("Q3 2026");
  });

  it("names a month stored in English in the language", () => {
    expect(formatMonthName("July", "en")).toBe("July");
    expect(formatMonthName("July", "fr")).toBe("juillet");
    expect(formatMonthName("February", "es")).toBe("febrero");
    expect(formatMonthName("December", "it")).toBe("dicembre");
    expect(formatMonthName("March", "zh")).toBe("三月");
    expect(formatMonthName("Smarch", "fr")).toBe("Smarch");
  });
});

describe("figures, countries and order in the page's language", () => {
  it("writes figures with the language's grouping and decimal sign", () => {
    expect(formatNumber(1234.5, "en")).toBe("1,234.5");
    // French groups thousands with a narrow no-break space.
    expect(formatNumber(1234.5, "fr")).toBe("1\u202f234,5");
    expect(formatNumber(1234567.5, "es")).toBe("1.234.567,5");
    expect(formatNumber(1234567.5, "it")).toBe("1.234.567,5");
    expect(formatNumber(1234.5, "zh")).toBe("1,234.5");
    // Arabic as Intl writes it (this ICU keeps Latin digits for plain 'ar').
    expect(formatNumber(1234.5, "ar")).toBe(new Intl.NumberFormat("ar").format(1234.5));
    expect(formatNumber(2.345, "en")).toBe("2.35");
  });

  it("keeps a decimal string exact, with its own number of decimals", () => {
    expect(formatNumber("98765432109876543.21", "en")).toBe("98,765,432,109,876,543.21");
    expect(formatNumber("12.50", "fr")).toBe("12,50");
    expect(formatNumber("-1200", "it")).toBe("-1200");
    expect(formatNumber("Not given", "fr")).toBe("Not given");
    expect(formatNumber(null, "fr")).toBe("");
  });

  it("names countries from CLDR by their ISO code, and leaves unknown names alone", () => {
    expect(countryName("South Africa", "en")).toBe("South Africa");
    expect(countryName("South Africa", "fr")).toBe("Afrique du Sud");
    expect(countryName("Germany", "ar")).toBe("ألمانيا");
    expect(countryName("India", "zh")).toBe("印度");
    expect(countryName("Côte d'Ivoire", "it")).toBe("Costa d’Avorio");
    expect(countryName("Atlantis", "fr")).toBe("Atlantis");
  });

  it("sorts by the shown name with the language's collation", () => {
    const countries = ["Egypt", "Uganda", "Brazil", "Vietnam"];
    expect(sortByLabel(countries, (name) => countryName(name, "fr"), "fr").map((name) => countryName(name, "fr"))).toEqual([
      "Brésil",
      "Égypte",
      "Ouganda",
      "Viêt Nam",
    ]);
    // Spanish sorts ñ after n (code points would put it after z).
    expect(sortByLabel(["zeta", "ñu", "oso", "nube"], (word) => word, "es")).toEqual(["nube", "ñu", "oso", "zeta"]);
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

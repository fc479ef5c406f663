import { renderToStaticMarkup } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { BarChart, type BarChartProps } from "~/components/charts/bar-chart";
import { LineChart, type LineChartProps } from "~/components/charts/line-chart";
import { WorldMap, type WorldMapProps } from "~/components/charts/world-map";
import { WORLD_MAP_VIEWBOX, worldMapSvg } from "~/models/dashboard/world-map.server";

const guard = vi.hoisted(() => vi.fn(async (_request: Request) => ({ id: 1, role: "ADMIN" })));
vi.mock("~/utils/auth.server", () => ({ requireAdminOrStaff: guard }));

const quarters = ["Q1 2025", "Q2 2025", "Q3 2025", "Q4 2025"];

const barProps = (overrides: Partial<BarChartProps> = {}): BarChartProps => ({
  title: "Reports per quarter",
  description: "Most reports came in on time.",
  categories: quarters,
  series: [{ key: "units", label: "Units", values: [1200, null, 350.5, 0] }],
  direction: "ltr",
  locale: "en",
  ...overrides,
});

const twoSeries = [
  { key: "onTime", label: "On time", values: [3, 4, null, 6] },
  { key: "late", label: "Late", values: [1, null, null, 2] },
];

const lineProps = (overrides: Partial<LineChartProps> = {}): LineChartProps => ({
  title: "Price trend (USD)",
  description: "The price per pack fell.",
  categories: quarters,
  series: [{ key: "pack", label: "Price per pack", values: [2.5, 2.25, null, 1.75] }],
  direction: "ltr",
  locale: "en",
  ...overrides,
});

/** The marks of a chart (bars or points) in document order: category index, x, tooltip. */
function marks(html: string, kind: "bar" | "point") {
  const pattern =
    kind === "bar"
      ? /<rect class="chart__bar" data-category="(\d+)" x="([-\d.]+)"[^>]*><title>([^<]*)<\/title><\/rect>/g
      : /<path class="chart__point" data-category="(\d+)" transform="translate\(([-\d.]+),[-\d.]+\)"[^>]*><title>([^<]*)<\/title><\/path>/g;
  return [...html.matchAll(pattern)].map((match) => ({ category: Number(match[1]), x: Number(match[2]), title: match[3] }));
}

/** The text alternative: role="img", and aria-labelledby naming a <title> and a <desc> with the given texts. */
function expectTextAlternative(html: string, title: string, description: string) {
  const svg = /<svg class="(?:chart__svg|world-map__svg)" role="img" aria-labelledby="([^"]+)"/.exec(html);
  expect(svg).not.toBeNull();
  const [titleId, descId] = svg![1]!.split(" ");
  expect(html).toContain(`<title id="${titleId}">${title}</title>`);
  expect(html).toContain(`<desc id="${descId}">${description}</desc>`);
}

const bidi = /[\u2066-\u2069]/g;

describe("BarChart", () => {
  it("is a picture with a title and a description, and a visible caption", () => {
    const html = renderToStaticMarkup(<BarChart {...barProps()} />);
    expectTextAlternative(html, "Reports per quarter", "Most reports came in on time.");
    expect(html).toMatch(/<figcaption class="chart__caption" id="[^"]+">Reports per quarter<\/figcaption>/);
    expect(html).toContain('viewBox="0 0 640 240"');
    // Colours come from classes only.
    expect(html).not.toMatch(/\sfill=|\sstroke=|style=/);
  });

  it("draws one bar per value, each with its figure in a tooltip, and no legend for one series", () => {
    const html = renderToStaticMarkup(<BarChart {...barProps()} />);
    const bars = marks(html, "bar");
    expect(bars.map((bar) => bar.category)).toEqual([0, 2, 3]);
    expect(bars.map((bar) => bar.title)).toEqual(["Q1 2025 · Units: 1,200", "Q3 2025 · Units: 350.5", "Q4 2025 · Units: 0"]);
    expect(html).not.toContain("chart__legend");
  });

  it("writes ticks and tooltips the way the page's language writes numbers", () => {
    const html = renderToStaticMarkup(<BarChart {...barProps({ locale: "fr" })} />);
    const frenchThousand = new Intl.NumberFormat("fr").format(1200);
    expect(frenchThousand).toBe("1\u202f200");
    expect(marks(html, "bar").map((bar) => bar.title)).toEqual([`Q1 2025 · Units: ${frenchThousand}`, "Q3 2025 · Units: 350,5", "Q4 2025 · Units: 0"]);
    expect(html.replace(bidi, "")).toContain(`>${frenchThousand}</text>`);
  });

  it("uses the caller's number format", () => {
    const html = renderToStaticMarkup(<BarChart {...barProps({ formatValue: (value) => `$${value.toFixed(2)}` })} />);
    expect(marks(html, "bar")[0]!.title).toBe("Q1 2025 · Units: $1200.00");
    expect(html.replace(bidi, "")).toContain(">$0.00</text>");
  });

  it("groups several series side by side, with a legend", () => {
    const html = renderToStaticMarkup(<BarChart {...barProps({ series: twoSeries })} />);
    const bars = marks(html, "bar");
    expect(bars).toHaveLength(5);
    expect(bars.map((bar) => bar.title)).toContain("Q4 2025 · Late: 2");
    expect(html).toMatch(/<ul class="chart__legend">.*On time.*Late.*<\/ul>/);
    expect(html).toContain('class="chart__legend-item chart__series chart__series-1"');
    expect(html).toContain('class="chart__legend-item chart__series chart__series-2"');
    // Side by side: in Q1 the second series' bar is to the right of the first.
    const q1 = bars.filter((bar) => bar.category === 0);
    expect(q1[1]!.x).toBeGreaterThan(q1[0]!.x);
  });

  it("stacks the series in one bar per category when stacked", () => {
    const html = renderToStaticMarkup(<BarChart {...barProps({ series: twoSeries, stacked: true })} />);
    const bars = [...html.matchAll(/<rect class="chart__bar" data-category="0" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/g)].map((match) =>
      match.slice(1).map(Number),
    );
    expect(bars).toHaveLength(2);
    const [[x1, y1, w1, h1], [x2, y2, w2, h2]] = bars as [number[], number[]];
    expect([x2, w2]).toEqual([x1, w1]);
    // The second segment (1) sits on top of the first (3), a third of its height.
    expect(y2! + h2!).toBeCloseTo(y1!, 0);
    expect(h2! / h1!).toBeCloseTo(1 / 3, 1);
  });

  it("runs from right to left in rtl, with the value axis on the right and text not mirrored", () => {
    const ltr = marks(renderToStaticMarkup(<BarChart {...barProps()} />), "bar");
    const html = renderToStaticMarkup(<BarChart {...barProps({ direction: "rtl" })} />);
    const rtl = marks(html, "bar");
    expect(rtl.map((bar) => bar.category)).toEqual([0, 2, 3]);
    // The first category on the right, the last on the left.
    expect(rtl[0]!.x).toBeGreaterThan(rtl[2]!.x);
    expect(ltr[0]!.x).toBeLessThan(ltr[2]!.x);
    // Value axis: tick labels right of every bar.
    const tickX = [...html.matchAll(/<text class="chart__tick-label" x="([\d.]+)"/g)].map((match) => Number(match[1]));
    expect(tickX.length).toBeGreaterThan(1);
    for (const x of tickX) expect(x).toBeGreaterThan(Math.max(...rtl.map((bar) => bar.x)));
    expect(html).toContain('direction="rtl"');
    expect(html).not.toMatch(/scale\(-1/);
  });

  it("keeps 24 categories legible: labels rotated, all shown, each bar drawn", () => {
    const names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    const months = Array.from({ length: 24 }, (_, index) => `${names[index % 12]} ${2024 + Math.floor(index / 12)}`);
    const html = renderToStaticMarkup(
      <BarChart {...barProps({ categories: months, series: [{ key: "units", label: "Units", values: months.map((_, index) => index * 10) }] })} />,
    );
    expect(marks(html, "bar")).toHaveLength(24);
    const labels = [...html.matchAll(/<text class="chart__category-label" transform="translate\([\d.]+,[\d.]+\) rotate\(-45\)"/g)];
    expect(labels).toHaveLength(24);
  });

  it("shows only a short text when there is no value at all", () => {
    for (const props of [
      barProps({ categories: [], series: [] }),
      barProps({ series: [{ key: "units", label: "Units", values: [null, null, null, null] }] }),
    ]) {
      const html = renderToStaticMarkup(<BarChart {...props} />);
      expect(html).toContain("No data available!");
      expect(html).not.toContain("<svg");
    }
    const translated = renderToStaticMarkup(<BarChart {...barProps({ categories: [], emptyText: "لا توجد بيانات" })} />);
    expect(translated).toContain("لا توجد بيانات");
  });
});

describe("LineChart", () => {
  it("is a picture with a title and a description", () => {
    const html = renderToStaticMarkup(<LineChart {...lineProps()} />);
    expectTextAlternative(html, "Price trend (USD)", "The price per pack fell.");
    expect(html).not.toMatch(/\sfill=|\sstroke=|style=/);
  });

  it("draws a point per value with its figure, and a line broken where a value is missing", () => {
    const html = renderToStaticMarkup(<LineChart {...lineProps()} />);
    const points = marks(html, "point");
    expect(points.map((point) => point.category)).toEqual([0, 1, 3]);
    expect(points.map((point) => point.title)).toEqual(["Q1 2025 · Price per pack: 2.5", "Q2 2025 · Price per pack: 2.25", "Q4 2025 · Price per pack: 1.75"]);
    const line = /<path class="chart__line" d="([^"]+)"/.exec(html)![1]!;
    // Two runs: Q1–Q2, then Q4 alone (a gap for Q3).
    expect(line.match(/M/g)).toHaveLength(2);
    expect(html).not.toContain("chart__legend");
  });

  it("has a legend and a marker shape per series when there are several", () => {
    const html = renderToStaticMarkup(<LineChart {...lineProps({ series: twoSeries })} />);
    expect(marks(html, "point")).toHaveLength(5);
    expect(html).toMatch(/<ul class="chart__legend">.*On time.*Late.*<\/ul>/);
    const shape = (series: number) =>
      new RegExp(
        `chart__series-${series}"><path class="chart__line" d="[^"]*"></path><path class="chart__point" data-category="0" transform="[^"]+" d="([^"]+)"`,
      ).exec(html)![1];
    expect(shape(1)).not.toBe(shape(2));
  });

  it("runs from right to left in rtl", () => {
    const rtl = marks(renderToStaticMarkup(<LineChart {...lineProps({ direction: "rtl" })} />), "point");
    const ltr = marks(renderToStaticMarkup(<LineChart {...lineProps()} />), "point");
    expect(rtl[0]!.x).toBeGreaterThan(rtl[2]!.x);
    expect(ltr[0]!.x).toBeLessThan(ltr[2]!.x);
    // Mirror images of each other, give or take the value axis' width.
    expect(rtl[0]!.x).toBeGreaterThan(320);
  });

  it("shows only a short text when there is no value at all", () => {
    const series = [{ key: "pack", label: "Pack", values: [null, null, null, null] }];
    const html = renderToStaticMarkup(<LineChart {...lineProps({ series, emptyText: "Nothing yet" })} />);
    expect(html).toContain("Nothing yet");
    expect(html).not.toContain("<svg");
  });
});

describe("WorldMap", () => {
  const mapProps = (overrides: Partial<WorldMapProps> = {}): WorldMapProps => ({
    title: "Products per country",
    description: "India leads with 40 products.",
    countries: [
      { isoCode: "IN", name: "India", value: 40 },
      { isoCode: "BR", name: "Brazil", value: 21 },
      { isoCode: "ZA", name: "South Africa", value: 9 },
      { isoCode: "KE", name: "Kenya", value: 1 },
    ],
    geometryHref: "/admin/dashboard/world-map.svg",
    legendLabel: "Products filed",
    locale: "en",
    ...overrides,
  });

  it("is a picture with a title and a description, over the whole land as its base layer", () => {
    const html = renderToStaticMarkup(<WorldMap {...mapProps()} />);
    expectTextAlternative(html, "Products per country", "India leads with 40 products.");
    expect(html).toContain(`viewBox="${WORLD_MAP_VIEWBOX}"`);
    expect(html).toContain('<use href="/admin/dashboard/world-map.svg#land" class="world-map__land"></use>');
    expect(html).not.toMatch(/\sfill=|\sstroke=|style=|transform=/);
  });

  it("references one shape per country, each with its name and value, shaded by its value", () => {
    const html = renderToStaticMarkup(<WorldMap {...mapProps()} />);
    const pattern =
      /<g class="world-map__country"><title>([^<]+)<\/title><use href="\/admin\/dashboard\/world-map\.svg#([A-Z]{2})" class="world-map__shade-(\d)"/g;
    const uses = [...html.matchAll(pattern)];
    expect(uses.map((use) => [use[2], use[1], Number(use[3])])).toEqual([
      ["IN", "India: 40", 5],
      ["BR", "Brazil: 21", 3],
      ["ZA", "South Africa: 9", 2],
      ["KE", "Kenya: 1", 1],
    ]);
    expect(html.match(/<use /g)).toHaveLength(4 + 1);
  });

  it("grows the shade with the value", () => {
    const countries = Array.from({ length: 10 }, (_, index) => ({
      isoCode: `A${String.fromCharCode(65 + index)}`,
      name: `Country ${index}`,
      value: index * 11 + 1,
    }));
    const html = renderToStaticMarkup(<WorldMap {...mapProps({ countries })} />);
    const shades = [...html.matchAll(/class="world-map__shade-(\d)"/g)].map((match) => Number(match[1]));
    expect(shades).toHaveLength(10);
    expect(shades[0]).toBe(1);
    expect(shades.at(-1)).toBe(5);
    for (const [index, shade] of shades.entries()) if (index) expect(shade).toBeGreaterThanOrEqual(shades[index - 1]!);
  });

  it("has a legend of the five shades with their ranges and what they count", () => {
    const html = renderToStaticMarkup(<WorldMap {...mapProps()} />);
    expect(html).toContain("Products filed");
    const ranges = [...html.matchAll(/world-map__swatch--(\d)"[^>]*><\/span><bdi>([^<]+)<\/bdi>/g)].map((match) => [Number(match[1]), match[2]]);
    expect(ranges).toEqual([
      [1, "1–8"],
      [2, "9–16"],
      [3, "17–24"],
      [4, "25–32"],
      [5, "33–40"],
    ]);
  });

  it("is never mirrored in rtl pages", () => {
    const html = renderToStaticMarkup(<WorldMap {...mapProps()} />);
    expect(html).toContain('direction="ltr"');
    expect(html).not.toMatch(/scale\(-1/);
  });

  it("shows only a short text without countries", () => {
    const html = renderToStaticMarkup(<WorldMap {...mapProps({ countries: [], emptyText: "No filings yet" })} />);
    expect(html).toContain("No filings yet");
    expect(html).not.toContain("<svg");
    expect(renderToStaticMarkup(<WorldMap {...mapProps({ countries: [] })} />)).toContain("No data available!");
  });
});

describe("world map geometry", () => {
  const svg = worldMapSvg();

  it("is one standalone SVG document of every country, kept once per process", () => {
    expect(svg).toMatch(/^<\?xml[^>]*\?>\s*<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 960 500">/);
    expect(worldMapSvg()).toBe(svg);
    const ids = [...svg.matchAll(/<path id="([^"]+)" d="M[^"]+"\/>/g)].map((match) => match[1]);
    expect(ids).toHaveLength(177);
    expect(new Set(ids).size).toBe(ids.length);
    for (const code of ["IN", "BR", "ZA", "US", "CN", "AQ"]) expect(ids).toContain(code);
    expect(ids.filter((id) => id!.startsWith("land-"))).toHaveLength(3);
    expect(svg).toMatch(/<g id="land">\s*<path/);
  });

  it("is small and carries no colours of its own", () => {
    expect(Buffer.byteLength(svg)).toBeLessThan(150 * 1024);
    expect(svg).not.toMatch(/fill|stroke|style/);
    // One decimal at most.
    expect(svg).not.toMatch(/\d\.\d\d/);
  });
});

describe("GET /admin/dashboard/world-map.svg", () => {
  beforeEach(() => guard.mockClear());

  const get = async (headers: Record<string, string> = {}) => {
    const { loader } = await import("~/routes/admin.dashboard.world-map[.]svg");
    const request = new Request("http://localhost/admin/dashboard/world-map.svg", { headers });
    return { response: await loader({ request, params: {}, context: { requestId: "test", cspNonce: "nonce", clientIp: "127.0.0.1" } }), request };
  };

  it("serves the geometry to ADMIN and STAFF, cacheable for a day with an ETag", async () => {
    const { response, request } = await get();
    expect(guard).toHaveBeenCalledWith(request);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^image\/svg\+xml/);
    expect(response.headers.get("Cache-Control")).toBe("private, max-age=86400");
    expect(response.headers.get("ETag")).toMatch(/^"[0-9a-f]{40}"$/);
    expect(await response.text()).toBe(worldMapSvg());
  });

  it("answers 304 to a matching If-None-Match, and the whole document otherwise", async () => {
    const etag = (await get()).response.headers.get("ETag")!;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const { response } = await get({ "If-None-Match": header });
      expect(response.status).toBe(304);
      expect(response.headers.get("ETag")).toBe(etag);
      expect(await response.text()).toBe("");
    }
    expect((await get({ "If-None-Match": '"other"' })).response.status).toBe(200);
  });

  it("refuses whoever the guard refuses, before any work", async () => {
    guard.mockRejectedValueOnce(new Response("Forbidden", { status: 403 }));
    await expect(get()).rejects.toMatchObject({ status: 403 });
  });
});

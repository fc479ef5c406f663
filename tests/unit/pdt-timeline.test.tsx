import { describe, it, expect } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import i18next from "i18next";
import { I18nextProvider } from "react-i18next";
import { PdtTimeline, type PdtTimelineProps, type TimelineProduct } from "~/reports/pdt/pdt-timeline";

const quarters = [
  { name: "Q1 2026", startDate: "2026-01-01", endDate: "2026-03-31" },
  { name: "Q2 2026", startDate: "2026-04-01", endDate: "2026-06-30" },
  { name: "Q3 2026", startDate: "2026-07-01", endDate: "2026-09-30" },
];

const products: TimelineProduct[] = [
  {
    name: "Dolutegravir 50 mg",
    stages: [
      // moved later by a month
      { name: "Development", current: { start: "2026-01-10", end: "2026-05-31" }, previous: { start: "2026-01-10", end: "2026-04-30" } },
      // unchanged
      { name: "Bioequivalence", current: { start: "2026-06-01", end: "2026-07-15" }, previous: { start: "2026-06-01", end: "2026-07-15" } },
      // only an end date this quarter, nothing last quarter
      { name: "Filing", current: { start: null, end: "2026-08-01" }, previous: { start: null, end: null } },
    ],
  },
  {
    name: "Nirmatrelvir",
    stages: [
      { name: "Scale-up", current: { start: null, end: null }, previous: { start: null, end: null } },
      // moved earlier
      { name: "Stability", current: { start: "2026-02-01", end: "2026-03-01" }, previous: { start: "2026-02-15", end: "2026-03-20" } },
    ],
  },
];

const props: PdtTimelineProps = {
  products,
  quarters,
  direction: "ltr",
  currentLabel: "This quarter's plan",
  previousLabel: "Last quarter's plan",
  title: "Development timeline, Q2 2026",
};

const count = (html: string, needle: string) => html.split(needle).length - 1;
const summaryKey = "Products: {{products}}. Stages: {{stages}}. Later than last quarter's plan: {{later}}.";

/** The x of each quarter name, in the order of the quarters. */
function quarterLabelXs(html: string): number[] {
  return [...html.matchAll(/<text class="pdt-timeline__quarter-name" x="([\d.]+)"/g)].map((match) => Number(match[1]));
}

describe("PdtTimeline", () => {
  it("renders an accessible svg with a title and a description", () => {
    const html = renderToStaticMarkup(<PdtTimeline {...props} />);
    expect(html).toMatch(/<svg[^>]*role="img"/);
    const labelledBy = /<svg[^>]*aria-labelledby="([^"]+)"/.exec(html)?.[1].split(" ") ?? [];
    expect(labelledBy).toHaveLength(2);
    expect(html).toContain(`<title id="${labelledBy[0]}">Development timeline, Q2 2026</title>`);
    expect(html).toContain(`<desc id="${labelledBy[1]}">`);
    expect(html).toMatch(/viewBox="0 0 960 \d+"/);
    expect(html).toContain('width="100%"');
  });

  it("works without an i18n instance: the key comes back as the summary", () => {
    const html = renderToStaticMarkup(<PdtTimeline {...props} />);
    expect(html).toContain(`>${summaryKey.replace("'", "&#x27;")}</desc>`);
  });

  it("draws a solid bar per stage with both dates, the previous plan under it, and markers", () => {
    const html = renderToStaticMarkup(<PdtTimeline {...props} />);
    expect(count(html, 'data-bar="current"')).toBe(3);
    expect(count(html, 'data-bar="previous"')).toBe(3);
    expect(count(html, 'data-marker="current"')).toBe(1);
    expect(count(html, 'data-marker="previous"')).toBe(0);
    expect(html).toContain("pdt-timeline__bar--previous");
    expect(html).toContain("url(#");
  });

  it("labels every product, every stage (even without dates) and every quarter", () => {
    const html = renderToStaticMarkup(<PdtTimeline {...props} />);
    for (const name of ["Dolutegravir 50 mg", "Nirmatrelvir", "Development", "Scale-up", "Stability"]) {
      expect(html).toContain(`>\u2068${name}\u2069<title>${name}</title></text>`);
    }
    for (const name of ["Q1 2026", "Q2 2026", "Q3 2026"]) expect(html).toContain(`>${name}</text>`);
    expect(count(html, "pdt-timeline__quarter-name")).toBe(3);
    expect(count(html, 'class="pdt-timeline__lane')).toBe(5);
    expect(count(html, "pdt-timeline__lane--later")).toBe(1);
  });

  it("shortens long names to the label column, keeping the full name as a tooltip", () => {
    const long = "Lopinavir and ritonavir heat-stable oral pellets for children";
    const html = renderToStaticMarkup(<PdtTimeline {...props} products={[{ ...products[0], name: long }]} direction="rtl" />);
    expect(html).toMatch(/>\u2068Lopinavir and ritonavir[^<]*…\u2069<title>Lopinavir and ritonavir heat-stable oral pellets for children<\/title>/);
  });

  it("grows with the number of lanes", () => {
    const height = (html: string) => Number(/viewBox="0 0 960 (\d+)"/.exec(html)?.[1]);
    const all = height(renderToStaticMarkup(<PdtTimeline {...props} />));
    const one = height(renderToStaticMarkup(<PdtTimeline {...props} products={[products[1]]} />));
    expect(all - one).toBe(4 * 22);
  });

  it("runs time left to right, with labels on the left, in ltr", () => {
    const html = renderToStaticMarkup(<PdtTimeline {...props} />);
    const xs = quarterLabelXs(html);
    expect(xs).toHaveLength(3);
    expect(xs[0]).toBeLessThan(xs[2]);
    expect(html).toContain('direction="ltr"');
    const productX = Number(/<text class="pdt-timeline__product-name" x="([\d.]+)"/.exec(html)?.[1]);
    expect(productX).toBeLessThan(xs[0]);
  });

  it("mirrors the axis and puts the labels on the right in rtl", () => {
    const html = renderToStaticMarkup(<PdtTimeline {...props} direction="rtl" />);
    const xs = quarterLabelXs(html);
    expect(xs).toHaveLength(3);
    expect(xs[0]).toBeGreaterThan(xs[2]);
    expect(html).toContain('direction="rtl"');
    const productX = Number(/<text class="pdt-timeline__product-name" x="([\d.]+)"/.exec(html)?.[1]);
    expect(productX).toBeGreaterThan(xs[0]);
  });

  it("spans dates outside the quarters", () => {
    const early: TimelineProduct = {
      name: "Early",
      stages: [{ name: "Start", current: { start: "2025-06-01", end: "2025-06-30" }, previous: { start: null, end: null } }],
    };
    const html = renderToStaticMarkup(<PdtTimeline {...props} products={[early]} />);
    const bar = /<rect data-bar="current"[^>]* x="([\d.]+)"[^>]* width="([\d.]+)"/.exec(html);
    expect(bar).not.toBeNull();
    expect(Number(bar?.[1])).toBeGreaterThanOrEqual(220);
    expect(quarterLabelXs(html)[0]).toBeGreaterThan(Number(bar?.[1]) + Number(bar?.[2]));
  });

  it("renders nothing without products", () => {
    expect(renderToStaticMarkup(<PdtTimeline {...props} products={[]} />)).toBe("");
  });

  it("counts the stages that moved later in the translated summary", async () => {
    const instance = i18next.createInstance();
    await instance.init({
      lng: "en",
      resources: { en: { common: { [summaryKey]: summaryKey } } },
      defaultNS: "common",
      keySeparator: false,
      nsSeparator: false,
      interpolation: { escapeValue: false },
    });
    const html = renderToStaticMarkup(
      <I18nextProvider i18n={instance}>
        <PdtTimeline {...props} />
      </I18nextProvider>,
    );
    expect(html).toContain("Products: 2. Stages: 5. Later than last quarter&#x27;s plan: 1.</desc>");
  });
});

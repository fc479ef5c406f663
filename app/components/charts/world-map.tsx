import { scaleQuantize } from "d3-scale";
import { useId } from "react";
import { formatNumber } from "~/utils/locale-format";

/**
 * World map shaded by a count per country. The shapes live in one geometry document served by
 * /admin/dashboard/world-map.svg (built by models/dashboard/world-map.server.ts, cached by the
 * browser); the page carries only `<use>` references into it: the whole land as the base layer, then
 * each listed country with one of five shades. The referenced shapes have no fill of their own, so
 * they take the fill and stroke that charts.css gives the `<use>` element, per theme. The map is
 * never mirrored; only the legend follows the page's direction.
 */

export interface WorldMapProps {
  title: string;
  description: string;
  /** ISO 3166-1 alpha-2 codes; value > 0. */
  countries: { isoCode: string; name: string; value: number }[];
  /** Where the geometry document is served, e.g. "/admin/dashboard/world-map.svg". */
  geometryHref: string;
  /** What the values count, e.g. "Products filed". */
  legendLabel: string;
  emptyText?: string;
  /** The page's language: figures are written the way it writes them. */
  locale: string;
}

const VIEWBOX = "0 0 960 500";
const SHADES = [1, 2, 3, 4, 5] as const;

export function WorldMap({ title, description, countries, geometryHref, legendLabel, emptyText, locale }: WorldMapProps): JSX.Element {
  const format = (value: number) => formatNumber(value, locale);
  const id = `map-${useId().replace(/[^A-Za-z0-9_-]/g, "")}`;
  const shown = countries.filter((country) => /^[A-Z]{2}$/.test(country.isoCode) && Number.isFinite(country.value) && country.value > 0);

  if (!shown.length) {
    return (
      <figure className="world-map world-map--empty">
        <figcaption className="world-map__caption">{title}</figcaption>
        <p className="chart__empty">{emptyText ?? "No data available!"}</p>
      </figure>
    );
  }

  const max = Math.max(...shown.map((country) => country.value));
  const shade = scaleQuantize<number>()
    .domain([1, Math.max(max, 1)])
    .range(SHADES);
  const wholeNumbers = shown.every((country) => Number.isInteger(country.value));

  return (
    <figure className="world-map">
      <figcaption className="world-map__caption">{title}</figcaption>
      <svg
        className="world-map__svg"
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        viewBox={VIEWBOX}
        width="100%"
        preserveAspectRatio="xMidYMid meet"
        direction="ltr"
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        <use href={`${geometryHref}#land`} className="world-map__land" />
        {shown.map((country) => (
          <g key={country.isoCode} className="world-map__country">
            <title>{`${country.name}: ${format(country.value)}`}</title>
            <use href={`${geometryHref}#${country.isoCode}`} className={`world-map__shade-${shade(country.value)}`} data-value={country.value} />
          </g>
        ))}
      </svg>
      <div className="world-map__legend">
        <span className="world-map__legend-label">{legendLabel}</span>
        <ul className="world-map__legend-scale">
          {SHADES.map((level) => (
            <li key={level} className="world-map__legend-item">
              <span className={`world-map__swatch world-map__swatch--${level}`} aria-hidden="true" />
              <bdi>{rangeText(shade.invertExtent(level), level === SHADES.length, wholeNumbers, format)}</bdi>
            </li>
          ))}
        </ul>
      </div>
    </figure>
  );
}

/**
 * The values a shade stands for: its quantize interval [from, to) (the last one closed), written
 * as whole numbers when every value is whole ("3–4", "5", or "–" when no whole number falls in it).
 */
function rangeText([from, to]: [number, number], last: boolean, wholeNumbers: boolean, format: (value: number) => string): string {
  if (!wholeNumbers) return `${format(from)}–${format(to)}`;
  const low = Math.ceil(from);
  const high = last ? Math.floor(to) : Math.ceil(to) - 1;
  if (high < low) return "–";
  return low === high ? format(low) : `${format(low)}–${format(high)}`;
}

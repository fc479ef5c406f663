import { scaleUtc } from "d3-scale";
import { useId, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { namedPdtDate, slipDays } from "~/reports/pdt/rows";
import { ScrollRegion } from "~/components/scroll-region";

/**
 * The development timeline as a picture: one lane per stage, grouped under its product, with the
 * previous quarter's plan as a hatched bar and this quarter's plan as a solid bar over it, so a
 * plan that moved shows at a glance. Plain SVG rendered on the server (no script needed); colours
 * come from pdt-timeline.css, which the route links. Dates are ISO `YYYY-MM-DD`.
 */

export interface TimelineStage {
  name: string;
  current: { start: string | null; end: string | null };
  previous: { start: string | null; end: string | null };
}
export interface TimelineProduct {
  name: string;
  stages: TimelineStage[];
}
export interface PdtTimelineProps {
  products: TimelineProduct[];
  quarters: { name: string; startDate: string; endDate: string }[];
  direction: "ltr" | "rtl";
  currentLabel: string;
  previousLabel: string;
  title: string;
}

const WIDTH = 960;
const LABEL_W = 220;
const GAP = 12;
const PAD = 8;
const LANE = 22;
const HEADER_H = 44;
const INDENT = 14;
const DAY_MS = 86_400_000;

/** Midnight UTC of an ISO date, or null. */
function time(iso: string | null | undefined): number | null {
  const match = iso ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso) : null;
  return match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : null;
}

/** Coordinates to a tenth of a unit: enough for the picture, short in the markup. */
const round = (value: number) => Math.round(value * 10) / 10;

const diamond = (x: number, y: number, r: number) => `M${x} ${y - r}L${x + r} ${y}L${x} ${y + r}L${x - r} ${y}Z`;

/**
 * A name cut to the label column (about 7 units a character, twice that for wide scripts), so a
 * long name keeps its beginning; the full name stays in the tooltip. The result is isolated
 * (first-strong isolate) so that a Latin name in a right-to-left page keeps its brackets and
 * ellipsis in place.
 */
function fit(name: string, width: number): string {
  let used = 0;
  const chars = Array.from(name);
  for (const [index, char] of chars.entries()) {
    used += (char.codePointAt(0) ?? 0) >= 0x2e80 ? 13 : 7.2;
    if (used > width)
      return `\u2068${chars
        .slice(0, Math.max(index - 1, 1))
        .join("")
        .trimEnd()}\u2026\u2069`;
  }
  return `\u2068${name}\u2069`;
}

/** True when this quarter's plan ends (or, without end dates, starts) later than last quarter's. */
function movedLater(stage: TimelineStage): boolean {
  const slip = slipDays(stage.previous.end, stage.current.end) ?? slipDays(stage.previous.start, stage.current.start);
  return slip !== null && slip > 0;
}

export function PdtTimeline({ products, quarters, direction, currentLabel, previousLabel, title }: PdtTimelineProps) {
  const { t, i18n } = useTranslation();
  const id = `pdt-${useId().replace(/[^A-Za-z0-9_-]/g, "")}`;
  if (!products.length) return null;

  const rtl = direction === "rtl";
  const stages = products.flatMap((product) => product.stages);
  const times: number[] = [];
  for (const quarter of quarters) {
    const start = time(quarter.startDate);
    const end = time(quarter.endDate);
    if (start !== null) times.push(start);
    if (end !== null) times.push(end + DAY_MS);
  }
  for (const stage of stages) {
    for (const iso of [stage.current.start, stage.current.end, stage.previous.start, stage.previous.end]) {
      const value = time(iso);
      if (value !== null) times.push(value, value + DAY_MS);
    }
  }
  const [min, max] = times.length ? [Math.min(...times), Math.max(...times)] : [0, DAY_MS];
  const plotStart = rtl ? PAD : LABEL_W + GAP;
  const plotEnd = rtl ? WIDTH - LABEL_W - GAP : WIDTH - PAD;
  const x = scaleUtc()
    .domain([new Date(min), new Date(max)])
    .range(rtl ? [plotEnd, plotStart] : [plotStart, plotEnd]);
  const at = (value: number) => round(x(new Date(value)));
  /** Left and right edges of the days from `start` to `end`, both included. */
  const span = (start: number, end: number) => {
    const [a, b] = [at(start), at(end + DAY_MS)];
    return { left: Math.min(a, b), width: round(Math.max(Math.abs(b - a), 2)) };
  };
  const labelX = (indent: number) => (rtl ? WIDTH - PAD - indent : PAD + indent);

  const laneCount = products.length + stages.length;
  const height = HEADER_H + laneCount * LANE + PAD;
  const summary = t("Products: {{products}}. Stages: {{stages}}. Later than last quarter's plan: {{later}}.", {
    products: products.length,
    stages: stages.length,
    later: stages.filter(movedLater).length,
  });

  const plan = (kind: "current" | "previous", dates: TimelineStage["current"], top: number, label: string): ReactNode => {
    const [start, end] = [time(dates.start), time(dates.end)];
    const tip = `${label}: ${namedPdtDate(dates.start, i18n.language) || "…"} – ${namedPdtDate(dates.end, i18n.language) || "…"}`;
    const className = `pdt-timeline__bar pdt-timeline__bar--${kind}`;
    if (start !== null && end !== null) {
      const { left, width } = span(Math.min(start, end), Math.max(start, end));
      const [y, h] = kind === "current" ? [top + 7, 8] : [top + 4, 14];
      return (
        <rect data-bar={kind} className={className} x={left} y={y} width={width} height={h} rx={2} fill={kind === "previous" ? `url(#${id}-hatch)` : undefined}>
          <title>{tip}</title>
        </rect>
      );
    }
    const single = start ?? end;
    if (single === null) return null;
    const centre = at(single + (end !== null ? DAY_MS : 0));
    return (
      <path data-marker={kind} className={`pdt-timeline__marker pdt-timeline__marker--${kind}`} d={diamond(centre, top + LANE / 2, kind === "current" ? 5 : 7)}>
        <title>{tip}</title>
      </path>
    );
  };

  const lanes: ReactNode[] = [];
  let row = 0;
  for (const [p, product] of products.entries()) {
    const top = HEADER_H + row++ * LANE;
    lanes.push(
      <g key={`p${p}`} className="pdt-timeline__product">
        <line className="pdt-timeline__rule" x1={0} x2={WIDTH} y1={top} y2={top} />
        <text className="pdt-timeline__product-name" x={labelX(0)} y={top + LANE / 2} dy="0.35em" clipPath={`url(#${id}-labels)`}>
          {fit(product.name, LABEL_W - 36)}
          <title>{product.name}</title>
        </text>
      </g>,
    );
    for (const [s, stage] of product.stages.entries()) {
      const laneTop = HEADER_H + row++ * LANE;
      lanes.push(
        <g key={`p${p}s${s}`} className={`pdt-timeline__lane${movedLater(stage) ? " pdt-timeline__lane--later" : ""}`}>
          <text className="pdt-timeline__stage-name" x={labelX(INDENT)} y={laneTop + LANE / 2} dy="0.35em" clipPath={`url(#${id}-labels)`}>
            {fit(t(stage.name), LABEL_W - INDENT - 12)}
            <title>{t(stage.name)}</title>
          </text>
          {plan("previous", stage.previous, laneTop, previousLabel)}
          {plan("current", stage.current, laneTop, currentLabel)}
        </g>,
      );
    }
  }

  const legend = (kind: "current" | "previous", label: string, y: number) => {
    const swatchX = rtl ? WIDTH - PAD - 18 : PAD;
    const h = kind === "current" ? 8 : 12;
    return (
      <g className="pdt-timeline__legend">
        <rect
          className={`pdt-timeline__bar pdt-timeline__bar--${kind}`}
          x={swatchX}
          y={y - h / 2}
          width={18}
          height={h}
          rx={2}
          fill={kind === "previous" ? `url(#${id}-hatch)` : undefined}
        />
        <text className="pdt-timeline__legend-label" x={labelX(24)} y={y} dy="0.35em" clipPath={`url(#${id}-labels)`}>
          {fit(label, LABEL_W - 36)}
        </text>
      </g>
    );
  };

  return (
    <ScrollRegion className="pdt-timeline-scroll" labelledBy={`${id}-title`}>
      <svg
        className="pdt-timeline"
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        viewBox={`0 0 ${WIDTH} ${height}`}
        width="100%"
        preserveAspectRatio="xMinYMin meet"
        direction={direction}
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        <defs>
          <pattern id={`${id}-hatch`} width={5} height={5} patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <line className="pdt-timeline__hatch" x1={0} y1={0} x2={0} y2={5} />
          </pattern>
          <clipPath id={`${id}-labels`}>
            <rect x={rtl ? WIDTH - LABEL_W : 0} y={0} width={LABEL_W} height={height} />
          </clipPath>
        </defs>
        {quarters.map((quarter, index) => {
          const [start, end] = [time(quarter.startDate), time(quarter.endDate)];
          if (start === null || end === null) return null;
          const { left, width } = span(start, end);
          const edge = at(start);
          return (
            <g key={`q${index}`} className="pdt-timeline__quarter">
              <rect className={`pdt-timeline__band${index % 2 ? " pdt-timeline__band--alt" : ""}`} x={left} y={0} width={width} height={height} />
              <line className="pdt-timeline__tick" x1={edge} x2={edge} y1={HEADER_H - 8} y2={height} />
              <text className="pdt-timeline__quarter-name" x={round(left + width / 2)} y={HEADER_H / 2} dy="0.35em" textAnchor="middle">
                {quarter.name}
              </text>
            </g>
          );
        })}
        <line className="pdt-timeline__axis" x1={plotStart} x2={plotEnd} y1={HEADER_H} y2={HEADER_H} />
        {legend("current", currentLabel, 12)}
        {legend("previous", previousLabel, 32)}
        {lanes}
      </svg>
    </ScrollRegion>
  );
}

import { scaleBand, scaleLinear, type ScaleBand, type ScaleLinear } from "d3-scale";
import { stack, stackOffsetDiverging } from "d3-shape";
import { useId, type ReactNode } from "react";
import { formatNumber } from "~/utils/locale-format";

/**
 * Bar chart of the dashboard, drawn as plain SVG during server rendering (no script needed). The
 * colours come from charts.css (`chart__series-1` … `chart__series-6` set `--series` from the theme's
 * palette), never from the markup. In right-to-left pages the categories run from right to left
 * and the value axis sits on the right; text keeps its own direction (first-strong isolates).
 *
 * The frame (caption, scales, axes, legend, empty state) is `CategoryChart`, shared with
 * line-chart.tsx; each chart brings only its marks.
 */

export interface ChartSeries {
  key: string;
  label: string;
  /** Aligned with `categories`; null = no data. */
  values: (number | null)[];
}

export interface BarChartProps {
  /** Shown as the chart's <title> and as a visible caption. */
  title: string;
  /** The text alternative (<desc>), one or two sentences written by the caller. */
  description: string;
  /** Category axis labels, in order (periods, statuses, quarters). */
  categories: string[];
  /** One or more series: grouped bars side by side, or stacked when `stacked`. */
  series: ChartSeries[];
  stacked?: boolean;
  direction: "ltr" | "rtl";
  /** The page's language: ticks and tooltips show figures the way it writes them. */
  locale: string;
  /** Tick and tooltip text; default the language's grouping with at most 2 decimals. */
  formatValue?: (value: number) => string;
  /** Default 240; the width is a fixed view box of 640 and the svg scales to the container. */
  height?: number;
  /** Shown instead of the chart when there is no value at all. */
  emptyText?: string;
}

const WIDTH = 640;
const DEFAULT_HEIGHT = 240;
const PALETTE_SIZE = 6;
const FONT_PX = 11;
const TOP = 12;
const FAR_SIDE = 14;
const TICK_GAP = 6;
const LABEL_MAX = 110;
const ROTATED_PITCH = 15;
const MIN_AXIS = 28;
/** Widest bar: a few categories make a tidy row of bars, not a wall. */
const MAX_BAR = 56;

/** Coordinates to a tenth of a unit: enough for the picture, short in the markup. */
const round = (value: number) => Math.round(value * 10) / 10;

/** Rough width of a text at 11 px: about 6.3 units a character, twice that for wide scripts. */
function textWidth(text: string): number {
  let width = 0;
  for (const char of text) width += (char.codePointAt(0) ?? 0) >= 0x2e80 ? FONT_PX : 6.3;
  return width;
}

/** The text cut to `max` units (with an ellipsis) and isolated, so a Latin label in a right-to-left chart keeps its punctuation in place. */
function fit(text: string, max: number): { text: string; cut: boolean } {
  let used = 0;
  const chars = Array.from(text);
  for (const [index, char] of chars.entries()) {
    used += (char.codePointAt(0) ?? 0) >= 0x2e80 ? FONT_PX : 6.3;
    if (used > max)
      return {
        text: isolate(
          `${chars
            .slice(0, Math.max(index - 1, 1))
            .join("")
            .trimEnd()}\u2026`,
        ),
        cut: true,
      };
  }
  return { text: isolate(text), cut: false };
}

/** First-strong isolate: the text takes its own direction (a number, with no strong letter, reads left to right). */
const isolate = (text: string) => `\u2068${text}\u2069`;

const finite = (value: number | null | undefined): value is number => typeof value === "number" && Number.isFinite(value);

/** The class that gives a series its colour (`--series`, from the palette of charts.css). */
const seriesClass = (index: number) => `chart__series chart__series-${(index % PALETTE_SIZE) + 1}`;

export interface PlotFrame {
  /** Category index → left edge of its band (the bands run right to left in rtl). */
  x: ScaleBand<number>;
  y: ScaleLinear<number, number>;
  rtl: boolean;
  format: (value: number) => string;
  /** Tooltip text of one value: "category · series: value". */
  tip: (category: number, series: number, value: number) => string;
  /** Classes of a series' group: its colour comes from charts.css. */
  seriesClass: (series: number) => string;
}

interface CategoryChartProps extends Omit<BarChartProps, "stacked"> {
  kind: "bar" | "line";
  /** The values the value axis reaches when not only the figures themselves (stacked bars reach their sums); 0 always. */
  range?: number[];
  plot: (frame: PlotFrame) => ReactNode;
  /** The key drawn before a series' name in the legend (20 × 12 units). */
  legendKey: (series: number) => ReactNode;
}

/**
 * The frame shared by the bar and the line chart: figure and caption, the value axis (left, or right
 * in rtl) with its grid, the category axis (labels rotated by 45° when they do not fit flat, and
 * only every second or third shown when even rotated they would be closer than 15 units, past about
 * 40 categories), the legend when there are several series, and the empty state.
 */
export function CategoryChart(props: CategoryChartProps): JSX.Element {
  const { title, description, categories, series, direction, kind, range, plot, legendKey } = props;
  const figures = series.flatMap((one) => one.values.slice(0, categories.length).filter(finite));
  // Whole figures have whole sums: ticks stay whole too.
  const integers = figures.every((figure) => Number.isInteger(figure));
  const height = props.height ?? DEFAULT_HEIGHT;
  const format = props.formatValue ?? ((value: number) => formatNumber(value, props.locale));
  const id = `chart-${useId().replace(/[^A-Za-z0-9_-]/g, "")}`;
  const rtl = direction === "rtl";

  if (!categories.length || !figures.length) {
    return (
      <figure className={`chart chart--${kind} chart--empty`}>
        <figcaption className="chart__caption">{title}</figcaption>
        <p className="chart__empty">{props.emptyText ?? "No data available!"}</p>
      </figure>
    );
  }

  /** Where a text's visible left or right edge sits at its x (text-anchor follows the svg's direction). */
  const anchor = (edge: "left" | "right") => ((edge === "left") !== rtl ? "start" : "end");

  // Category labels: flat when the longest fits its band, otherwise rotated by 45° (and thinned
  // when even rotated they would overlap).
  const labels = categories.map((category) => fit(category, LABEL_MAX));
  const longest = Math.min(LABEL_MAX, Math.max(...categories.map(textWidth)));
  const [low, high] = [Math.min(0, ...(range ?? figures)), Math.max(0, ...(range ?? figures))];

  /**
   * The layout for a value axis `axisWidth` wide: the category scale, how its labels fit, and the
   * value scale (always including 0, rounded outward to tidy ticks, whole when the figures are).
   */
  const arrange = (axisWidth: number) => {
    const [plotLeft, plotRight] = rtl ? [FAR_SIDE, WIDTH - axisWidth] : [axisWidth, WIDTH - FAR_SIDE];
    const x = scaleBand<number>()
      .domain(categories.map((_, index) => index))
      .range(rtl ? [plotRight, plotLeft] : [plotLeft, plotRight])
      .paddingInner(kind === "bar" ? 0.2 : 0)
      .paddingOuter(kind === "bar" ? 0.1 : 0);
    const step = x.step();
    const rotated = longest > step - 6;
    const every = rotated ? Math.max(1, Math.ceil(ROTATED_PITCH / step)) : 1;
    // Rotated labels take at most 45 % of the height; longer ones are cut (the full text stays in their tooltip).
    const labelRoom = rotated ? Math.min(longest, (height * 0.45 - 14) / Math.SQRT1_2) : longest;
    const plotBottom = rotated ? height - round(10 + labelRoom * Math.SQRT1_2 + 6) : height - 22;
    const count = Math.max(2, Math.round((plotBottom - TOP) / 45));
    const y = scaleLinear()
      .domain(low === high ? [0, 1] : [low, high])
      .range([plotBottom, TOP])
      .nice(count);
    const ticks = y.ticks(count).filter((tick) => !integers || Number.isInteger(tick));
    // Rotated labels hang from their tick towards the value axis' side: the first one must not leave the picture.
    const overhang = rotated ? labelRoom * Math.SQRT1_2 - (x.bandwidth() + step * x.paddingOuter()) / 2 : 0;
    const needed = Math.max(MIN_AXIS, Math.min(120, Math.max(0, ...ticks.map((tick) => textWidth(format(tick))))) + TICK_GAP + 4, round(overhang + 6));
    return { plotLeft, plotRight, x, rotated, every, labelRoom, plotBottom, y, ticks, needed };
  };

  // The axis' width depends on its tick labels, which depend on the plot's height, which depends on
  // how the category labels fit, which depends on the axis' width: settle it in a few passes.
  let layout = arrange(MIN_AXIS);
  for (let pass = 0; pass < 3 && layout.needed > (rtl ? WIDTH - layout.plotRight : layout.plotLeft); pass++) {
    layout = arrange(layout.needed);
  }
  const { plotLeft, plotRight, x, rotated, every, labelRoom, plotBottom, y, ticks } = layout;
  const zero = round(y(0));

  const tip = (category: number, one: number, value: number) => {
    const parts = [categories[category] ?? "", series[one]?.label ?? "", format(value)];
    const [c, s, v] = rtl ? parts.map(isolate) : parts;
    return `${c} · ${s}: ${v}`;
  };

  const valueAxisX = rtl ? plotRight + TICK_GAP : plotLeft - TICK_GAP;

  return (
    // Scrolls sideways on a phone: reachable with Tab, named by its caption.
    <figure className={`chart chart--${kind}`} tabIndex={0} aria-labelledby={`${id}-caption`}>
      <figcaption className="chart__caption" id={`${id}-caption`}>
        {title}
      </figcaption>
      <svg
        className="chart__svg"
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        viewBox={`0 0 ${WIDTH} ${height}`}
        width="100%"
        preserveAspectRatio="xMidYMid meet"
        direction={direction}
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        <g className="chart__value-axis">
          {ticks.map((tick) => {
            const at = round(y(tick));
            return (
              <g key={tick} className="chart__tick">
                <line className="chart__grid" x1={plotLeft} x2={plotRight} y1={at} y2={at} />
                <text className="chart__tick-label" x={valueAxisX} y={at} dy="0.35em" textAnchor={anchor(rtl ? "left" : "right")}>
                  {isolate(format(tick))}
                </text>
              </g>
            );
          })}
        </g>
        <g className="chart__plot">{plot({ x, y, rtl, format, tip, seriesClass })}</g>
        <line className="chart__baseline" x1={plotLeft} x2={plotRight} y1={zero} y2={zero} />
        <g className="chart__category-axis">
          {labels.map((label, index) => {
            if (index % every !== 0) return null;
            const centre = round((x(index) ?? 0) + x.bandwidth() / 2);
            const shown = rotated && labelRoom < longest ? fit(categories[index] ?? "", labelRoom) : label;
            const full = shown.cut ? <title>{categories[index]}</title> : null;
            return rotated ? (
              <text
                key={index}
                className="chart__category-label"
                transform={`translate(${centre},${plotBottom + 8}) rotate(${rtl ? 45 : -45})`}
                dy="0.35em"
                textAnchor={anchor(rtl ? "left" : "right")}
              >
                {shown.text}
                {full}
              </text>
            ) : (
              <text key={index} className="chart__category-label" x={centre} y={plotBottom + 15} textAnchor="middle">
                {shown.text}
                {full}
              </text>
            );
          })}
        </g>
      </svg>
      {series.length > 1 ? (
        <ul className="chart__legend">
          {series.map((one, index) => (
            <li key={one.key} className={`chart__legend-item ${seriesClass(index)}`}>
              <svg className="chart__key" viewBox="0 0 20 12" width="20" height="12" aria-hidden="true" focusable="false">
                {legendKey(index)}
              </svg>
              {one.label}
            </li>
          ))}
        </ul>
      ) : null}
    </figure>
  );
}

export function BarChart(props: BarChartProps): JSX.Element {
  const { stacked = false, ...frame } = props;
  const { categories, series } = frame;
  const value = (one: ChartSeries, category: number) => {
    const figure = one.values[category];
    return finite(figure) ? figure : null;
  };

  // Stacked: d3-shape's diverging stack (positive values above 0, negative below), one layer per series.
  const layers = stacked
    ? stack<number, number>()
        .keys(series.map((_, index) => index))
        .value((category, index) => value(series[index]!, category) ?? 0)
        .offset(stackOffsetDiverging)(categories.map((_, index) => index))
    : null;

  const plot = ({ x, y, rtl, tip, seriesClass }: PlotFrame) => {
    // The bars of a category (side by side, or one stacked bar) centred in its band.
    const group = Math.min(x.bandwidth(), MAX_BAR * (layers ? 1 : series.length));
    const offset = (x.bandwidth() - group) / 2;
    const inner = scaleBand<number>()
      .domain(series.map((_, index) => index))
      .range(rtl ? [group, 0] : [0, group])
      .paddingInner(series.length > 1 ? 0.08 : 0);
    return series.map((one, s) => (
      <g key={one.key} className={seriesClass(s)}>
        {categories.map((_, c) => {
          const figure = value(one, c);
          if (figure === null) return null;
          const [from, to] = layers ? layers[s]![c]! : [0, figure];
          const [top, bottom] = [round(y(Math.max(from, to))), round(y(Math.min(from, to)))];
          const left = round((x(c) ?? 0) + offset + (layers ? 0 : (inner(s) ?? 0)));
          const width = round(layers ? group : inner.bandwidth());
          return (
            <rect key={c} className="chart__bar" data-category={c} x={left} y={top} width={width} height={round(bottom - top)}>
              <title>{tip(c, s, figure)}</title>
            </rect>
          );
        })}
      </g>
    ));
  };

  return (
    <CategoryChart
      {...frame}
      kind="bar"
      range={layers?.flatMap((layer) => layer.flatMap(([low, high]) => [low, high]))}
      plot={plot}
      legendKey={() => <rect className="chart__bar" x={4} y={1} width={12} height={10} rx={1.5} />}
    />
  );
}

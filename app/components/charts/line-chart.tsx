import { line, symbol, symbolsFill } from "d3-shape";
import { CategoryChart, type BarChartProps, type PlotFrame } from "./bar-chart";

/**
 * Line chart of the dashboard: the frame of bar-chart.tsx (caption, axes, legend, empty state,
 * right-to-left) with one d3-shape line per series, broken where a value is null, and a marker per
 * value whose shape differs by series (circle, cross, diamond, …) so that series stay apart without
 * relying on colour alone. Colours come from charts.css.
 */

export type LineChartProps = Omit<BarChartProps, "stacked">;

const POINT_AREA = 42;

const round = (value: number) => Math.round(value * 10) / 10;
const finite = (value: number | null | undefined): value is number => typeof value === "number" && Number.isFinite(value);
/** The marker of a series: a d3-shape symbol (circle, cross, diamond, square, star, triangle, wye) centred on 0,0. */
const marker = (series: number) => symbol(symbolsFill[series % symbolsFill.length]!, POINT_AREA).digits(1)() ?? "";

export function LineChart(props: LineChartProps): JSX.Element {
  const { categories, series } = props;

  const plot = ({ x, y, tip, seriesClass }: PlotFrame) => {
    const centre = (category: number) => round((x(category) ?? 0) + x.bandwidth() / 2);
    const path = line<number | null>()
      .digits(1)
      .defined((value) => finite(value))
      .x((_, category) => centre(category))
      .y((value) => round(y(value ?? 0)));
    return series.map((one, s) => {
      const values = categories.map((_, category) => one.values[category] ?? null);
      return (
        <g key={one.key} className={seriesClass(s)}>
          <path className="chart__line" d={path(values) ?? ""} />
          {values.map((value, category) =>
            finite(value) ? (
              <path
                key={category}
                className="chart__point"
                data-category={category}
                transform={`translate(${centre(category)},${round(y(value))})`}
                d={marker(s)}
              >
                <title>{tip(category, s, value)}</title>
              </path>
            ) : null,
          )}
        </g>
      );
    });
  };

  return (
    <CategoryChart
      {...props}
      kind="line"
      plot={plot}
      legendKey={(s) => (
        <>
          <line className="chart__line" x1={0} x2={20} y1={6} y2={6} />
          <path className="chart__point" transform="translate(10,6)" d={marker(s)} />
        </>
      )}
    />
  );
}

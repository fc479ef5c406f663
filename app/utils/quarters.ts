/** Calendar quarters, named `Q{n} {yyyy}` (decisions.md section 3). */
export interface QuarterRef {
  year: number;
  quarter: number;
}

/** Quarters in calendar order as one number: compares and counts quarters. */
export function quarterIndex({ year, quarter }: QuarterRef): number {
  return year * 4 + (quarter - 1);
}

export function quarterOf(date: Date): QuarterRef {
  return { year: date.getUTCFullYear(), quarter: Math.floor(date.getUTCMonth() / 3) + 1 };
}

export function quarterName({ year, quarter }: QuarterRef): string {
  return `Q${quarter} ${year}`;
}

export function parseQuarterName(name: string): QuarterRef | null {
  const match = /^Q([1-4]) (\d{4})$/.exec(name.trim());
  return match ? { quarter: Number(match[1]), year: Number(match[2]) } : null;
}

export function addQuarters({ year, quarter }: QuarterRef, count: number): QuarterRef {
  const index = quarterIndex({ year, quarter }) + count;
  return { year: Math.floor(index / 4), quarter: (index % 4) + 1 };
}

/** First and last day of the quarter, as ISO dates (YYYY-MM-DD). */
export function quarterBounds({ year, quarter }: QuarterRef): { startDate: string; endDate: string } {
  const startMonth = (quarter - 1) * 3;
  const start = new Date(Date.UTC(year, startMonth, 1));
  const end = new Date(Date.UTC(year, startMonth + 3, 0));
  return { startDate: start.toISOString().slice(0, 10), endDate: end.toISOString().slice(0, 10) };
}

/** A cut-off date set in a quarter that has closed says nothing about a later quarter's reports. */
export function cutOffAppliesTo(cutOffDate: string, ref: QuarterRef): boolean {
  return cutOffDate >= quarterBounds(ref).startDate;
}

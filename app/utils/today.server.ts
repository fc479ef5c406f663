/**
 * "Today" for the portal: PORTAL_TODAY=YYYY-MM-DD overrides the clock's date (demos and tests),
 * keeping the current time of day so that timestamps still move forward.
 */
export function portalNow(): Date {
  const override = process.env.PORTAL_TODAY;
  const now = new Date();
  if (!override) return now;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(override);
  if (!match) throw new Error(`PORTAL_TODAY must be YYYY-MM-DD, got "${override}"`);
  const [, year, month, day] = match.map(Number);
  return new Date(Date.UTC(year, month - 1, day, now.getUTCHours(), now.getUTCMinutes(), now.getUTCSeconds(), now.getUTCMilliseconds()));
}

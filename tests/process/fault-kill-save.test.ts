/**
 * kill -9 of the portal while it saves a 10,000-row Sales Report, then a restart on the same
 * database: the report is entirely the one before the save or entirely the one posted, its
 * version and save history say the same, and the dashboard's sums (kept by triggers) equal the
 * sums of the partner's sales rows. The save is the grid's: one JSON post of the page, the saved
 * rows' ids to delete and 10,000 new rows. Kill points: while the rows are read and checked
 * (before the transaction), while the old rows are deleted and while the new rows are inserted
 * (in the transaction), after the answer.
 */
import crypto from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "./support/portal-http";
import { apiGridRow, fdfGridRow } from "../support/sales-grid-rows";
import { SERVER_URL, freePort, freshDatabase, startPortal, type PortalProcess } from "./support/server";

const PARTNER = { email: "partner1@example.org", password: "partner-pass-1" };
const ROWS_PER_KIND = 5000;
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
/** The test's own connections, told apart from the portal's in pg_stat_activity. */
const TEST_APPLICATION = "fault-kill-save-test";

let databaseUrl: string;
let database: postgres.Sql;
let portal: PortalProcess;
let cookie: string;

async function startOnDatabase() {
  portal = startPortal({ DATABASE_URL: databaseUrl }, await freePort());
  await portal.ready();
}

beforeAll(async () => {
  databaseUrl = await freshDatabase("portal_fault_kill");
  await startOnDatabase();
  cookie = await signIn(portal.baseUrl, PARTNER.email, PARTNER.password);
  database = postgres(databaseUrl, { max: 2, onnotice: () => {}, connection: { application_name: TEST_APPLICATION } });
});

afterAll(async () => {
  await portal?.stop();
  await database?.end();
});

interface Report {
  id: number;
  partnerId: number;
  quarterId: number;
  year: number;
  quarter: number;
}

/** The partner's Sales Report of the open quarter (the seed's draft). */
async function openReport(): Promise<Report> {
  const [report] = await database<Report[]>`
    select r.id, r.partner_id as "partnerId", r.quarter_id as "quarterId", q.year, q.quarter
    from reports r join partners p on p.id = r.partner_id join quarters q on q.id = r.quarter_id
    where p.email = ${PARTNER.email} and r.type = 'sales'
    order by q.start_date desc limit 1`;
  return report;
}

interface State {
  rows: number;
  /** A digest of every row's cells (not its id): equal for the same rows saved again. */
  digest: string;
  /** A digest of the cells a save posts as they are kept (kind, purchaser, quantity): see postedDigest. */
  postedDigest: string;
  version: number;
  savedAt: string;
  /** The report's saves in the audit log, and the version the latest one wrote. */
  saves: number;
  lastSavedVersion: number | null;
  ids: number[];
}

async function stateOf(report: Report): Promise<State> {
  const [rows] = await database`
    select count(*)::int as rows,
      md5(coalesce(string_agg(line, E'\n' order by line collate "C"), '')) as digest,
      md5(coalesce(string_agg(posted, E'\n' order by posted collate "C"), '')) as "postedDigest"
    from (
      select concat_ws('|', kind, year, month, country_id, purchaser, product_id, product_name, quantity, total_value, strength,
          formulation_type_id, pack_size, currency_code, gross_sale_price_currency, usd_exchange_rate, gross_sale_price_usd,
          total_gross_value, deductable_expenses, royalty_percent, royalty_due, procurement_end_country, comments) as line,
        concat_ws('|', kind, purchaser, trim_scale(quantity)) as posted
      from sales_rows where report_id = ${report.id}
    ) lines`;
  const [header] = await database`select version, saved_at::text as "savedAt" from reports where id = ${report.id}`;
  const [audit] = await database`
    select count(*)::int as saves, (array_agg((after ->> 'version')::int order by id desc))[1] as "lastSavedVersion"
    from audit_log where action = 'report.save' and entity = 'report:sales' and entity_id = ${String(report.id)}`;
  const ids = (await database`select id from sales_rows where report_id = ${report.id} order by id`).map((row) => row.id as number);
  return {
    rows: rows.rows,
    digest: rows.digest,
    postedDigest: rows.postedDigest,
    version: header.version,
    savedAt: header.savedAt,
    saves: audit.saves,
    lastSavedVersion: audit.lastSavedVersion,
    ids,
  };
}

/**
 * The dashboard's sums of the partner (per product, and per month; over every report and over
 * approved reports) where they differ from the same sums taken from its sales rows.
 */
async function dashboardMismatches(report: Report) {
  const fromRows = (grain: string, keys: string) => `
    select ${keys}, scope.approved_only,
      coalesce(sum(s.pack_size * s.quantity) filter (where s.kind = 'FDF'), 0) as units,
      coalesce(sum(case when s.kind = 'FDF' then s.total_gross_value else s.total_value end), 0) as value_usd,
      count(*)::int as row_count
    from sales_rows s join reports r on r.id = s.report_id
    cross join (values (false), (true)) as scope(approved_only)
    where r.partner_id = $1 and s.product_id is not null and (not scope.approved_only or r.status = 'Approved')
      ${grain === "partner_month" ? "and s.year is not null and s.month is not null" : ""}
    group by ${keys}, scope.approved_only`;
  const compare = (grain: string, keys: string[]) => `
    with expected as (${fromRows(grain, keys.map((key) => `s.${key}`).join(", "))}),
      stored as (select ${keys.join(", ")}, approved_only, units, value_usd, row_count from dashboard_sales where grain = '${grain}' and partner_id = $1)
    select '${grain}' as grain, ${keys.join(", ")}, approved_only, e.units::text as "expectedUnits", d.units::text as "storedUnits",
      e.value_usd::text as "expectedValue", d.value_usd::text as "storedValue", e.row_count as "expectedRows", d.row_count as "storedRows"
    from expected e full join stored d using (${keys.join(", ")}, approved_only)
    where e.units is distinct from d.units or e.value_usd is distinct from d.value_usd or e.row_count is distinct from d.row_count`;
  const byProduct = await database.unsafe(compare("product_partner", ["product_id"]), [report.partnerId]);
  const byMonth = await database.unsafe(compare("partner_month", ["year", "month"]), [report.partnerId]);
  return [...byProduct, ...byMonth];
}

/**
 * 10,000 new rows (half API, half FDF) whose purchasers carry `tag`, dated in the report's quarter,
 * of three of the partner's products and one it does not make (rows waiting for verification).
 */
function newRows(report: Report, tag: string) {
  const month = (index: number) => MONTHS[(report.quarter - 1) * 3 + (index % 3)];
  const year = String(report.year);
  const api = Array.from({ length: ROWS_PER_KIND }, (_, index) =>
    apiGridRow({
      year,
      month: month(index),
      country: index % 2 ? "India" : "South Africa",
      purchaser: `${tag} API buyer ${index}`,
      productName: index % 2 ? "Abacavir API" : "Dolutegravir API",
      quantity: String(100 + index),
      totalValue: String(5000 + index * 7),
    }),
  );
  const fdf = Array.from({ length: ROWS_PER_KIND }, (_, index) =>
    fdfGridRow({
      year,
      month: month(index),
      purchaser: `${tag} FDF buyer ${index}`,
      productName: index % 2 ? "Dolutegravir 50 mg" : "TLD (Tenofovir/Lamivudine/Dolutegravir)",
      strength: index % 2 ? "50 mg" : "300/300/50 mg",
      quantity: String(1000 + index),
    }),
  );
  return { API: api, FDF: fdf };
}

type Rows = ReturnType<typeof newRows>;

/** The digest State.postedDigest has once exactly `rows` are saved. */
function postedDigest(rows: Rows) {
  const lines = (["API", "FDF"] as const).flatMap((kind) => rows[kind].map((row) => `${kind}|${row.purchaser}|${row.quantity}`));
  return crypto.createHash("md5").update(lines.sort().join("\n")).digest("hex");
}

/** The grid's save: the saved rows deleted, the new ones added, in one JSON post of the page. */
function postSave(report: Report, before: State, rows: Rows): Promise<Response> {
  return fetch(`${portal.baseUrl}/partner/sales-report`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, origin: portal.baseUrl, "content-type": "application/json" },
    body: JSON.stringify({
      intent: "save",
      quarterId: String(report.quarterId),
      version: String(before.version),
      payload: { ...rows, deletedIds: before.ids },
    }),
  });
}

/**
 * Resolves once a statement of the portal's (not the test's) matching `pattern` is running, or is
 * the last of its open transaction; fails if the save is answered first.
 */
async function portalRunning(pattern: string, answered: () => boolean) {
  while (!answered()) {
    const [seen] = await database`
      select 1 from pg_stat_activity
      where datname = current_database() and application_name <> ${TEST_APPLICATION}
        and state in ('active', 'idle in transaction') and query ilike ${pattern}`;
    if (seen) return;
  }
  throw new Error(`The save was answered before a statement like ${pattern} ran`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!SERVER_URL)("kill -9 of the portal during a 10,000-row Sales Report save", () => {
  it("leaves the report entirely old or entirely new, its version, history and dashboard sums with it", async () => {
    const report = await openReport();
    const payloads = [newRows(report, "A"), newRows(report, "B")];
    // The first save is answered before the kill: it takes the seed's report to 10,000 rows and
    // says how long a save takes. The other kills land before its answer.
    let saveMs = 0;
    const killPoints: { name: string; when: (save: { answer: Promise<number | null>; answered: () => boolean }) => Promise<unknown> }[] = [
      {
        name: "after the answer",
        when: async ({ answer }) => {
          const started = performance.now();
          expect(await answer).toBe(302);
          saveMs = performance.now() - started;
        },
      },
      { name: "while the rows are read and checked", when: () => sleep(saveMs * 0.1) },
      { name: "while the old rows are deleted", when: ({ answered }) => portalRunning('delete from "sales_rows"%', answered) },
      { name: "while the new rows are inserted", when: ({ answered }) => portalRunning('insert into "sales_rows"%', answered) },
    ];
    const outcomes: Record<string, "old" | "new"> = {};
    let restartMs = 0;
    for (const [index, point] of killPoints.entries()) {
      const before = await stateOf(report);
      const rows = payloads[index % 2];
      let answered = false;
      const answer = postSave(report, before, rows)
        .then(
          (response) => response.status,
          () => null,
        )
        .finally(() => (answered = true));
      await point.when({ answer, answered: () => answered });
      await portal.kill();
      const restarting = performance.now();
      await startOnDatabase();
      restartMs = Math.max(restartMs, performance.now() - restarting);

      const after = await stateOf(report);
      const outcome = after.digest === before.digest ? "old" : after.postedDigest === postedDigest(rows) ? "new" : null;
      expect(outcome, `${point.name}: ${after.rows} rows, neither the old report nor the new one`).not.toBeNull();
      outcomes[point.name] = outcome!;
      if (outcome === "old") {
        expect([after.version, after.savedAt, after.saves], point.name).toEqual([before.version, before.savedAt, before.saves]);
      } else {
        expect(after.rows, point.name).toBe(2 * ROWS_PER_KIND);
        expect([after.version, after.saves, after.lastSavedVersion], point.name).toEqual([before.version + 1, before.saves + 1, before.version + 1]);
      }
      expect(await dashboardMismatches(report), point.name).toEqual([]);
    }
    console.info(JSON.stringify({ saveMs: Math.round(saveMs), restartMs: Math.round(restartMs), outcomes }));
    expect(outcomes["after the answer"]).toBe("new");
    // A kill in the middle of the transaction lands before its commit.
    expect(outcomes["while the old rows are deleted"]).toBe("old");
    // The saved rows name three of the partner's products: the dashboard sums compared above are not empty.
    const [{ products }] = await database`select count(distinct product_id)::int as products from sales_rows where report_id = ${report.id}`;
    expect(products).toBe(3);
  });
});

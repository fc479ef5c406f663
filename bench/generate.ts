/**
 * The benchmark data set: `npx tsx bench/generate.ts S|M|L [--shape=skewed]` (re)creates the PostgreSQL database
 * portal_bench_s|m|l on BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432), applies the
 * migrations and the reference data through the app's own functions (initDatabase,
 * seedReferenceData, ensureQuarter, hashPassword), then loads everything else set-based:
 * INSERT … SELECT generate_series, never a row at a time. Sales rows go in statements of about
 * 100,000 rows, so the dashboard triggers (drizzle/0003_dashboard_aggregates.sql) keep
 * dashboard_sales and dashboard_filings right as the rows arrive, as they do for the app's saves.
 *
 * What it makes (deterministic: the same size gives the same data on the same day):
 * - partners with 3 to 8 active products (a third API, two thirds FDF) and 10 to 40 countries each,
 *   one partner in fifty deactivated; users: an admin, a staff user and one user per partner, all
 *   with the password BENCH_PASSWORD (hashed once);
 * - per partner, quarter and report type a report in a workflow state (historic quarters mostly
 *   approved, some rejected, some rejected then resubmitted, a few never submitted; the open
 *   quarter spread over every state and "not started"), late ones, and the messages of each step;
 * - PDT values (every stage of every active product, plans that slip quarter after quarter),
 *   Filing Plans cells with every status including the planned-filing quarters, and sales rows:
 *   each sales report sells the partner's products in its countries to a few purchasers over the
 *   quarter's three months, bigger partners and later quarters selling more;
 * - one designated partner (partner 1) whose open-quarter Sales Report is a draft of 12,000 rows,
 *   and one partner (partner 2) with no open-quarter Sales Report: `npm run bench` saves into it;
 * - the Sales Reports' stored checks (the partners' mean prices, each report's finding counts), as
 *   the app's jobs keep them after a save, refreshed quarter by quarter with the app's functions.
 * `bench_meta` records what the benchmark needs to find (users, quarters, partner ids).
 *
 * `--shape=skewed` (into portal_bench_<size>_skewed) makes the same kinds of data with the shape of
 * real patent-pool data (SKEWED below): partner 1 holds 24% of the sales rows, with one report far
 * bigger than any other beside its 12,000-row draft; half the partners have fewer than 100 rows in
 * all; purchasers are thousands of distinct unicode names of about 160 bytes; every country and 133
 * currencies appear; 51 product verifications are pending, as the app raises them (a
 * product_verifications row of the report, its rows holding the name and the verification instead
 * of a product), 12 of them on partner 1's draft.
 */
import { sql as sqlText } from "drizzle-orm";
import postgres from "postgres";
import { closeDatabase, db, initDatabase, selectRows } from "../app/db/client.server";
import { COUNTRIES } from "../app/db/reference-data";
import { ensureQuarter, openQuarterRef } from "../app/models/quarter.server";
import { hashPassword } from "../app/models/password.server";
import { seedReferenceData } from "../app/models/seed.server";
import { refreshAllSalesChecks } from "../app/reports/sales/stored-checks.server";
import { plannedFilingQuarters } from "../app/reports/filing/statuses";
import { addQuarters, quarterBounds, quarterName } from "../app/utils/quarters";

const BENCH_PASSWORD = "bench-pass-1";
export const SIZES = {
  S: { partners: 30, products: 24, countries: 60, quarters: 8, salesRows: 100_000 },
  M: { partners: 300, products: 60, countries: 150, quarters: 20, salesRows: 1_000_000 },
  L: { partners: 500, products: 60, countries: 150, quarters: 20, salesRows: 5_000_000 },
} as const;
export type BenchSize = keyof typeof SIZES;
/** The skewed shape per size: partner 1's share of the sales rows, its largest (submitted) report, distinct purchasers. */
const SKEWED = {
  S: { bigPartnerShare: 0.24, largestReportRows: 8_000, purchasers: 1_000 },
  M: { bigPartnerShare: 0.24, largestReportRows: 40_000, purchasers: 5_000 },
  L: { bigPartnerShare: 0.24, largestReportRows: 118_800, purchasers: 10_000 },
} as const;
/** Currencies the skewed shape's reports use, pending product verifications and how many of those are on partner 1's draft. */
const SKEWED_CURRENCIES = 133;
const SKEWED_VERIFICATIONS = 51;
const SKEWED_DRAFT_VERIFICATIONS = 12;
/** The skewed shape's partners above this rank hold fewer than 100 rows each. */
const smallPartnersFrom = (partners: number) => Math.floor(partners / 2) + 1;
export type BenchShape = "even" | "skewed";
/** Rows of the designated partner's open-quarter Sales Report. */
const DESIGNATED_ROWS = 12_000;
/** Sales rows per INSERT statement (and so per trigger call). */
const ROWS_PER_STATEMENT = 100_000;

export function benchServerUrl(): string {
  return process.env.BENCH_PG_URL || "postgres://postgres@127.0.0.1:5432/postgres";
}

export function benchDatabaseUrl(size: BenchSize, shape: BenchShape = "even"): string {
  const url = new URL(benchServerUrl());
  url.pathname = `/portal_bench_${size.toLowerCase()}${shape === "skewed" ? "_skewed" : ""}`;
  return url.toString();
}

/**
 * `--shape=skewed` among the arguments (the even shape when absent). `npm run bench L --shape=skewed`
 * hands the flag to npm, which passes it on as npm_config_shape.
 */
export function parseShape(args: string[]): BenchShape {
  const value = args.find((arg) => arg.startsWith("--shape="))?.slice("--shape=".length) ?? process.env.npm_config_shape ?? "even";
  if (value !== "even" && value !== "skewed") throw new Error(`Unknown shape "${value}": use --shape=even or --shape=skewed.`);
  return value;
}

export function parseSize(value: string | undefined): BenchSize {
  const size = (value ?? "S").toUpperCase();
  if (size !== "S" && size !== "M" && size !== "L") throw new Error(`Unknown size "${value}": use S, M or L.`);
  return size;
}

const MOLECULES = [
  "Dolutegravir",
  "Tenofovir",
  "Lamivudine",
  "Efavirenz",
  "Abacavir",
  "Sofosbuvir",
  "Daclatasvir",
  "Ravidasvir",
  "Atazanavir",
  "Darunavir",
  "Raltegravir",
  "Nirmatrelvir",
  "Molnupiravir",
  "Lopinavir",
  "Ritonavir",
  "Emtricitabine",
  "Zidovudine",
  "Nevirapine",
  "Velpatasvir",
  "Glecaprevir",
];
const STRENGTHS = ["50 mg", "300/300/50 mg", "400/60 mg", "60 mg", "25 mg", "60/30/5 mg", "40/10 mg", "600/300/300 mg"];
/** Currencies the partners invoice in (each country uses one of them). */
const SALE_CURRENCIES = ["USD", "INR", "KES", "ZAR", "NGN", "UGX", "TZS", "EUR", "BRL", "THB", "XOF", "IDR"];
/** Parts of the skewed shape's purchaser names (combined with a number: distinct names of about 160 bytes). */
const PURCHASER_BODIES = [
  "Société Nationale d'Approvisionnement Pharmaceutique de Côte d'Ivoire",
  "Центральный медицинский склад Министерства здравоохранения",
  "国家艾滋病防治中心药品采购处 华东区域配送站",
  "Central de Abastecimento Farmacêutico do Ministério da Saúde — Região Nordeste",
  "Κεντρική Υπηρεσία Προμηθειών Υγείας Βορείου Ελλάδος",
  "المخزن الطبي المركزي لوزارة الصحة — الإدارة الإقليمية",
  "Trung tâm Mua sắm Thuốc Quốc gia — Bộ Y tế Việt Nam",
  "Kenya Medical Supplies Authority — Regional Depot Kisumu (Tender Ŵ)",
];
const PURCHASER_UNITS = [
  "Direction des Achats et de la Logistique",
  "Отдел закупок и логистики",
  "采购与物流管理部门",
  "Departamento de Compras Públicas",
  "Τμήμα Προμηθειών και Αποθήκης",
  "قسم المشتريات والإمداد الطبي",
  "Phòng Kế hoạch Đấu thầu",
  "Procurement Unit — Lot Ñ",
  "Dział Zaopatrzenia Medycznego",
];
const PURCHASER_PLACES = ["Abidjan", "Ñuñoa", "Ouagadougou", "Ağrı", "Łódź", "São Tomé", "Kraków", "Gödöllő", "Mombasa", "Hà Nội", "Zürich"];

async function main() {
  const size = parseSize(process.argv.slice(2).find((arg) => !arg.startsWith("--")));
  const shapeName = parseShape(process.argv.slice(2));
  const skewed = shapeName === "skewed";
  const skew = SKEWED[size];
  const url = benchDatabaseUrl(size, shapeName);
  // The skewed shape sells in every country of the reference data.
  const shape = { ...SIZES[size], ...(skewed ? { countries: COUNTRIES.length } : {}) };
  const database = new URL(url).pathname.slice(1);
  const started = performance.now();
  let stepStarted = started;
  const step = (what: string) => {
    const now = performance.now();
    console.log(`  ${what}: ${((now - stepStarted) / 1000).toFixed(1)} s`);
    stepStarted = now;
  };

  console.log(
    `Generating ${size} (${shapeName}) into ${database}: ${shape.partners} partners, ${shape.products} products, ${shape.countries} countries, ${shape.quarters} quarters, ${shape.salesRows.toLocaleString("en")} sales rows`,
  );
  const admin = postgres(benchServerUrl(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.unsafe(`CREATE DATABASE ${database}`);
  await admin.end();

  // The app's own path: migrations, reference data, quarters.
  process.env.DATABASE_URL = url;
  await initDatabase();
  await seedReferenceData(db);
  const open = openQuarterRef();
  const quarterRows: { offset: number; id: number; name: string; year: number; quarter: number; startDate: string; endDate: string }[] = [];
  for (let offset = 0; offset < shape.quarters; offset++) {
    const ref = addQuarters(open, -offset);
    const row = await ensureQuarter(ref, db);
    quarterRows.push({ offset, id: row.id, name: row.name, year: ref.year, quarter: ref.quarter, ...quarterBounds(ref) });
  }
  for (let ahead = 1; ahead <= 4; ahead++) await ensureQuarter(addQuarters(open, ahead), db);
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  step("migrations, reference data, quarters, one password hash");

  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const q = (text: string, params: unknown[] = []) => sql.unsafe(text, params as never[]);
  // Cut-off date of the open quarter: 15 days before it closes (as the demo seed sets it).
  const cutOff = new Date(Date.parse(`${quarterBounds(open).endDate}T00:00:00Z`) - 15 * 86_400_000).toISOString().slice(0, 10);
  await q(`INSERT INTO settings (key, value) VALUES ('cut_off_date', $1::jsonb) ON CONFLICT (key) DO NOTHING`, [cutOff]);

  // ------------------------------------------------------------ products, partners, users
  await q(
    `INSERT INTO products (name, category, therapy_area)
     SELECT CASE WHEN i % 3 = 0 THEN m.molecule || ' API ' || (i / 20 + 1)
                 ELSE m.molecule || ' ' || s.strength || ' (' || (i / 20 + 1) || ')' END,
            CASE WHEN i % 3 = 0 THEN 'API' ELSE 'FDF' END::product_category,
            (ARRAY['HIV','HIV','HCV','HBV'])[i % 4 + 1]
     FROM generate_series(0, $1 - 1) i
     CROSS JOIN LATERAL (SELECT ($2::text[])[i % 20 + 1] AS molecule) m
     CROSS JOIN LATERAL (SELECT ($3::text[])[i % 8 + 1] AS strength) s
     ORDER BY i`,
    [shape.products, MOLECULES, STRENGTHS],
  );
  await q(
    `INSERT INTO partners (company_name, email, contact_number, address, region, is_active)
     SELECT 'Bench Partner ' || lpad(i::text, 4, '0') || (ARRAY[' Ltd',' Pharma Pvt',' Life Sciences',' Generics',' Laboratories'])[i % 5 + 1],
            'partner' || i || '@bench.example.org', '+9198' || lpad((i * 7919)::text, 8, '0'),
            'Plot ' || i || ', Industrial Area', (ARRAY['Asia','Africa','Latin America and the Caribbean','Asia','Europe'])[i % 5 + 1],
            i % 50 <> 49
     FROM generate_series(1, $1) i ORDER BY i`,
    [shape.partners],
  );
  // Partner n is the partner whose id is the n-th smallest (the database starts ids at 1).
  await q(
    `CREATE TEMP TABLE bp AS SELECT id, row_number() OVER (ORDER BY id) AS n FROM partners;
     CREATE TEMP TABLE bprod AS SELECT id, category, row_number() OVER (ORDER BY id) - 1 AS idx FROM products;
     CREATE TEMP TABLE bq (q_offset int, id int, year int, quarter int, start_date date, end_date date);`,
  );
  await q(`INSERT INTO bq SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(q_offset int, id int, year int, quarter int, start_date date, end_date date)`, [
    quarterRows.map((row) => ({ q_offset: row.offset, id: row.id, year: row.year, quarter: row.quarter, start_date: row.startDate, end_date: row.endDate })),
  ]);
  await q(
    `INSERT INTO users (email, name, role, partner_id, password_hash)
     VALUES ('admin@bench.example.org', 'Bench Administrator', 'ADMIN', NULL, $1), ('staff@bench.example.org', 'Bench Staff', 'STAFF', NULL, $1)`,
    [passwordHash],
  );
  await q(
    `INSERT INTO users (email, name, role, partner_id, password_hash, language)
     SELECT p.email, p.company_name, 'PARTNER', p.id, $1, (ARRAY['en','en','en','fr','es','zh'])[bp.n % 6 + 1]
     FROM partners p JOIN bp ON bp.id = p.id ORDER BY p.id`,
    [passwordHash],
  );
  await q(
    `INSERT INTO employees (partner_id, first_name, last_name, contact_number)
     SELECT bp.id, (ARRAY['Priya','Rahul','Anil','Thandi','Ana','Wei'])[(bp.n + k) % 6 + 1], (ARRAY['Sharma','Mehta','Kumar','Nkosi','Silva','Chen'])[(bp.n * 3 + k) % 6 + 1], '+9198123' || lpad((bp.n * 10 + k)::text, 5, '0')
     FROM bp CROSS JOIN generate_series(1, 2) k WHERE k = 1 OR bp.n % 2 = 0`,
  );
  // Active products: 3 to 8 per partner, every category present (index steps of 13 cycle the i % 3 categories).
  await q(
    `CREATE TEMP TABLE bpp AS
     SELECT bp.id AS partner_id, bp.n, j, pr.id AS product_id, pr.category, pr.idx,
            3 + bp.n % 6 AS k
     FROM bp CROSS JOIN LATERAL generate_series(0, 2 + bp.n % 6) j
     JOIN bprod pr ON pr.idx = (bp.n * 7 + j * 13) % $1`,
    [shape.products],
  );
  await q(
    `INSERT INTO partner_products (partner_id, product_id, project_status)
     SELECT partner_id, product_id, (ARRAY['PLANNED','UNDER_DEVELOPMENT','UNDER_DEVELOPMENT','ON_HOLD','DROPPED','FILED','APPROVED','APPROVED'])[(n * 5 + j * 3) % 8 + 1]::project_status
     FROM bpp ORDER BY partner_id, j`,
  );
  // Countries: the countries used (a spread of the list), 10 to 40 per partner (skewed: partner 1 in all of them), each with the currency its sales are invoiced in.
  const saleCurrencies = skewed
    ? (await q(`SELECT code FROM currencies WHERE usd_rate > 0 ORDER BY code LIMIT ${SKEWED_CURRENCIES}`)).map((row) => String(row.code))
    : SALE_CURRENCIES;
  await q(
    `CREATE TEMP TABLE bc AS
     SELECT id, name, iso_code, row_number() OVER (ORDER BY hashtext(iso_code), id) - 1 AS idx FROM countries;
     DELETE FROM bc WHERE idx >= ${shape.countries};`,
  );
  await q(
    `CREATE TEMP TABLE bpc AS
     SELECT bp.id AS partner_id, bp.n, j, c.id AS country_id, c.name AS country_name, c.idx,
            ($2::text[])[c.idx % ${saleCurrencies.length} + 1] AS currency_code
     FROM bp CROSS JOIN LATERAL generate_series(0, CASE WHEN $3 AND bp.n = 1 THEN $1 - 1 ELSE 9 + (bp.n * 7) % 31 END) j
     JOIN bc c ON c.idx = (bp.n * 11 + j * 7) % $1`,
    [shape.countries, saleCurrencies, skewed],
  );
  await q(`CREATE INDEX ON bpp (partner_id, j); CREATE INDEX ON bpc (partner_id, j); ANALYZE bpp; ANALYZE bpc;`);
  // Licence terms of every partner product: 3 to 5 %, an API licence for three products in four; per partner, one
  // country in seven royalty-free and the next outside the territory.
  await q(
    `INSERT INTO licence_terms (partner_id, product_id, royalty_rate, api_licensed)
     SELECT partner_id, product_id, 3 + (n + j) % 3, (n + j) % 4 <> 0 FROM bpp;
     INSERT INTO licence_country_terms (licence_term_id, country_id, royalty_rate, is_licensed)
     SELECT lt.id, pc.country_id, CASE WHEN pc.j % 7 = 2 THEN 0 END, pc.j % 7 = 2
     FROM licence_terms lt JOIN bpc pc ON pc.partner_id = lt.partner_id WHERE pc.j % 7 IN (2, 3);`,
  );
  step(`partners, users, products, partner products, licence terms and countries`);

  // ------------------------------------------------------------ reports in every state
  const [{ admin_id: adminId }] = await q(`SELECT id AS admin_id FROM users WHERE email = 'admin@bench.example.org'`);
  await q(
    `CREATE TEMP TABLE brep AS
     SELECT bp.id AS partner_id, bp.n, bq.id AS quarter_id, bq.q_offset, bq.year, bq.quarter, bq.start_date, bq.end_date, t.type, t.ti,
            abs(hashtext(bp.n || '/' || bq.q_offset || '/' || t.type)) % 100 AS h
     FROM bp CROSS JOIN bq CROSS JOIN (VALUES ('pdt'::report_type, 1), ('filing'::report_type, 2), ('sales'::report_type, 3)) t(type, ti);
     ALTER TABLE brep ADD COLUMN status report_status;
     UPDATE brep SET status = CASE
       WHEN q_offset = 0 THEN CASE WHEN h < 15 THEN NULL WHEN h < 40 THEN 'Saved' WHEN h < 60 THEN 'Submitted' WHEN h < 68 THEN 'Resubmitted' WHEN h < 85 THEN 'Approved' ELSE 'Rejected' END::report_status
       ELSE CASE WHEN h < 2 THEN NULL WHEN h < 4 THEN 'Saved' WHEN h < 7 THEN 'Rejected' WHEN h < 12 THEN 'Resubmitted' WHEN h < 15 THEN 'Submitted' ELSE 'Approved' END::report_status END;
     -- The designated partner's open-quarter Sales Report is a draft; partner 2 has none (the benchmark saves one).
     UPDATE brep SET status = 'Saved' WHERE n = 1 AND q_offset = 0 AND type = 'sales';
     UPDATE brep SET status = NULL WHERE n = 2 AND q_offset = 0 AND type = 'sales';
     -- Skewed: partner 1's largest report is its approved Sales Report of the last closed quarter.
     ${skewed ? "UPDATE brep SET status = 'Approved' WHERE n = 1 AND q_offset = 1 AND type = 'sales';" : ""}
     DELETE FROM brep WHERE status IS NULL;`,
  );
  // Submitted a few days after the quarter closed (late: a month after); the open quarter's a few days ago.
  await q(
    `INSERT INTO reports (partner_id, quarter_id, type, status, version, is_late, saved_at, saved_by, first_submitted_at, submitted_at, decided_at, created_at, updated_at)
     SELECT b.partner_id, b.quarter_id, b.type, b.status,
            CASE b.status WHEN 'Saved' THEN 1 WHEN 'Submitted' THEN 2 WHEN 'Resubmitted' THEN 5 ELSE 3 END,
            b.status <> 'Saved' AND b.h % 9 = 0,
            ts.submitted, u.id,
            CASE WHEN b.status = 'Saved' THEN NULL WHEN b.status = 'Resubmitted' OR b.h % 5 = 0 THEN ts.submitted - interval '12 days' ELSE ts.submitted END,
            CASE WHEN b.status = 'Saved' THEN NULL ELSE ts.submitted END,
            CASE WHEN b.status IN ('Approved', 'Rejected') THEN ts.submitted + (2 + b.h % 9) * interval '1 day' END,
            ts.submitted - interval '20 days', ts.submitted
     FROM brep b
     JOIN users u ON u.partner_id = b.partner_id
     CROSS JOIN LATERAL (SELECT CASE WHEN b.q_offset = 0 THEN now() - (3 + b.h % 20) * interval '1 day'
                                     ELSE b.end_date + (CASE WHEN b.h % 9 = 0 THEN 30 ELSE 1 END + b.h % 12) * interval '1 day' + interval '10 hours' END AS submitted) ts
     ORDER BY b.quarter_id, b.partner_id, b.ti`,
  );
  await q(
    `CREATE TEMP TABLE brr AS SELECT r.id, r.partner_id, r.quarter_id, r.type, r.status, r.first_submitted_at, r.submitted_at, r.decided_at, b.n, b.q_offset, b.year, b.quarter, b.start_date, b.h, u.id AS user_id
     FROM reports r JOIN brep b ON b.partner_id = r.partner_id AND b.quarter_id = r.quarter_id AND b.type = r.type JOIN users u ON u.partner_id = r.partner_id;
     CREATE INDEX ON brr (id); ANALYZE brr;`,
  );
  // Messages of each step: submission, rejection, resubmission, decision.
  await q(
    `INSERT INTO report_messages (report_id, author_id, is_partner_message, is_approved, message, created_at, read_by_partner_at, read_by_admin_at)
     SELECT id, author, partner_message, approved, message, at, at, CASE WHEN q_offset = 0 AND NOT partner_message THEN NULL ELSE at END
     FROM (
       SELECT r.id, r.q_offset, r.user_id AS author, true AS partner_message, NULL::boolean AS approved, 'Our report for the quarter is complete.' AS message, r.first_submitted_at AS at
       FROM brr r WHERE r.status <> 'Saved'
       UNION ALL
       SELECT r.id, r.q_offset, $1, false, false, 'Please check the quantities for the second month.', r.first_submitted_at + interval '3 days'
       FROM brr r WHERE r.first_submitted_at < r.submitted_at
       UNION ALL
       SELECT r.id, r.q_offset, r.user_id, true, NULL, 'Corrected figures as requested.', r.submitted_at
       FROM brr r WHERE r.first_submitted_at < r.submitted_at
       UNION ALL
       SELECT r.id, r.q_offset, $1, false, r.status = 'Approved', CASE WHEN r.status = 'Approved' THEN 'Thank you, approved.' ELSE 'The royalty figures do not match the invoices.' END, r.decided_at
       FROM brr r WHERE r.status IN ('Approved', 'Rejected')
     ) m ORDER BY m.at`,
    [adminId],
  );
  step(`reports and messages`);

  // ------------------------------------------------------------ PDT values: every stage of every active product, slipping over the quarters
  const pdt = await q(
    `INSERT INTO pdt_values (report_id, product_id, stage_id, start_date, end_date, notes)
     SELECT r.id, pp.product_id, st.id,
            d.start_date, d.start_date + ((45 + (st.sort_order * 17 + pp.j * 5) % 50))::int,
            CASE WHEN slip > 0 AND (st.sort_order + pp.j + r.q_offset) % 4 = 0
                 THEN (ARRAY['Awaiting bioequivalence site slot','Exhibit batch moved after equipment qualification','Key starting material supplier being requalified','Answering the regulator''s questions on the dossier'])[(st.sort_order + r.n) % 4 + 1] END
     FROM brr r
     JOIN bpp pp ON pp.partner_id = r.partner_id
     JOIN stages st ON st.category = pp.category
     CROSS JOIN LATERAL (SELECT (${shape.quarters} - 1 - r.q_offset) * ((r.n + st.sort_order) % 3) * 6 AS slip) s
     CROSS JOIN LATERAL (SELECT date '2023-01-01' + (((r.n * 17 + pp.j * 23) % 400) + st.sort_order * 70 + slip)::int AS start_date) d
     WHERE r.type = 'pdt'
     ORDER BY r.id, pp.product_id, st.id`,
  );
  step(`PDT values (${pdt.count.toLocaleString("en")})`);

  // ------------------------------------------------------------ Filing Plans cells: every status, planned-filing quarters of the report's quarter
  const filingPerQuarter: number[] = [];
  for (const quarter of quarterRows) {
    const planned = plannedFilingQuarters({ year: quarter.year, quarter: quarter.quarter });
    const inserted = await q(
      `INSERT INTO filing_values (report_id, country_id, product_id, status)
       SELECT r.id, pc.country_id, pp.product_id,
              CASE lvl WHEN 0 THEN 'Not Planned' WHEN 1 THEN 'Filing-Planned' WHEN 2 THEN ($2::text[])[(pc.j + pp.j) % 4 + 1] WHEN 3 THEN 'Filed' ELSE 'Registered' END
       FROM brr r
       JOIN bpp pp ON pp.partner_id = r.partner_id
       JOIN bpc pc ON pc.partner_id = r.partner_id AND pc.j < 8 + r.n % 8
       CROSS JOIN LATERAL (SELECT least(4, (pc.j * 2 + pp.j + r.n) % 5 + (${shape.quarters} - 1 - r.q_offset) / 5) AS lvl) l
       WHERE r.type = 'filing' AND r.quarter_id = $1 AND (pc.j * 3 + pp.j + r.n) % 7 <> 4
       ORDER BY r.id, pc.country_id, pp.product_id`,
      [quarter.id, planned],
    );
    filingPerQuarter.push(inserted.count);
  }
  step(`Filing Plans cells (${filingPerQuarter.reduce((a, b) => a + b, 0).toLocaleString("en")}, aggregates by trigger)`);

  // ------------------------------------------------------------ sales rows
  // Rows per report: bigger partners and later quarters sell more; the designated draft holds DESIGNATED_ROWS.
  await q(
    `CREATE TEMP TABLE bplan AS
     SELECT r.id AS report_id, r.partner_id, r.n, r.year, r.quarter, r.q_offset,
            (0.3 + ((r.n * 37) % 100) / 100.0 * 2.7) * (1 + 0.6 * (${shape.quarters} - 1 - r.q_offset) / greatest(${shape.quarters} - 1, 1)) AS weight,
            (SELECT count(*) FROM bpp WHERE bpp.partner_id = r.partner_id) AS k,
            (SELECT count(*) FROM bpc WHERE bpc.partner_id = r.partner_id) AS c,
            0::int AS rows
     FROM brr r WHERE r.type = 'sales';
     UPDATE bplan SET rows = ${DESIGNATED_ROWS} WHERE n = 1 AND q_offset = 0;`,
  );
  if (!skewed) {
    await q(
      `UPDATE bplan SET rows = greatest(1, round(weight * (${shape.salesRows - DESIGNATED_ROWS}) / (SELECT sum(weight) FROM bplan WHERE NOT (n = 1 AND q_offset = 0))))
       WHERE NOT (n = 1 AND q_offset = 0)`,
    );
  } else {
    // Partner 1: its share, the draft and the largest report included; the upper half of the partners
    // 10 to 69 rows each over all their reports; the others the rest, falling off with their rank.
    const bigRows = Math.round(shape.salesRows * skew.bigPartnerShare);
    const small = smallPartnersFrom(shape.partners);
    await q(
      `UPDATE bplan SET rows = ${skew.largestReportRows} WHERE n = 1 AND q_offset = 1;
       UPDATE bplan SET rows = greatest(1, round(weight * ${bigRows - DESIGNATED_ROWS - skew.largestReportRows} / (SELECT sum(weight) FROM bplan WHERE n = 1 AND q_offset > 1)))
       WHERE n = 1 AND q_offset > 1;
       UPDATE bplan b SET rows = greatest(1, floor(weight * (10 + (n * 37) % 60) / (SELECT sum(weight) FROM bplan x WHERE x.n = b.n)))
       WHERE n >= ${small};
       UPDATE bplan SET rows = greatest(1, round(weight / power(n - 1, 0.8)
         * (${shape.salesRows - bigRows} - (SELECT sum(rows) FROM bplan WHERE n >= ${small}))
         / (SELECT sum(weight / power(n - 1, 0.8)) FROM bplan WHERE n > 1 AND n < ${small})))
       WHERE n > 1 AND n < ${small};`,
    );
    await q(
      `CREATE TEMP TABLE bpur AS
       SELECT i AS idx, ($1::text[])[i % ${PURCHASER_BODIES.length} + 1] || ' · ' || ($2::text[])[(i / ${PURCHASER_BODIES.length}) % ${PURCHASER_UNITS.length} + 1]
              || ' · ' || ($3::text[])[(i / 7) % ${PURCHASER_PLACES.length} + 1] || ' · Tender Nº ' || lpad(i::text, 5, '0') AS name
       FROM generate_series(0, ${skew.purchasers} - 1) i`,
      [PURCHASER_BODIES, PURCHASER_UNITS, PURCHASER_PLACES],
    );
    await q(`CREATE UNIQUE INDEX ON bpur (idx); ANALYZE bpur;`);
  }
  const plan = await q(`SELECT report_id, rows FROM bplan ORDER BY report_id`);
  const batches: [number, number, number][] = [];
  let batchStart = -1;
  let batchRows = 0;
  for (const { report_id: id, rows } of plan as unknown as { report_id: number; rows: number }[]) {
    if (batchStart < 0) batchStart = id;
    batchRows += rows;
    if (batchRows >= ROWS_PER_STATEMENT) {
      batches.push([batchStart, id, batchRows]);
      batchStart = -1;
      batchRows = 0;
    }
  }
  if (batchStart >= 0) batches.push([batchStart, Number(plan[plan.length - 1].report_id), batchRows]);
  let salesTotal = 0;
  const salesStarted = performance.now();
  for (const [index, [from, to]] of batches.entries()) {
    const inserted = await q(
      `INSERT INTO sales_rows (report_id, kind, year, month, country_id, purchaser, product_id, product_name, quantity, total_value,
         strength, formulation_type_id, pack_size, currency_code, gross_sale_price_currency, usd_exchange_rate, gross_sale_price_usd,
         total_gross_value, deductable_expenses, royalty_percent, royalty_due, procurement_end_country, comments)
       SELECT b.report_id, pp.category::text::sales_kind, b.year, (b.quarter - 1) * 3 + 1 + (g.i + x.hh) % 3,
              pc.country_id,
              ${
                skewed
                  ? "pu.name"
                  : `(ARRAY['Central Medical Stores','Ministry of Health','Global Fund Pooled Procurement','National AIDS Control Programme','MedAccess Distribution'])[(g.i / (b.k * b.c) + b.n) % 3 + 1 + b.n % 3] || ' ' || pc.country_name`
              },
              pp.product_id, pr.name,
              CASE WHEN pp.category = 'API' THEN round(5 + x.hh % 500 + (x.hh % 4) * 0.25, 2) ELSE 1000 + x.hh % 200000 END,
              CASE WHEN pp.category = 'API' THEN round((5 + x.hh % 500 + (x.hh % 4) * 0.25) * (80 + x.hh % 900), 2) ELSE f.gross - f.expenses END,
              CASE WHEN pp.category = 'FDF' THEN substring(pr.name from ' ([0-9/]+ mg) ') END,
              CASE WHEN pp.category = 'FDF' THEN (SELECT min(id) FROM formulation_types) + pp.idx % 5 END,
              CASE WHEN pp.category = 'FDF' THEN (ARRAY[30, 60, 90, 30])[x.hh % 4 + 1] END,
              CASE WHEN pp.category = 'FDF' THEN cur.code END,
              CASE WHEN pp.category = 'FDF' THEN f.price_local END,
              CASE WHEN pp.category = 'FDF' THEN cur.usd_rate END,
              CASE WHEN pp.category = 'FDF' THEN f.price_usd END,
              CASE WHEN pp.category = 'FDF' THEN f.gross END,
              CASE WHEN pp.category = 'FDF' THEN f.expenses END,
              CASE WHEN pp.category = 'FDF' THEN f.royalty END,
              CASE WHEN pp.category = 'FDF' THEN round((f.gross - f.expenses) * f.royalty / 100, 6) END,
              CASE WHEN pp.category = 'FDF' AND x.hh % 10 < 3 THEN 'Global Fund / ' || pc.country_name END,
              CASE WHEN pp.category = 'FDF' AND x.hh % 50 = 0 THEN 'Shipped in two lots' END
       FROM bplan b
       CROSS JOIN LATERAL generate_series(0, b.rows - 1) g(i)
       JOIN bpp pp ON pp.partner_id = b.partner_id AND pp.j = g.i % b.k
       JOIN products pr ON pr.id = pp.product_id
       JOIN bpc pc ON pc.partner_id = b.partner_id AND pc.j = (g.i / b.k) % b.c
       JOIN currencies cur ON cur.code = pc.currency_code
       CROSS JOIN LATERAL (SELECT abs(hashint8(b.report_id::bigint * 1000003 + g.i)::bigint) AS hh) x
       CROSS JOIN LATERAL (SELECT round((1.5 + (x.hh % 1350) / 100.0) / cur.usd_rate, 2) AS price_local) p1
       CROSS JOIN LATERAL (SELECT round(p1.price_local * cur.usd_rate, 6) AS price_usd) p2
       CROSS JOIN LATERAL (SELECT round(p2.price_usd * (1000 + x.hh % 200000), 6) AS gross) p3
       CROSS JOIN LATERAL (SELECT p1.price_local, p2.price_usd, p3.gross, round(p3.gross * ((x.hh / 7) % 5) / 100, 2) AS expenses, 3 + (x.hh / 11) % 3 AS royalty) f
       ${skewed ? `JOIN bpur pu ON pu.idx = (x.hh / 17) % ${skew.purchasers}` : ""}
       WHERE b.report_id BETWEEN $1 AND $2
       ORDER BY b.report_id, pp.category, g.i`,
      [from, to],
    );
    salesTotal += inserted.count;
    const elapsed = (performance.now() - salesStarted) / 1000;
    process.stdout.write(
      `\r  sales rows: ${salesTotal.toLocaleString("en")} (${index + 1}/${batches.length} statements, ${Math.round(salesTotal / elapsed).toLocaleString("en")} rows/s)   `,
    );
  }
  process.stdout.write("\n");
  step(`sales rows (${salesTotal.toLocaleString("en")}, aggregates by trigger)`);

  if (skewed) {
    // Pending product verifications as the app raises them: 12 on partner 1's draft, the others on
    // open-quarter Sales Reports not yet decided (each with rows of the verification's kind); one
    // row in 25 of the report's rows of that kind (the first included) holds the name instead of a product.
    const raised = await q(
      `WITH targets AS (
         SELECT b.report_id, b.partner_id, row_number() OVER (ORDER BY b.n) - 1 AS t, count(*) OVER () AS tn
         FROM bplan b JOIN reports r ON r.id = b.report_id
         WHERE b.q_offset = 0 AND b.n > 1 AND b.rows >= 20 AND r.status IN ('Saved', 'Submitted', 'Resubmitted', 'Rejected')
       ), chosen AS (
         SELECT g.v, coalesce(d.report_id, t.report_id) AS report_id, coalesce(d.partner_id, t.partner_id) AS partner_id
         FROM generate_series(0, ${SKEWED_VERIFICATIONS - 1}) g(v)
         LEFT JOIN bplan d ON g.v < ${SKEWED_DRAFT_VERIFICATIONS} AND d.n = 1 AND d.q_offset = 0
         LEFT JOIN targets t ON g.v >= ${SKEWED_DRAFT_VERIFICATIONS} AND t.t = (g.v - ${SKEWED_DRAFT_VERIFICATIONS}) % t.tn
       )
       INSERT INTO product_verifications (partner_id, report_id, product_name, category, status, created_at)
       SELECT c.partner_id, c.report_id,
              (ARRAY['Lénacapavir', 'Islatravir', 'Cabotégravir', 'Bictégravir', 'Doravirine', 'Ténofovir alafénamide'])[c.v % 6 + 1]
                || CASE WHEN k.kind = 'API' THEN ' API (fournisseur ' ELSE ' 50 mg comprimé (lot ' END || c.v || ')',
              k.kind::text::product_category, 'pending', now() - (c.v % 20) * interval '1 day'
       FROM chosen c
       CROSS JOIN LATERAL (SELECT (ARRAY['API', 'FDF'])[c.v % 2 + 1] AS kind) k
       WHERE c.report_id IS NOT NULL AND EXISTS (SELECT 1 FROM sales_rows s WHERE s.report_id = c.report_id AND s.kind::text = k.kind)
       ORDER BY c.v`,
    );
    const carried = await q(
      `UPDATE sales_rows s SET product_id = NULL, product_name = v.product_name, product_verification_id = v.id
       FROM (SELECT s.id, s.report_id, s.kind, row_number() OVER (PARTITION BY s.report_id, s.kind ORDER BY s.id) AS rn
             FROM sales_rows s WHERE s.report_id IN (SELECT report_id FROM product_verifications)) x
       JOIN (SELECT v.*, row_number() OVER (PARTITION BY v.report_id, v.category ORDER BY v.id) - 1 AS slot, count(*) OVER (PARTITION BY v.report_id, v.category) AS nv
             FROM product_verifications v) v ON v.report_id = x.report_id AND v.category::text = x.kind::text AND v.slot = (x.rn / 25) % v.nv
       WHERE s.id = x.id AND x.rn % 25 = 1`,
    );
    step(`pending product verifications (${raised.count}, carried by ${carried.count.toLocaleString("en")} sales rows)`);
  }

  // ------------------------------------------------------------ what the benchmark needs to find
  const [designated] = await q(`SELECT p.id, p.email FROM partners p JOIN bp ON bp.id = p.id WHERE bp.n = 1`);
  const [saver] = await q(`SELECT p.id, p.email FROM partners p JOIN bp ON bp.id = p.id WHERE bp.n = 2`);
  const [biggest] = await q(
    `SELECT q.name, count(*)::int AS rows FROM sales_rows s JOIN reports r ON r.id = s.report_id JOIN quarters q ON q.id = r.quarter_id GROUP BY q.name ORDER BY 2 DESC LIMIT 1`,
  );
  // The shape as made: what the skewed shape is for, measured on the rows (both shapes, for the side by side).
  const [made] = await q(
    `SELECT (SELECT count(DISTINCT purchaser) FROM sales_rows)::int AS purchasers,
            (SELECT round(avg(octet_length(purchaser))) FROM sales_rows)::int AS purchaser_bytes,
            (SELECT count(DISTINCT country_id) FROM sales_rows)::int AS countries,
            (SELECT count(DISTINCT currency_code) FROM sales_rows)::int AS currencies,
            (SELECT count(*) FROM product_verifications WHERE status = 'pending')::int AS pending_verifications,
            (SELECT count(*) FROM product_verifications v JOIN bplan b ON b.report_id = v.report_id WHERE v.status = 'pending' AND b.n = 1 AND b.q_offset = 0)::int AS draft_verifications,
            (SELECT round(100.0 * sum(rows) FILTER (WHERE n = 1) / sum(rows), 1) FROM bplan)::float AS big_partner_percent,
            (SELECT count(*) FROM (SELECT n FROM bplan GROUP BY n HAVING sum(rows) < 100) x)::int AS partners_under_100_rows,
            (SELECT max(rows) FROM bplan)::int AS largest_report_rows`,
  );
  const meta = {
    size,
    dataShape: shapeName,
    made,
    generatedAt: new Date().toISOString(),
    openQuarter: quarterName(open),
    biggestQuarter: biggest.name as string,
    biggestQuarterRows: biggest.rows as number,
    password: BENCH_PASSWORD,
    admin: "admin@bench.example.org",
    staff: "staff@bench.example.org",
    designatedPartner: { id: designated.id as number, email: designated.email as string, openSalesRows: DESIGNATED_ROWS },
    savePartner: { id: saver.id as number, email: saver.email as string },
    shape: { ...shape, ...(skewed ? skew : {}) },
  };
  await q(`CREATE TABLE bench_meta (key text PRIMARY KEY, value jsonb NOT NULL)`);
  await q(`INSERT INTO bench_meta VALUES ('meta', $1::jsonb)`, [meta]);

  await q(`VACUUM ANALYZE`);
  step("VACUUM ANALYZE");
  const quartersChecked = await refreshStoredChecks();
  step(`stored checks: mean prices and finding counts of ${quartersChecked} quarters`);

  const counts = await q(
    `SELECT (SELECT count(*) FROM partners)::int AS partners, (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM products)::int AS products,
            (SELECT count(*) FROM partner_products)::int AS partner_products, (SELECT count(DISTINCT country_id) FROM sales_rows)::int AS countries_used,
            (SELECT count(*) FROM reports)::int AS reports, (SELECT count(*) FROM report_messages)::int AS messages,
            (SELECT count(*) FROM pdt_values)::int AS pdt_values, (SELECT count(*) FROM filing_values)::int AS filing_values,
            (SELECT count(*) FROM sales_rows)::int AS sales_rows, (SELECT count(*) FROM dashboard_sales)::int AS dashboard_sales,
            (SELECT count(*) FROM dashboard_filings)::int AS dashboard_filings, pg_size_pretty(pg_database_size(current_database())) AS database_size`,
  );
  const states = await q(
    `SELECT r.type, r.status, count(*)::int AS n, count(*) FILTER (WHERE r.is_late)::int AS late FROM reports r GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  console.log("Made:", counts[0]);
  console.log("Reports by type and state:", states.map((row) => `${row.type} ${row.status} ${row.n} (late ${row.late})`).join(", "));
  console.log(`Biggest quarter: ${meta.biggestQuarter} (${meta.biggestQuarterRows.toLocaleString("en")} sales rows); open quarter ${meta.openQuarter}`);
  console.log(
    `Designated partner ${designated.email} (open-quarter draft of ${DESIGNATED_ROWS} rows); save partner ${saver.email}; password ${BENCH_PASSWORD}`,
  );
  console.log("Shape:", made);
  console.log(`Generated ${size} (${shapeName}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await sql.end();
  await closeDatabase();
}

/**
 * The Sales Reports' stored checks of the open database, refreshed with the app's own functions
 * (after ANALYZE: their statements join the sales rows), then the new rows analysed; answers the
 * quarters refreshed.
 */
async function refreshStoredChecks(): Promise<number> {
  const quarters = await refreshAllSalesChecks(db);
  await db.execute(sqlText`ANALYZE sales_price_means`);
  await db.execute(sqlText`ANALYZE report_check_counts`);
  return quarters;
}

/**
 * A data set generated before the stored checks existed: migrated, and its stored checks refreshed
 * (what generating it again would add). Nothing when they are there.
 */
export async function addStoredChecks(url: string): Promise<number | null> {
  process.env.DATABASE_URL = url;
  await initDatabase();
  try {
    const [{ missing }] = await selectRows<{ missing: boolean }>(
      sqlText`SELECT EXISTS (SELECT 1 FROM reports r WHERE r.type = 'sales' AND NOT EXISTS (SELECT 1 FROM report_check_counts c WHERE c.report_id = r.id)) AS missing`,
    );
    return missing ? await refreshStoredChecks() : null;
  } finally {
    await closeDatabase();
  }
}

// Run only as a script (run.ts imports the sizes and URLs).
if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("bench/generate.ts")) {
  main().catch(async (error) => {
    console.error(error);
    await closeDatabase().catch(() => {});
    process.exit(1);
  });
}

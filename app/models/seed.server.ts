import { asc, count, sql } from "drizzle-orm";
import { db, type Database, type Transaction } from "~/db/client.server";
import { API_STAGES, COUNTRIES, CURRENCIES, FDF_STAGES, FORMULATION_TYPES, THERAPY_AREAS } from "~/db/reference-data";
import {
  countries,
  currencies,
  employees,
  filingStatuses,
  filingValues,
  formulationTypes,
  licenceCountryTerms,
  licenceTerms,
  partnerProducts,
  partners,
  pdtValues,
  products,
  productVerifications,
  reportMessages,
  reports,
  salesRows,
  settings,
  stages,
  therapyAreas,
  users,
} from "~/db/schema";
import { plannedFilingQuarters } from "~/reports/filing/statuses";
import { addQuarters, quarterBounds, type QuarterRef } from "~/utils/quarters";
import { deriveFdfValues } from "~/reports/sales/rows";
import { refreshAllSalesChecks } from "~/reports/sales/stored-checks.server";
import { hashPassword } from "./password.server";
import { ensureQuarter, openQuarterRef } from "./quarter.server";

type Executor = Transaction | Database;

export const FILING_BASE_STATUSES = ["Filed", "Registered", "Filing-Planned", "Not Planned"] as const;

export async function seedReferenceData(tx: Executor = db) {
  await tx
    .insert(countries)
    .values([...COUNTRIES])
    .onConflictDoNothing();
  await tx
    .insert(currencies)
    .values([...CURRENCIES])
    .onConflictDoNothing();
  await tx
    .insert(formulationTypes)
    .values(FORMULATION_TYPES.map((name, index) => ({ name, sortOrder: index + 1 })))
    .onConflictDoNothing();
  await tx
    .insert(therapyAreas)
    .values(THERAPY_AREAS.map((code, index) => ({ code, sortOrder: index + 1 })))
    .onConflictDoNothing();
  await tx
    .insert(stages)
    .values([
      ...FDF_STAGES.map((name, index) => ({ category: "FDF" as const, name, sortOrder: index + 1 })),
      ...API_STAGES.map((name, index) => ({ category: "API" as const, name, sortOrder: index + 1 })),
    ])
    .onConflictDoNothing();

  // Only the base statuses: the four planned filing quarters roll with the open quarter and are
  // computed (app/reports/filing/statuses.ts), never stored.
  await tx
    .insert(filingStatuses)
    .values((["API", "FDF"] as const).flatMap((category) => FILING_BASE_STATUSES.map((name, index) => ({ category, name, sortOrder: index + 1 }))))
    .onConflictDoNothing();
  const open = openQuarterRef();
  // Eight quarters back and four ahead, so the quarter dropdowns and planned filing quarters have names.
  for (let offset = -8; offset <= 4; offset++) await ensureQuarter(addQuarters(open, offset), tx);
}

const DEMO_PASSWORDS = {
  "admin@example.org": "admin-pass-1",
  "staff@example.org": "staff-pass-1",
  "partner1@example.org": "partner-pass-1",
  "partner2@example.org": "partner-pass-2",
  "partner3@example.org": "partner-pass-3",
} as const;

const DEMO_PRODUCTS = [
  { name: "Dolutegravir 50 mg", category: "FDF", therapyArea: "HIV" },
  { name: "TLD (Tenofovir/Lamivudine/Dolutegravir)", category: "FDF", therapyArea: "HIV" },
  { name: "Paediatric Abacavir/Lamivudine/Dolutegravir", category: "FDF", therapyArea: "HIV" },
  { name: "Lopinavir/ritonavir pellets", category: "FDF", therapyArea: "HIV" },
  { name: "Sofosbuvir/Daclatasvir", category: "FDF", therapyArea: "HCV" },
  { name: "Daclatasvir 60 mg", category: "FDF", therapyArea: "HCV" },
  { name: "Tenofovir Alafenamide 25 mg", category: "FDF", therapyArea: "HBV" },
  { name: "Dolutegravir API", category: "API", therapyArea: "HIV" },
  { name: "Abacavir API", category: "API", therapyArea: "HIV" },
  { name: "Raltegravir API", category: "API", therapyArea: "HIV" },
  { name: "Sofosbuvir API", category: "API", therapyArea: "HCV" },
  { name: "Ravidasvir API", category: "API", therapyArea: "HCV" },
  { name: "Tenofovir Alafenamide API", category: "API", therapyArea: "HBV" },
] as const;

type ReportStatus = (typeof reports.$inferSelect)["status"];
type ReportType = (typeof reports.$inferSelect)["type"];

/** Per partner, report type and quarter offset (0 is the open quarter): the demo workflow states. */
const DEMO_REPORT_STATES: Record<string, Record<ReportType, (ReportStatus | null)[]>> = {
  "partner1@example.org": {
    pdt: ["Submitted", "Approved", "Approved", "Approved"],
    filing: ["Rejected", "Approved", "Approved", "Approved"],
    sales: ["Saved", "Approved", "Resubmitted", "Approved"],
  },
  "partner2@example.org": {
    pdt: ["Resubmitted", "Approved", "Approved", "Rejected"],
    filing: [null, "Submitted", "Approved", "Approved"],
    sales: ["Approved", "Approved", "Approved", "Approved"],
  },
  "partner3@example.org": {
    pdt: [null, "Approved", "Rejected", "Approved"],
    filing: [null, "Approved", "Approved", "Saved"],
    sales: [null, "Submitted", "Approved", "Approved"],
  },
};

// ---------------------------------------------------------------- demo sales rows

/** API sales of a demo report: (country, purchaser, quantity in kg, total value in USD). */
const DEMO_API_SALES = [
  ["India", "Hetero Labs Ltd", "250.5", "180360"],
  ["India", "Mylan Laboratories Ltd", "120", "96000"],
  ["South Africa", "Aspen Pharmacare", "75.25", "61705"],
] as const;

/** FDF sales of a demo report; the exchange rate and the derived values are computed as the grid does. */
const DEMO_FDF_SALES = [
  {
    country: "Kenya",
    purchaser: "Kenya Medical Supplies Authority",
    currency: "KES",
    price: "390",
    quantity: "120000",
    expenses: "1500",
    royalty: "5",
    agency: "Global Fund / Kenya",
  },
  {
    country: "South Africa",
    purchaser: "National Department of Health",
    currency: "ZAR",
    price: "62",
    quantity: "80000",
    expenses: "2000",
    royalty: "3",
    agency: "",
  },
  {
    country: "Nigeria",
    purchaser: "Global Fund Pooled Procurement Mechanism",
    currency: "USD",
    price: "3.15",
    quantity: "50000",
    expenses: "0",
    royalty: "5",
    agency: "Global Fund / Nigeria",
  },
  {
    country: "Uganda",
    purchaser: "Joint Medical Store",
    currency: "UGX",
    price: "11500",
    quantity: "40000",
    expenses: "500",
    royalty: "4",
    agency: "PEPFAR / Uganda",
  },
] as const;

const DEMO_STRENGTHS: Record<string, string> = {
  "Dolutegravir 50 mg": "50 mg",
  "TLD (Tenofovir/Lamivudine/Dolutegravir)": "300/300/50 mg",
  "Sofosbuvir/Daclatasvir": "400/60 mg",
  "Daclatasvir 60 mg": "60 mg",
  "Tenofovir Alafenamide 25 mg": "25 mg",
  "Paediatric Abacavir/Lamivudine/Dolutegravir": "60/30/5 mg",
  "Lopinavir/ritonavir pellets": "40/10 mg",
};

/** The FDF product of the open quarter's demo draft that waits for the administrator's verification. */
const DEMO_UNVERIFIED_PRODUCT = { name: "Efavirenz/Lamivudine/TDF 600/300/300 mg", strength: "600/300/300 mg" };

const DEMO_USD_RATES = new Map(CURRENCIES.map((currency) => [currency.code, currency.usdRate]));

/**
 * A few realistic rows for a demo Sales Report: the open quarter's draft of the first partner
 * has 3 API and 4 FDF rows, every other report 2 API and 3 FDF rows, dated in its quarter.
 */
function demoSalesRows(
  reportId: number,
  quarter: QuarterRef,
  rich: boolean,
  partnerProducts: { API: { id: number; name: string }[]; FDF: { id: number; name: string }[] },
  ids: { country: (name: string) => number; formulation: (name: string) => number },
): (typeof salesRows.$inferInsert)[] {
  const firstMonth = (quarter.quarter - 1) * 3 + 1;
  const month = (index: number) => (rich ? firstMonth : firstMonth + (index % 3));
  const rows: (typeof salesRows.$inferInsert)[] = [];
  DEMO_API_SALES.slice(0, rich ? 3 : 2).forEach(([country, purchaser, quantity, totalValue], index) => {
    const product = partnerProducts.API[index % partnerProducts.API.length];
    rows.push({
      reportId,
      kind: "API",
      year: quarter.year,
      month: month(index),
      countryId: ids.country(country),
      purchaser,
      productId: product.id,
      productName: product.name,
      quantity,
      totalValue,
    });
  });
  DEMO_FDF_SALES.slice(0, rich ? 4 : 3).forEach((sale, index) => {
    const product = partnerProducts.FDF[index % partnerProducts.FDF.length];
    const { row } = deriveFdfValues(
      {
        currency: sale.currency,
        grossSalePriceCurrency: sale.price,
        quantity: sale.quantity,
        deductableExpenses: sale.expenses,
        royaltyPercent: sale.royalty,
      },
      (code) => DEMO_USD_RATES.get(code),
    );
    rows.push({
      reportId,
      kind: "FDF",
      year: quarter.year,
      month: month(index),
      countryId: ids.country(sale.country),
      purchaser: sale.purchaser,
      productId: product.id,
      productName: product.name,
      strength: DEMO_STRENGTHS[product.name] ?? null,
      formulationTypeId: ids.formulation(product.name.includes("pellets") ? "Oral pellets" : "Tablet"),
      packSize: "30",
      quantity: row.quantity,
      currencyCode: sale.currency,
      grossSalePriceCurrency: row.grossSalePriceCurrency,
      usdExchangeRate: row.usdExchangeRate,
      grossSalePriceUsd: row.grossSalePriceUsd,
      totalGrossValue: row.totalGrossValue,
      deductableExpenses: row.deductableExpenses,
      totalValue: row.totalValue,
      royaltyPercent: row.royaltyPercent,
      royaltyDue: row.royaltyDue,
      procurementEndCountry: sale.agency || null,
      comments: null,
    });
  });
  return rows;
}

// ---------------------------------------------------------------- demo licence terms

interface DemoLicence {
  /** The default royalty rate, percent. */
  rate: string;
  apiLicensed: boolean;
  /** Country exceptions by name: another rate, or null (not licensed: outside the territory). */
  countries?: Record<string, string | null>;
}

/**
 * The demo partners' licence terms by product: 5% for some products, 3% or 4% for others,
 * royalty-free in a few low-income countries, a high-income market or two not licensed, and an API
 * licence for some products only. The demo Sales rows (DEMO_API_SALES, DEMO_FDF_SALES) agree with
 * them but for two findings of every quarter: Acme sells Sofosbuvir/Daclatasvir in Nigeria at 5%
 * where its licence says 4%, and Cedar sells Lopinavir/ritonavir pellets in South Africa, outside
 * its territory.
 */
const DEMO_LICENCES: Record<string, Record<string, DemoLicence>> = {
  "partner1@example.org": {
    "Dolutegravir 50 mg": { rate: "5", apiLicensed: true, countries: { Malawi: "0", Mozambique: "0", Brazil: null } },
    "TLD (Tenofovir/Lamivudine/Dolutegravir)": { rate: "3", apiLicensed: false, countries: { Zimbabwe: "0", "United States": null } },
    "Sofosbuvir/Daclatasvir": { rate: "4", apiLicensed: false, countries: { Egypt: "2.5" } },
    "Dolutegravir API": { rate: "5", apiLicensed: true },
  },
  "partner2@example.org": {
    "Daclatasvir 60 mg": { rate: "5", apiLicensed: false, countries: { Ethiopia: "0", Rwanda: "0" } },
    "Tenofovir Alafenamide 25 mg": { rate: "3", apiLicensed: false, countries: { Uganda: "0", China: null } },
    "Sofosbuvir API": { rate: "4", apiLicensed: true },
    "Tenofovir Alafenamide API": { rate: "3", apiLicensed: true },
  },
  "partner3@example.org": {
    "Paediatric Abacavir/Lamivudine/Dolutegravir": { rate: "5", apiLicensed: true, countries: { Malawi: "0", Zambia: "0", "United States": null } },
    "Lopinavir/ritonavir pellets": { rate: "3", apiLicensed: false, countries: { "South Africa": null, Japan: null } },
    "Abacavir API": { rate: "4", apiLicensed: true },
    "Ravidasvir API": { rate: "4", apiLicensed: true },
  },
};

async function seedDemoLicences(
  tx: Executor,
  partnerId: number,
  licences: Record<string, DemoLicence>,
  ids: { product: (name: string) => number; country: (name: string) => number; admin: number },
) {
  const named = Object.entries(licences);
  const terms = await tx
    .insert(licenceTerms)
    .values(
      named.map(([name, licence]) => ({
        partnerId,
        productId: ids.product(name),
        royaltyRate: licence.rate,
        apiLicensed: licence.apiLicensed,
        updatedBy: ids.admin,
      })),
    )
    .returning({ id: licenceTerms.id, productId: licenceTerms.productId });
  const countryRows = named.flatMap(([name, licence]) =>
    Object.entries(licence.countries ?? {}).map(([country, rate]) => ({
      licenceTermId: terms.find((term) => term.productId === ids.product(name))!.id,
      countryId: ids.country(country),
      royaltyRate: rate,
      isLicensed: rate !== null,
    })),
  );
  if (countryRows.length) await tx.insert(licenceCountryTerms).values(countryRows);
}

// ---------------------------------------------------------------- demo PDT and Filing Plans values

const DAY_MS = 86_400_000;

function addDays(isoDate: string, days: number): string {
  return new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Why a stage slipped, as a partner writes it on the row. */
const DEMO_PDT_NOTES: Record<"API" | "FDF", readonly string[]> = {
  FDF: [
    "Awaiting bioequivalence site slot",
    "Exhibit batch moved after equipment qualification",
    "Stability chamber shared with another product this quarter",
    "Reference product sourcing took longer than planned",
    "Answering the regulator's questions on the dossier",
  ],
  API: [
    "Key starting material supplier being requalified",
    "Validation batch yield below target, one batch repeated",
    "Awaiting the DMF acknowledgement letter",
    "Impurity method revalidated before stability loading",
  ],
};

interface DemoPlannedStage {
  startDate: string;
  endDate: string;
  notes: string | null;
}

/**
 * The plan of one product (`seed` tells the demo products apart) as reported in the quarter
 * `offset` quarters before the open one; 3 is the earliest demo report. The stages follow each
 * other over two to three years from a start 16 to 20 months before the open quarter, so the
 * earliest stages lie in the past. Each later quarter slips one stage still ahead of it, and every
 * stage after that one, by 10 to 60 days, and says why on the slipped stage.
 */
function demoPdtPlan(open: QuarterRef, category: "API" | "FDF", stageCount: number, seed: number, offset: number): DemoPlannedStage[] {
  const plan: DemoPlannedStage[] = [];
  let cursor = addDays(quarterBounds(open).startDate, -(480 + (seed % 4) * 45));
  for (let stage = 0; stage < stageCount; stage++) {
    const length = 50 + ((seed * 13 + stage * 29) % 40);
    const startDate = cursor;
    const endDate = addDays(startDate, length - 1);
    plan.push({ startDate, endDate, notes: null });
    cursor = addDays(endDate, 1 + ((seed + stage) % 3) * 7);
  }
  const notes = DEMO_PDT_NOTES[category];
  for (let step = 1; step <= 3 - offset; step++) {
    const reportStart = quarterBounds(addQuarters(open, step - 3)).startDate;
    const firstAhead = plan.findIndex((stage) => stage.startDate >= reportStart);
    if (firstAhead < 0) continue;
    const slipped = Math.min(stageCount - 1, firstAhead + ((seed + step) % 3));
    const days = 10 + ((seed * 17 + step * 23) % 51);
    for (let stage = slipped; stage < stageCount; stage++) {
      plan[stage] = { ...plan[stage], startDate: addDays(plan[stage].startDate, days), endDate: addDays(plan[stage].endDate, days) };
    }
    plan[slipped].notes = notes[(seed + step) % notes.length];
  }
  return plan;
}

/** The countries of the demo Filing Plans (names as in the country table). */
const DEMO_FILING_COUNTRIES = ["India", "Kenya", "South Africa", "Nigeria", "Uganda", "Brazil", "Thailand", "Vietnam"] as const;

/**
 * One cell of a demo Filing Plan, or null for an empty cell. A cell moves along Not Planned,
 * Filing-Planned, a planned quarter (one of the four after the report's quarter), Filed and
 * Registered as the quarters pass.
 */
function demoFilingStatus(quarter: QuarterRef, countryIndex: number, seed: number, offset: number): string | null {
  if ((countryIndex * 3 + seed) % 7 === 4) return null;
  const level = Math.min(4, ((countryIndex * 2 + seed) % 5) + Math.floor((3 - offset) / 2));
  if (level === 2) return plannedFilingQuarters(quarter)[(countryIndex + seed) % 4];
  return (["Not Planned", "Filing-Planned", null, "Filed", "Registered"] as const)[level]!;
}

/** Multi-row inserts, in slices that stay well below the statement's parameter limit. */
async function insertInSlices<T>(rows: T[], insert: (slice: T[]) => Promise<unknown>, size = 1000) {
  for (let start = 0; start < rows.length; start += size) await insert(rows.slice(start, start + size));
}

interface SeedOptions {
  /** Tests pass a memoised hasher: argon2 is slow on purpose. */
  hash?: (password: string) => Promise<string>;
}

export async function seedDemoData(tx: Executor = db, options: SeedOptions = {}) {
  const hash = options.hash ?? hashPassword;
  const open = openQuarterRef();

  const insertedProducts = await tx
    .insert(products)
    .values([...DEMO_PRODUCTS])
    .returning();
  const productId = (name: string) => insertedProducts.find((p) => p.name === name)!.id;
  const countryRows = await tx.select({ id: countries.id, name: countries.name }).from(countries);
  const formulationRows = await tx.select({ id: formulationTypes.id, name: formulationTypes.name }).from(formulationTypes);
  const referenceIds = {
    country: (name: string) => countryRows.find((row) => row.name === name)!.id,
    formulation: (name: string) => formulationRows.find((row) => row.name === name)!.id,
  };
  const demoSales: (typeof salesRows.$inferInsert)[] = [];
  const demoPdt: (typeof pdtValues.$inferInsert)[] = [];
  const demoFiling: (typeof filingValues.$inferInsert)[] = [];
  const stageRows = await tx.select({ id: stages.id, category: stages.category }).from(stages).orderBy(asc(stages.sortOrder), asc(stages.id));
  const stageIds = (category: "API" | "FDF") => stageRows.filter((row) => row.category === category).map((row) => row.id);

  const demoPartners = [
    {
      companyName: "Acme Generics Ltd",
      email: "partner1@example.org",
      contactNumber: "+919876543210",
      address: "Plot 14, MIDC Industrial Area, Andheri East, Mumbai 400093",
      region: "Asia",
      products: [
        ["Dolutegravir 50 mg", "APPROVED"],
        ["TLD (Tenofovir/Lamivudine/Dolutegravir)", "FILED"],
        ["Sofosbuvir/Daclatasvir", "UNDER_DEVELOPMENT"],
        ["Dolutegravir API", "APPROVED"],
      ],
      people: [
        ["Priya", "Sharma", "+919812345678"],
        ["Rahul", "Mehta", "+919823456789"],
      ],
    },
    {
      companyName: "Borealis Pharma Pvt",
      email: "partner2@example.org",
      contactNumber: "+914023456789",
      address: "Genome Valley, Shamirpet, Hyderabad 500078",
      region: "Asia",
      products: [
        ["Daclatasvir 60 mg", "FILED"],
        ["Tenofovir Alafenamide 25 mg", "ON_HOLD"],
        ["Sofosbuvir API", "UNDER_DEVELOPMENT"],
        ["Tenofovir Alafenamide API", "PLANNED"],
      ],
      people: [["Anil", "Kumar", "+914098765432"]],
    },
    {
      companyName: "Cedar Life Sciences",
      email: "partner3@example.org",
      contactNumber: "+271155501234",
      address: null,
      region: "Africa",
      products: [
        ["Paediatric Abacavir/Lamivudine/Dolutegravir", "UNDER_DEVELOPMENT"],
        ["Lopinavir/ritonavir pellets", "DROPPED"],
        ["Abacavir API", "FILED"],
        ["Ravidasvir API", "PLANNED"],
      ],
      people: [["Thandi", "Nkosi", "+271155501990"]],
    },
  ] as const;

  const [admin] = await tx
    .insert(users)
    .values({ email: "admin@example.org", name: "Portal Administrator", role: "ADMIN", passwordHash: await hash(DEMO_PASSWORDS["admin@example.org"]) })
    .returning();
  await tx
    .insert(users)
    .values({ email: "staff@example.org", name: "Programme Staff", role: "STAFF", passwordHash: await hash(DEMO_PASSWORDS["staff@example.org"]) });

  for (const [partnerIndex, demo] of demoPartners.entries()) {
    const [partner] = await tx
      .insert(partners)
      .values({
        companyName: demo.companyName,
        email: demo.email,
        contactNumber: demo.contactNumber,
        address: demo.address,
        region: demo.region,
      })
      .returning();
    const [partnerUser] = await tx
      .insert(users)
      .values({
        email: demo.email,
        name: demo.companyName,
        role: "PARTNER",
        partnerId: partner.id,
        passwordHash: await hash(DEMO_PASSWORDS[demo.email]),
      })
      .returning();
    await tx
      .insert(partnerProducts)
      .values(demo.products.map(([name, projectStatus]) => ({ partnerId: partner.id, productId: productId(name), projectStatus })));
    await tx
      .insert(employees)
      .values(demo.people.map(([firstName, lastName, contactNumber]) => ({ partnerId: partner.id, firstName, lastName, contactNumber })));
    await seedDemoLicences(tx, partner.id, DEMO_LICENCES[demo.email], { product: productId, country: referenceIds.country, admin: admin.id });

    for (const [type, states] of Object.entries(DEMO_REPORT_STATES[demo.email]) as [ReportType, (ReportStatus | null)[]][]) {
      for (const [offset, status] of states.entries()) {
        if (!status) continue;
        const quarterRef = addQuarters(open, -offset);
        const quarter = await ensureQuarter(quarterRef, tx);
        const { endDate } = quarterBounds(quarterRef);
        // Historic quarters were reported shortly after they closed; the open quarter a few days ago.
        const submittedAt = offset === 0 ? new Date(Date.now() - 3 * 86_400_000) : new Date(`${endDate}T10:30:00Z`);
        const submitted = status !== "Saved";
        const decided = status === "Approved" || status === "Rejected";
        const decidedAt = new Date(submittedAt.getTime() + 2 * 86_400_000);
        const [report] = await tx
          .insert(reports)
          .values({
            partnerId: partner.id,
            quarterId: quarter.id,
            type,
            status,
            savedAt: submittedAt,
            savedBy: partnerUser.id,
            firstSubmittedAt: submitted ? submittedAt : null,
            submittedAt: submitted ? submittedAt : null,
            decidedAt: decided ? decidedAt : null,
          })
          .returning();
        const messages: (typeof reportMessages.$inferInsert)[] = [];
        if (submitted) {
          messages.push({
            reportId: report.id,
            authorId: partnerUser.id,
            isPartnerMessage: true,
            message: status === "Resubmitted" ? "Corrected figures as requested." : `Our ${quarter.name} report is complete.`,
            createdAt: submittedAt,
            readByPartnerAt: submittedAt,
            readByAdminAt: decided ? decidedAt : null,
          });
        }
        if (decided) {
          messages.push({
            reportId: report.id,
            authorId: admin.id,
            isPartnerMessage: false,
            isApproved: status === "Approved",
            message: status === "Approved" ? "Thank you, approved." : "Please check the quantities for the second month.",
            createdAt: decidedAt,
            readByAdminAt: decidedAt,
            readByPartnerAt: offset === 0 ? null : decidedAt,
          });
        }
        if (messages.length) await tx.insert(reportMessages).values(messages);
        if (type === "pdt") {
          for (const [productIndex, [name]] of demo.products.entries()) {
            const product = insertedProducts.find((p) => p.name === name)!;
            const ids = stageIds(product.category);
            const plan = demoPdtPlan(open, product.category, ids.length, partnerIndex * 4 + productIndex, offset);
            plan.forEach((stage, index) => demoPdt.push({ reportId: report.id, productId: product.id, stageId: ids[index], ...stage }));
          }
        }
        if (type === "filing") {
          for (const [countryIndex, country] of DEMO_FILING_COUNTRIES.entries()) {
            for (const [productIndex, [name]] of demo.products.entries()) {
              const status = demoFilingStatus(quarterRef, countryIndex, partnerIndex * 4 + productIndex, offset);
              if (status) demoFiling.push({ reportId: report.id, countryId: referenceIds.country(country), productId: productId(name), status });
            }
          }
        }
        if (type === "sales") {
          const own = (category: "API" | "FDF") =>
            insertedProducts.filter((p) => p.category === category && demo.products.some(([name]) => name === p.name)).map((p) => ({ id: p.id, name: p.name }));
          const rich = offset === 0 && demo.email === "partner1@example.org";
          const rows = demoSalesRows(report.id, quarterRef, rich, { API: own("API"), FDF: own("FDF") }, referenceIds);
          if (rich) {
            // The last (FDF) row sells a product that is not in the partner's list: its verification waits for the admin.
            const [verification] = await tx
              .insert(productVerifications)
              .values({ partnerId: partner.id, reportId: report.id, productName: DEMO_UNVERIFIED_PRODUCT.name, category: "FDF" })
              .returning();
            Object.assign(rows[rows.length - 1], {
              productId: null,
              productName: DEMO_UNVERIFIED_PRODUCT.name,
              strength: DEMO_UNVERIFIED_PRODUCT.strength,
              productVerificationId: verification.id,
            });
          }
          demoSales.push(...rows);
        }
      }
    }
  }
  await insertInSlices(demoSales, (rows) => tx.insert(salesRows).values(rows));
  await insertInSlices(demoPdt, (rows) => tx.insert(pdtValues).values(rows));
  await insertInSlices(demoFiling, (rows) => tx.insert(filingValues).values(rows));
  // Rows written without a save: their stored checks (the partners' mean prices, the finding counts) too.
  await refreshAllSalesChecks(tx);

  // The open quarter's deadline: 15 days before it closes, so that the reminders after it
  // (1 and 7 days by default) still fall inside the quarter they are about.
  const { endDate } = quarterBounds(open);
  const cutOff = new Date(Date.parse(`${endDate}T00:00:00Z`) - 15 * 86_400_000).toISOString().slice(0, 10);
  await tx.insert(settings).values({ key: "cut_off_date", value: cutOff, updatedBy: admin.id }).onConflictDoNothing();
}

/**
 * Seeds reference and demo data into a database that has no users yet; a database with users
 * is never touched. An advisory lock keeps two starting servers from seeding twice.
 */
export async function seedIfEmpty(options: SeedOptions = {}): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(72015001)`);
    const [{ value: userCount }] = await tx.select({ value: count() }).from(users);
    if (Number(userCount) > 0) return false;
    await seedReferenceData(tx);
    await seedDemoData(tx, options);
    return true;
  });
}

/**
 * The sales rows behind a product verification, looked up by the verification (the index of
 * migration 0008): the dialog counts each verification's own rows, whatever report carries them and
 * whatever other partners carry, and a save drops the verifications it raised that no row carries.
 */
import { and, asc, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { partners, productVerifications, reports, salesRows, users } from "~/db/schema";
import { listProductVerifications } from "~/models/product-verification.server";
import { ensureQuarter, openQuarterRef } from "~/models/quarter.server";
import { saveSalesReport, type SaveSalesReportInput } from "~/models/sales-report.server";
import { getAuthUser, type AuthUser } from "~/models/user.server";
import { addQuarters } from "~/utils/quarters";
import type { SalesRowInput } from "~/utils/sales-rows";

const NAME = "Nevirapine 200 mg";
const year = String(openQuarterRef().year);

let open: number;
let historic: number;
let acme: number;
let cedar: number;
let partner3: AuthUser;

async function partnerIdOf(email: string) {
  const [partner] = await db.select().from(partners).where(eq(partners.email, email));
  return partner.id;
}
async function salesReportOf(partnerId: number, quarterId: number) {
  const [report] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.partnerId, partnerId), eq(reports.quarterId, quarterId), eq(reports.type, "sales")));
  return report;
}
const pendingOf = (partnerId: number) =>
  db
    .select()
    .from(productVerifications)
    .where(and(eq(productVerifications.partnerId, partnerId), eq(productVerifications.status, "pending")))
    .orderBy(asc(productVerifications.id));

beforeEach(async () => {
  open = (await ensureQuarter(openQuarterRef())).id;
  historic = (await ensureQuarter(addQuarters(openQuarterRef(), -1))).id;
  [acme, cedar] = await Promise.all(["partner1", "partner3"].map((name) => partnerIdOf(`${name}@example.org`)));
  const [user] = await db.select().from(users).where(eq(users.email, "partner3@example.org"));
  partner3 = (await getAuthUser(user.id))!;
});

/** A save of Cedar's open quarter (not started in the seed). */
const cedarSave = (overrides: Partial<SaveSalesReportInput>): SaveSalesReportInput => ({
  actor: partner3,
  partnerId: cedar,
  quarterId: open,
  expectedVersion: 0,
  api: [],
  fdf: [],
  deletedIds: [],
  action: "save",
  ...overrides,
});
const fdfRow = (overrides: SalesRowInput = {}): SalesRowInput => ({
  year,
  month: "February",
  country: "Kenya",
  purchaser: "Kenya Medical Supplies Authority",
  productName: "Paediatric Abacavir/Lamivudine/Dolutegravir",
  strength: "60/30/5 mg",
  formulationType: "tablet",
  packSize: "30",
  quantity: "1,000",
  currency: "usd",
  grossSalePriceCurrency: "2.5",
  royaltyPercent: "5",
  royaltyDue: "",
  ...overrides,
});

describe("the rows of a pending product verification", () => {
  it("are counted per verification in the dialog, and the verification goes with the last row that carries it", async () => {
    const first = await saveSalesReport(
      cedarSave({ fdf: [fdfRow({ productName: NAME }), fdfRow({ productName: "nevirapine 200 MG", country: "Nigeria" }), fdfRow()] }),
    );
    if (!first.ok) throw new Error(JSON.stringify(first.problems));
    const [pending] = await pendingOf(cedar);
    expect(pending).toMatchObject({ productName: NAME, reportId: first.reportId });

    // The name is carried by a row of Cedar's earlier report too; Acme waits for a verification of the same name, with one row.
    await db.insert(salesRows).values({ reportId: (await salesReportOf(cedar, historic)).id, kind: "FDF", productName: NAME, productVerificationId: pending.id });
    const acmeReport = await salesReportOf(acme, open);
    const [acmePending] = await db
      .insert(productVerifications)
      .values({ partnerId: acme, reportId: acmeReport.id, productName: NAME, category: "FDF" })
      .returning();
    await db.insert(salesRows).values({ reportId: acmeReport.id, kind: "FDF", productName: NAME, productVerificationId: acmePending.id });

    const cedarList = await listProductVerifications(cedar, first.reportId);
    expect(cedarList.pendingProducts).toEqual([expect.objectContaining({ product_verification_id: pending.id, product_name: NAME, row_count: 3 })]);
    expect((await listProductVerifications(acme, acmeReport.id)).pendingProducts).toContainEqual(
      expect.objectContaining({ product_verification_id: acmePending.id, product_name: NAME, row_count: 1 }),
    );

    // Cedar corrects both rows of this report: the earlier report's row still carries the name, so it still waits.
    const rows = await db.select().from(salesRows).where(eq(salesRows.reportId, first.reportId)).orderBy(asc(salesRows.id));
    const corrected = await saveSalesReport(
      cedarSave({ expectedVersion: first.version, fdf: [fdfRow({ id: rows[0].id }), fdfRow({ id: rows[1].id, country: "Nigeria" })] }),
    );
    expect(corrected).toMatchObject({ ok: true, counts: { updated: 2 } });
    if (!corrected.ok) return;
    expect((await pendingOf(cedar)).map((verification) => verification.id)).toEqual([pending.id]);
    expect((await listProductVerifications(cedar, first.reportId)).pendingProducts).toEqual([
      expect.objectContaining({ product_verification_id: pending.id, row_count: 1 }),
    ]);

    // That row gone too, the next save of the report that raised the name drops it; Acme's stays.
    await db.delete(salesRows).where(eq(salesRows.productVerificationId, pending.id));
    const saved = await saveSalesReport(cedarSave({ expectedVersion: corrected.version }));
    expect(saved).toMatchObject({ ok: true });
    expect(await pendingOf(cedar)).toEqual([]);
    expect((await listProductVerifications(cedar, first.reportId)).pendingProducts).toEqual([]);
    expect((await pendingOf(acme)).map((verification) => verification.id)).toContain(acmePending.id);
  });
});

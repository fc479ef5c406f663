/**
 * The Development Timeline's changes to explain (issue "Checks that catch what a reviewer would
 * miss"), worked out by hand: a planned end date moved more than a quarter later than the plan
 * reported before (exactly three months is not), and a last stage ended while the project status
 * still says Under Development (a last stage ending after the quarter is not). Submit waits for a
 * reason for each.
 */
import { and, eq, inArray } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { partnerProducts, partners, pdtValues, products, reports, stages, users } from "~/db/schema";
import { ensureQuarter, openQuarterRef } from "~/models/quarter.server";
import { EXPLANATION_MESSAGES } from "~/reports/frame/explanations";
import { performReportAction } from "~/reports/frame/workflow.server";
import { pdtChangesToExplain } from "~/reports/pdt/slips.server";
import { addQuarters, quarterBounds } from "~/utils/quarters";

const DTG = "Dolutegravir 50 mg";
const TLD = "TLD (Tenofovir/Lamivudine/Dolutegravir)";

let acme: number;
let open: { id: number; endDate: string };
let report: number;
let ids: { dtg: number; tld: number; first: { id: number; name: string }; second: { id: number; name: string } };

async function pdtReportOf(quarterId: number) {
  const [found] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.partnerId, acme), eq(reports.quarterId, quarterId), eq(reports.type, "pdt")));
  if (found) {
    await db.update(reports).set({ status: "Saved" }).where(eq(reports.id, found.id));
    return found.id;
  }
  return (await db.insert(reports).values({ partnerId: acme, quarterId, type: "pdt", status: "Saved" }).returning())[0].id;
}

beforeEach(async () => {
  acme = (await db.select().from(partners).where(eq(partners.email, "partner1@example.org")))[0].id;
  const acmeReports = await db
    .select({ id: reports.id })
    .from(reports)
    .where(and(eq(reports.partnerId, acme), eq(reports.type, "pdt")));
  await db.delete(pdtValues).where(
    inArray(
      pdtValues.reportId,
      acmeReports.map((row) => row.id),
    ),
  );
  const openQuarter = await ensureQuarter(openQuarterRef());
  open = { id: openQuarter.id, endDate: openQuarter.endDate };
  const previous = await ensureQuarter(addQuarters(openQuarterRef(), -1));
  const [dtg, tld] = await Promise.all([DTG, TLD].map(async (name) => (await db.select().from(products).where(eq(products.name, name)))[0].id));
  const [first, second] = await db.select({ id: stages.id, name: stages.name }).from(stages).orderBy(stages.id).limit(2);
  ids = { dtg, tld, first, second };
  report = await pdtReportOf(open.id);
  const before = await pdtReportOf(previous.id);
  await db
    .update(partnerProducts)
    .set({ projectStatus: "UNDER_DEVELOPMENT" })
    .where(and(eq(partnerProducts.partnerId, acme), inArray(partnerProducts.productId, [dtg, tld])));
  const { endDate: openEnd } = quarterBounds(openQuarterRef());
  const dayAfter = new Date(Date.parse(`${openEnd}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  await db.insert(pdtValues).values([
    // The plan reported before.
    { reportId: before, productId: dtg, stageId: first.id, startDate: "2025-01-01", endDate: "2026-03-31" },
    { reportId: before, productId: dtg, stageId: second.id, startDate: "2025-01-01", endDate: "2026-06-30" },
    // Now: the first stage ends on 1 July, a day more than three months after 31 March: listed.
    { reportId: report, productId: dtg, stageId: first.id, startDate: "2025-01-01", endDate: "2026-07-01" },
    // The second ends on 30 September, exactly three months after 30 June: not listed as a slip; it is the
    // last stage of the product, ended by the quarter's end while the product is Under Development: listed.
    { reportId: report, productId: dtg, stageId: second.id, startDate: "2025-01-01", endDate: "2026-09-30" },
    // TLD's last stage ends the day after the quarter: not listed.
    { reportId: report, productId: tld, stageId: first.id, startDate: "2025-01-01", endDate: dayAfter },
  ]);
});

const linesOfAcme = () => pdtChangesToExplain(db, { reportId: report, partnerId: acme, quarterId: open.id, withPeers: false });

describe("the Development Timeline's changes to explain", () => {
  it("lists the slip beyond a quarter and the last stage passed under a status that did not change, and nothing just inside", async () => {
    expect(await linesOfAcme()).toEqual([
      {
        subject: `pdt:slipped:${ids.dtg}:${ids.first.id}`,
        line: { message: "{{product}}: {{stage}}", values: { product: DTG, stage: ids.first.name } },
        changes: [{ message: "Planned end date moved from {{from}} to {{to}}, more than a quarter later.", values: { from: "2026-03-31", to: "2026-07-01" } }],
        reason: null,
      },
      {
        subject: `pdt:ended:${ids.dtg}`,
        line: { message: "{{product}}: {{stage}}", values: { product: DTG, stage: ids.second.name } },
        changes: [
          {
            message: "The timeline's last stage ended on {{to}}, but the project status is still {{status}}.",
            values: { to: "2026-09-30", status: "Under Development" },
          },
        ],
        reason: null,
      },
    ]);
    // Approved: the status changed, nothing to explain about the last stage.
    await db
      .update(partnerProducts)
      .set({ projectStatus: "APPROVED" })
      .where(and(eq(partnerProducts.partnerId, acme), eq(partnerProducts.productId, ids.dtg)));
    expect((await linesOfAcme()).map((line) => line.subject)).toEqual([`pdt:slipped:${ids.dtg}:${ids.first.id}`]);
  });

  it("Submit waits for a reason for each line", async () => {
    const [user] = await db.select().from(users).where(eq(users.email, "partner1@example.org"));
    const submit = () =>
      performReportAction({
        actor: { id: user.id, role: "PARTNER", partnerId: acme },
        key: { partnerId: acme, quarterId: open.id, type: "pdt" },
        action: "submit",
        comment: "Our timeline.",
      });
    await expect(submit()).rejects.toMatchObject({ message: EXPLANATION_MESSAGES.submitRefused, values: { count: 2 } });
  });
});

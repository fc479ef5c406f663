/**
 * How many SQL statements a report's page view and a one-cell save send (issue: at most 12 each),
 * counted through the database handle's statement listener. A new statement on these paths shows
 * here first: read what the request already has before reading again.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { partners, salesRows } from "~/db/schema";
import { getOpenQuarter } from "~/models/quarter.server";
import { loadSalesReport } from "~/reports/sales/model.server";
import { loader as filingLoader } from "~/routes/_shell.partner.filing-plans";
import { loader as pdtLoader } from "~/routes/_shell.partner.development-timeline";
import { action as salesAction, loader as salesLoader } from "~/routes/_shell.partner.sales-report";
import { buildRequest, runRoute, sessionCookieFor, type RouteResult } from "../support/remix";
import { counted } from "../support/statements";

const MAX_STATEMENTS = 12;
const ACME = "partner1@example.org";

describe("SQL statements per request", () => {
  it.each([
    ["Development Timeline", "/partner/development-timeline", pdtLoader],
    ["Filing Plans", "/partner/filing-plans", filingLoader],
    ["Sales Report", "/partner/sales-report", salesLoader],
  ] as const)("the partner's %s page: at most 12", async (_name, path, loader) => {
    const cookie = await sessionCookieFor(ACME);
    // The first view fills what is kept between views (the changes since the last submission).
    await runRoute(loader, buildRequest(path, { cookie }));
    const { statements, result } = await counted(() => runRoute(loader, buildRequest(path, { cookie })));
    expect((result as RouteResult).status).toBe(200);
    expect(statements.length, statements.join("\n")).toBeLessThanOrEqual(MAX_STATEMENTS);
  });

  it("a one-cell save of the Sales Report: at most 12, and the cell is saved", async () => {
    const cookie = await sessionCookieFor(ACME);
    const [acme] = await db.select().from(partners).where(eq(partners.email, ACME));
    const quarter = await getOpenQuarter();
    const { rows, report } = await loadSalesReport({ viewer: { id: 0, role: "ADMIN", partnerId: null }, partnerId: acme.id });
    const row = { ...rows.API[0], purchaser: "Counted Buyer Ltd" };
    const json = { intent: "save", quarterId: String(quarter.id), version: String(report.version), payload: { API: [row], FDF: [], deletedIds: [] } };
    const { statements, result } = await counted(() => runRoute(salesAction, buildRequest("/partner/sales-report", { cookie, json })));
    expect(result.status).toBe(302);
    const [saved] = await db
      .select()
      .from(salesRows)
      .where(eq(salesRows.id, Number(row.id)));
    expect(saved.purchaser).toBe("Counted Buyer Ltd");
    expect(statements.length, statements.join("\n")).toBeLessThanOrEqual(MAX_STATEMENTS);
  });
});

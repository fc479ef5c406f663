import { createHash } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { reports, reportSnapshots, users } from "~/db/schema";

/**
 * The partner's latest submission of a report (its snapshot's id), what its proof (PDF) is
 * downloaded by: the seed takes no snapshots, so when there is none one is taken of the partner's
 * latest report of the type, of no rows, as submitted by one of its logins.
 */
export async function submissionOf(partnerId: number, type: "pdt" | "filing" | "sales"): Promise<number> {
  const [found] = await db
    .select({ id: reportSnapshots.id })
    .from(reportSnapshots)
    .innerJoin(reports, eq(reports.id, reportSnapshots.reportId))
    .where(and(eq(reports.partnerId, partnerId), eq(reports.type, type), eq(reportSnapshots.event, "submit")))
    .orderBy(desc(reportSnapshots.id))
    .limit(1);
  if (found) return found.id;
  const [report] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.partnerId, partnerId), eq(reports.type, type)))
    .orderBy(desc(reports.id))
    .limit(1);
  const [submitter] = await db.select({ id: users.id }).from(users).where(eq(users.partnerId, partnerId)).limit(1);
  const [taken] = await db
    .insert(reportSnapshots)
    .values({
      reportId: report.id,
      event: "submit",
      version: report.version,
      rows: [],
      rowCount: 0,
      sha256: createHash("sha256").update("[]").digest("hex"),
      createdBy: submitter.id,
    })
    .returning({ id: reportSnapshots.id });
  return taken.id;
}

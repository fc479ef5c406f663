import { and, eq, ne } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { auditLog, partners, productVerifications, reportMessages, reports, reportSnapshots, salesRows, settings, users } from "~/db/schema";
import { ensureQuarter, openQuarterRef } from "~/models/quarter.server";
import {
  StaleReportError,
  WorkflowError,
  listReportMessages,
  markMessagesRead,
  performReportAction,
  unreadMessageCount,
  type ReportKey,
} from "~/reports/frame/workflow.server";
import { getAuthUser } from "~/models/user.server";
import { WORKFLOW_REFUSALS } from "~/reports/frame/workflow";
import { addQuarters } from "~/utils/quarters";

async function actorFor(email: string) {
  const [user] = await db.select().from(users).where(eq(users.email, email));
  return (await getAuthUser(user.id))!;
}
async function partnerId(email: string) {
  const [partner] = await db.select().from(partners).where(eq(partners.email, email));
  return partner.id;
}
async function reportOf(key: ReportKey) {
  const [row] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.partnerId, key.partnerId), eq(reports.quarterId, key.quarterId), eq(reports.type, key.type)));
  return row;
}
async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkflowError);
  return error as WorkflowError;
}

let openQuarterId: number;
let historicQuarterId: number;
let acme: number;
let borealis: number;
let cedar: number;
beforeEach(async () => {
  openQuarterId = (await ensureQuarter(openQuarterRef())).id;
  historicQuarterId = (await ensureQuarter(addQuarters(openQuarterRef(), -1))).id;
  [acme, borealis, cedar] = await Promise.all(["partner1", "partner2", "partner3"].map((p) => partnerId(`${p}@example.org`)));
});

describe("partner transitions", () => {
  it("save: a new report starts as Saved; Saved, Submitted, Resubmitted and Rejected become Saved", async () => {
    const partner = await actorFor("partner3@example.org");
    const result = await performReportAction({ actor: partner, key: { partnerId: cedar, quarterId: openQuarterId, type: "sales" }, action: "save" });
    expect(result).toMatchObject({ status: "Saved", version: 1 });

    const acmeUser = await actorFor("partner1@example.org");
    for (const type of ["sales", "pdt", "filing"] as const) {
      // Acme's open quarter: sales Saved, pdt Submitted, filing Rejected.
      const saved = await performReportAction({ actor: acmeUser, key: { partnerId: acme, quarterId: openQuarterId, type }, action: "save" });
      expect(saved.status).toBe("Saved");
    }
    const borealisUser = await actorFor("partner2@example.org");
    expect(
      (await performReportAction({ actor: borealisUser, key: { partnerId: borealis, quarterId: openQuarterId, type: "pdt" }, action: "save" })).status,
    ).toBe("Saved");
  });

  it("save is refused on an approved report and in a historic quarter, and changes nothing", async () => {
    const partner = await actorFor("partner2@example.org");
    const approvedKey: ReportKey = { partnerId: borealis, quarterId: openQuarterId, type: "sales" };
    const before = await reportOf(approvedKey);
    const approved = await refusal(performReportAction({ actor: partner, key: approvedKey, action: "save" }));
    expect(approved.message).toBe(WORKFLOW_REFUSALS.approved);
    expect(await reportOf(approvedKey)).toEqual(before);

    const historic = await refusal(
      performReportAction({ actor: partner, key: { partnerId: borealis, quarterId: historicQuarterId, type: "pdt" }, action: "save" }),
    );
    expect(historic.message).toBe(WORKFLOW_REFUSALS.historic);
  });

  it("submit needs a comment, goes to Submitted the first time and Resubmitted after a rejection", async () => {
    const partner = await actorFor("partner3@example.org");
    const key: ReportKey = { partnerId: cedar, quarterId: openQuarterId, type: "pdt" };
    const noComment = await refusal(performReportAction({ actor: partner, key, action: "submit", comment: "  " }));
    expect(noComment.message).toBe("Enter comments for admin");
    expect(await reportOf(key)).toBeUndefined();

    expect((await performReportAction({ actor: partner, key, action: "submit", comment: "All products on track." })).status).toBe("Submitted");
    const admin = await actorFor("admin@example.org");
    expect((await performReportAction({ actor: admin, key, action: "reject", comment: "Dates missing for Abacavir API." })).status).toBe("Rejected");
    expect((await performReportAction({ actor: partner, key, action: "submit", comment: "Dates added." })).status).toBe("Resubmitted");
  });

  it("a submitted report is submitted again only with changes, which are saved first: then it is Resubmitted", async () => {
    const partner = await actorFor("partner1@example.org");
    const key: ReportKey = { partnerId: acme, quarterId: openQuarterId, type: "pdt" }; // Submitted
    const unchanged = await refusal(performReportAction({ actor: partner, key, action: "submit", comment: "Once more." }));
    expect(unchanged.message).toBe(WORKFLOW_REFUSALS.alreadySubmitted);
    const sameRows = await refusal(
      performReportAction({ actor: partner, key, action: "submit", comment: "Once more.", writeRows: async () => ({ changed: false }) }),
    );
    expect(sameRows.message).toBe(WORKFLOW_REFUSALS.alreadySubmitted);
    expect((await reportOf(key)).status).toBe("Submitted");
    const changed = await performReportAction({
      actor: partner,
      key,
      action: "submit",
      comment: "Updated the stability dates.",
      writeRows: async () => ({ changed: true }),
    });
    expect(changed.status).toBe("Resubmitted");
  });

  it("an approved report of a closed quarter cannot be reopened (it could never be approved again)", async () => {
    const admin = await actorFor("admin@example.org");
    const [closed] = await db
      .select()
      .from(reports)
      .where(and(eq(reports.status, "Approved"), ne(reports.quarterId, openQuarterId)))
      .limit(1);
    const key: ReportKey = { partnerId: closed.partnerId, quarterId: closed.quarterId, type: closed.type };
    const error = await refusal(performReportAction({ actor: admin, key, action: "reopen", comment: "A correction." }));
    expect(error.message).toBe(WORKFLOW_REFUSALS.historic);
    expect((await reportOf(key)).status).toBe("Approved");
  });

  it("a partner cannot approve, reject or reopen, and cannot touch another partner's report", async () => {
    const partner = await actorFor("partner1@example.org");
    for (const action of ["approve", "reject", "reopen"] as const) {
      const error = await refusal(
        performReportAction({ actor: partner, key: { partnerId: acme, quarterId: openQuarterId, type: "pdt" }, action, comment: "ok" }),
      );
      expect(error.status).toBe(403);
    }
    const other = await refusal(performReportAction({ actor: partner, key: { partnerId: borealis, quarterId: openQuarterId, type: "pdt" }, action: "save" }));
    expect(other.status).toBe(403);
    expect((await reportOf({ partnerId: borealis, quarterId: openQuarterId, type: "pdt" })).status).toBe("Resubmitted");
  });

  it("the first submission after the cut-off date is marked late", async () => {
    await db.update(settings).set({ value: "2000-01-01" }).where(eq(settings.key, "cut_off_date"));
    const partner = await actorFor("partner3@example.org");
    const result = await performReportAction({
      actor: partner,
      key: { partnerId: cedar, quarterId: openQuarterId, type: "filing" },
      action: "submit",
      comment: "Late, sorry.",
    });
    expect(result.isLate).toBe(true);
  });
});

describe("admin and staff transitions", () => {
  it("approve and reject need a submitted report in the open quarter and a comment", async () => {
    const admin = await actorFor("admin@example.org");
    const submitted: ReportKey = { partnerId: acme, quarterId: openQuarterId, type: "pdt" };
    expect((await refusal(performReportAction({ actor: admin, key: submitted, action: "approve", comment: "" }))).message).toBe("Enter comments for partner");
    expect((await performReportAction({ actor: admin, key: submitted, action: "approve", comment: "Thank you." })).status).toBe("Approved");

    const saved: ReportKey = { partnerId: acme, quarterId: openQuarterId, type: "sales" };
    expect((await refusal(performReportAction({ actor: admin, key: saved, action: "reject", comment: "No." }))).message).toBe(WORKFLOW_REFUSALS.notSubmitted);

    const resubmitted: ReportKey = { partnerId: borealis, quarterId: openQuarterId, type: "pdt" };
    expect((await performReportAction({ actor: admin, key: resubmitted, action: "reject", comment: "Please add notes." })).status).toBe("Rejected");
  });

  it("approve and reject of a Sales Report wait for its pending product verifications; the partner's other reports do not", async () => {
    const admin = await actorFor("admin@example.org");
    const key: ReportKey = { partnerId: acme, quarterId: openQuarterId, type: "sales" };
    await performReportAction({ actor: await actorFor("partner1@example.org"), key, action: "submit", comment: "Our quarter." });
    const report = await reportOf(key);
    await db.insert(productVerifications).values({ partnerId: acme, reportId: report.id, productName: "New molecule", category: "FDF" });
    for (const action of ["approve", "reject"] as const) {
      const error = await refusal(performReportAction({ actor: admin, key, action, comment: "ok" }));
      expect(error.message).toBe("Product verification pending!");
    }
    expect((await reportOf(key)).status).toBe("Submitted");
    const timeline: ReportKey = { partnerId: acme, quarterId: openQuarterId, type: "pdt" };
    expect((await performReportAction({ actor: admin, key: timeline, action: "approve", comment: "ok" })).status).toBe("Approved");
  });

  it("approve and reject are refused in a historic quarter; reopen takes an approved report back to Saved", async () => {
    const admin = await actorFor("admin@example.org");
    // Borealis, one quarter back: pdt Approved, filing Submitted.
    const historicSubmitted: ReportKey = { partnerId: borealis, quarterId: historicQuarterId, type: "filing" };
    expect((await refusal(performReportAction({ actor: admin, key: historicSubmitted, action: "approve", comment: "ok" }))).message).toBe(
      WORKFLOW_REFUSALS.historic,
    );
    const approved: ReportKey = { partnerId: borealis, quarterId: openQuarterId, type: "sales" };
    expect((await refusal(performReportAction({ actor: admin, key: approved, action: "reopen", comment: "" }))).message).toBe("Enter comments for partner");
    expect((await performReportAction({ actor: admin, key: approved, action: "reopen", comment: "Please correct March." })).status).toBe("Saved");
    expect((await refusal(performReportAction({ actor: admin, key: approved, action: "reopen", comment: "again" }))).message).toBe(
      WORKFLOW_REFUSALS.notApproved,
    );
  });

  it("an admin saves any report, in any quarter, without changing its state", async () => {
    const admin = await actorFor("admin@example.org");
    const historicApproved: ReportKey = { partnerId: borealis, quarterId: historicQuarterId, type: "pdt" };
    const result = await performReportAction({ actor: admin, key: historicApproved, action: "save" });
    expect(result.status).toBe("Approved");
  });

  it("staff can change nothing", async () => {
    const staff = await actorFor("staff@example.org");
    for (const action of ["save", "submit", "approve", "reject", "reopen"] as const) {
      const error = await refusal(performReportAction({ actor: staff, key: { partnerId: acme, quarterId: openQuarterId, type: "pdt" }, action, comment: "x" }));
      expect(error.status).toBe(403);
      expect(error.message).toBe(WORKFLOW_REFUSALS.staff);
    }
  });
});

describe("what every transition records", () => {
  it("a submission writes the comment as a message, a snapshot with its SHA-256 and an audit entry", async () => {
    const partner = await actorFor("partner3@example.org");
    const key: ReportKey = { partnerId: cedar, quarterId: openQuarterId, type: "sales" };
    const result = await performReportAction({
      actor: partner,
      key,
      action: "submit",
      comment: "Q sales attached.",
      writeRows: async (tx, reportId) => {
        await tx.insert(salesRows).values({ reportId, kind: "API", year: 2026, month: 3, purchaser: "Global Fund", quantity: "12.5", totalValue: "1000.00" });
        return { changed: true };
      },
    });
    expect(result.snapshotSha256).toMatch(/^[0-9a-f]{64}$/);
    const [snapshot] = await db.select().from(reportSnapshots).where(eq(reportSnapshots.reportId, result.reportId));
    expect(snapshot).toMatchObject({ event: "submit", rowCount: 1, sha256: result.snapshotSha256 });
    const { messages, unread } = await listReportMessages(result.reportId, "admin");
    expect(messages).toEqual([expect.objectContaining({ message: "Q sales attached.", isPartnerMessage: true, author: "Cedar Life Sciences" })]);
    expect(unread).toBe(1);
    expect((await listReportMessages(result.reportId, "partner")).unread).toBe(0);
    const audit = await db.select().from(auditLog).where(eq(auditLog.action, "report.submit"));
    expect(audit).toHaveLength(1);
    expect(audit[0].after).toMatchObject({ status: "Submitted" });
  });

  it("a refused transition rolls back the rows it was given", async () => {
    const partner = await actorFor("partner2@example.org");
    const key: ReportKey = { partnerId: borealis, quarterId: openQuarterId, type: "sales" }; // Approved
    await refusal(
      performReportAction({
        actor: partner,
        key,
        action: "save",
        writeRows: async (tx, reportId) => {
          await tx.insert(salesRows).values({ reportId, kind: "API", purchaser: "should not stay" });
          return { changed: true };
        },
      }),
    );
    expect(await db.select().from(salesRows).where(eq(salesRows.purchaser, "should not stay"))).toHaveLength(0);
  });

  it("a save that started from an older version is refused with who saved and when", async () => {
    const partner = await actorFor("partner1@example.org");
    const admin = await actorFor("admin@example.org");
    const key: ReportKey = { partnerId: acme, quarterId: openQuarterId, type: "sales" };
    const loaded = (await reportOf(key)).version;
    await performReportAction({ actor: admin, key, action: "save", expectedVersion: loaded });
    const error = await refusal(performReportAction({ actor: partner, key, action: "save", expectedVersion: loaded }));
    expect(error).toBeInstanceOf(StaleReportError);
    expect((error as StaleReportError).values.name).toBe("Portal Administrator");
    expect((await reportOf(key)).version).toBe(loaded + 1);
  });

  it("unread messages count per side and reset when opened", async () => {
    const admin = await actorFor("admin@example.org");
    const key: ReportKey = { partnerId: acme, quarterId: openQuarterId, type: "pdt" };
    const { reportId } = await performReportAction({ actor: admin, key, action: "reject", comment: "Please add the pilot BE dates." });
    // Acme's open-quarter PDT had its own submission message (read by the partner).
    expect(await unreadMessageCount(reportId, "partner")).toBe(1);
    expect(await unreadMessageCount(reportId, "admin")).toBe(1);
    await markMessagesRead(reportId, "partner");
    expect(await unreadMessageCount(reportId, "partner")).toBe(0);
    expect(await unreadMessageCount(reportId, "admin")).toBe(1);
    const rows = await db.select().from(reportMessages).where(eq(reportMessages.reportId, reportId));
    expect(rows.every((row) => row.readByPartnerAt !== null)).toBe(true);
  });
});

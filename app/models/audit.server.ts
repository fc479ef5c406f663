import { db } from "~/db/client.server";
import { auditLog } from "~/db/schema";

interface AuditEntry {
  actorId: number | null;
  action: string;
  entity: string;
  entityId?: string | number | null;
  before?: unknown;
  after?: unknown;
  requestId?: string | null;
}

export async function writeAudit(entry: AuditEntry, executor: Pick<typeof db, "insert"> = db) {
  await executor.insert(auditLog).values({
    actorId: entry.actorId,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId == null ? null : String(entry.entityId),
    before: entry.before ?? null,
    after: entry.after ?? null,
    requestId: entry.requestId ?? null,
  });
}

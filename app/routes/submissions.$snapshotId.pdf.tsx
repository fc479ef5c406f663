import type { LoaderFunctionArgs } from "@remix-run/node";
import { idParam } from "~/utils/params.server";
import { requireUser } from "~/utils/auth.server";
import { submissionPdfDownload } from "~/reports/frame/submission-pdf.server";

/** GET /submissions/{snapshotId}/pdf: the proof of a submission (a partner: its own reports only; ADMIN and STAFF: any partner's). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return submissionPdfDownload(user, idParam(params.snapshotId));
}

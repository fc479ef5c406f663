/**
 * The rules of the product verification form that the browser checks before posting and the
 * server checks again (spec section 5): client-safe, no zod, like the report's other rules.
 */
import { PROJECT_STATUSES, type ProjectStatus } from "~/utils/project-status";

/** The spec's messages of the product verification dialog (section 5), also translation keys. */
export const VERIFICATION_MESSAGES = {
  productName: "Please Enter Product name",
  decision: "Please enter status.",
  category: "Please select category",
  therapyArea: "Please select therapy area.",
  projectStatus: "Please select Product Status!",
  wrongProduct: "Please select a product of the same category.",
  notFound: "Product verification not found",
  alreadyDecided: "This product has already been verified.",
  approved: "Product approved and assigned to the partner.",
  rejected: "Product rejected.",
} as const;

const isProjectStatus = (value: unknown): value is ProjectStatus => typeof value === "string" && (PROJECT_STATUSES as readonly string[]).includes(value);

/** The form's errors by field: a decision is needed, and approving needs a product status (a rejection does not). */
export function verificationFormProblems({ decision, projectStatus }: { decision: string | null; projectStatus: string | null }): Record<string, string[]> {
  if (decision !== "approve" && decision !== "reject") return { decision: [VERIFICATION_MESSAGES.decision] };
  if (decision === "approve" && !isProjectStatus(projectStatus)) return { projectStatus: [VERIFICATION_MESSAGES.projectStatus] };
  return {};
}

import { Form, useNavigation } from "@remix-run/react";
import { useId, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { ProductVerificationList } from "~/reports/sales/product-verification.server";
import { PROJECT_STATUS_LABELS } from "~/utils/project-status";
import { ErrorList } from "~/components/error-list";
import { ModalDialog } from "~/reports/frame/dialogs";
import { verificationFormProblems } from "~/reports/sales/product-verification-rules";

type VerificationErrors = { verificationId: number; errors: Record<string, string[]> } | null;

/** A field of the verification form: its label, its control, and the errors said below it (`{controlId}-error`). */
function VerificationField({
  controlId,
  label,
  errors,
  invalid = Boolean(errors),
  children,
}: {
  controlId: string;
  label: string;
  errors?: string[];
  invalid?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={`field${invalid ? " field--invalid" : ""}`}>
      <label className="field__label" htmlFor={controlId}>
        {label}
      </label>
      <div className="field__control">{children}</div>
      <ErrorList id={`${controlId}-error`} errors={errors} />
    </div>
  );
}

/** One pending product name: approve it by mapping it to an existing product or creating one, or reject it. */
function PendingProductForm({
  item,
  list,
  quarterId,
  errors,
}: {
  item: ProductVerificationList["pendingProducts"][number];
  list: ProductVerificationList;
  quarterId: number;
  errors?: Record<string, string[]>;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const id = useId();
  const [mapTo, setMapTo] = useState(item.existing_product_id ? String(item.existing_product_id) : "");
  // What the browser's check refused; else the server's errors.
  const [browserErrors, setBrowserErrors] = useState<Record<string, string[]> | null>(null);
  const shown = browserErrors ?? errors;
  const creating = mapTo === "";
  const busy = navigation.state !== "idle" && navigation.formData?.get("verificationId") === String(item.product_verification_id);
  return (
    <Form
      method="post"
      className="verification-item"
      data-testid="pending-product"
      aria-labelledby={`${id}-name`}
      onSubmit={(event) => {
        const submitter = (event.nativeEvent as SubmitEvent).submitter;
        const problems = verificationFormProblems({
          decision: submitter instanceof HTMLButtonElement ? submitter.value : null,
          projectStatus: new FormData(event.currentTarget).get("projectStatus") as string | null,
        });
        const refused = Object.keys(problems).length > 0;
        setBrowserErrors(refused ? problems : null);
        if (refused) event.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value="verify-product" />
      <input type="hidden" name="quarterId" value={quarterId} />
      <input type="hidden" name="verificationId" value={item.product_verification_id} />
      <h3 id={`${id}-name`} className="verification-item__name">
        <bdi>{item.product_name}</bdi> <span className="badge">{item.category}</span>
      </h3>
      <p className="verification-item__rows">{t("Sales rows with this name: {{count}}", { count: item.row_count })}</p>
      <div className="form__row form__row--split">
        {/* Marked with the product name's errors (said below the name): the name is what the choice resolves. */}
        <VerificationField controlId={`${id}-map`} label={t("Map to an existing product")} invalid={Boolean(shown?.productName)}>
          <select id={`${id}-map`} name="mapToProductId" className="input" value={mapTo} onChange={(event) => setMapTo(event.target.value)}>
            <option value="">{t("Create a new product")}</option>
            {list.catalogue[item.category].map((product) => (
              <option key={product.id} value={product.id}>
                {product.name}
              </option>
            ))}
          </select>
        </VerificationField>
        <VerificationField controlId={`${id}-product`} label={t("Product Name")} errors={shown?.productName}>
          <input
            id={`${id}-product`}
            name="productName"
            className="input"
            defaultValue={item.product_name}
            aria-describedby={shown?.productName ? `${id}-product-error` : undefined}
            aria-invalid={shown?.productName ? true : undefined}
          />
        </VerificationField>
      </div>
      <div className="form__row form__row--split">
        <VerificationField controlId={`${id}-therapy`} label={t("Therapy Area")} errors={shown?.therapyArea}>
          <select
            id={`${id}-therapy`}
            name="therapyArea"
            className="input"
            defaultValue=""
            disabled={!creating}
            aria-describedby={shown?.therapyArea ? `${id}-therapy-error` : undefined}
          >
            <option value="">{t("Select therapy area")}</option>
            {list.therapyAreas.map((area) => (
              <option key={area} value={area}>
                {area}
              </option>
            ))}
          </select>
        </VerificationField>
        <VerificationField controlId={`${id}-status`} label={t("Product Status")} errors={shown?.projectStatus}>
          <select
            id={`${id}-status`}
            name="projectStatus"
            className="input"
            defaultValue=""
            onChange={() => setBrowserErrors(null)}
            aria-describedby={shown?.projectStatus ? `${id}-status-error` : undefined}
            aria-invalid={shown?.projectStatus ? true : undefined}
          >
            <option value="">{t("Select product status")}</option>
            {list.projectStatuses.map((status) => (
              <option key={status} value={status}>
                {t(PROJECT_STATUS_LABELS[status])}
              </option>
            ))}
          </select>
        </VerificationField>
      </div>
      <ErrorList id={`${id}-decision-error`} errors={shown?.decision} />
      <div className="verification-item__actions">
        <button type="submit" name="decision" value="approve" className="button button--primary" disabled={busy}>
          {t("Approve")}
        </button>
        <button type="submit" name="decision" value="reject" className="button button--danger" disabled={busy}>
          {t("Reject")}
        </button>
      </div>
    </Form>
  );
}

function VerificationContent({ list, quarterId, errors }: { list: ProductVerificationList; quarterId: number; errors: VerificationErrors }) {
  const { t } = useTranslation();
  return (
    <>
      {list.pendingProducts.length === 0 ? <p className="empty">{t("No product is waiting for verification.")}</p> : null}
      {list.pendingProducts.map((item) => (
        <PendingProductForm
          key={item.product_verification_id}
          item={item}
          list={list}
          quarterId={quarterId}
          errors={errors?.verificationId === item.product_verification_id ? errors.errors : undefined}
        />
      ))}
      {list.existingProducts.length ? (
        <details className="verification-history">
          <summary>{t("Verified products")}</summary>
          <ul>
            {list.existingProducts.map((item) => (
              <li key={item.product_verification_id}>
                <bdi>{item.product_name}</bdi> ({item.category}):{" "}
                {item.is_approved ? (
                  <>
                    <span className="status status--approved">{t("Approved")}</span> → <bdi>{item.mapped_product_name}</bdi>
                  </>
                ) : (
                  <span className="status status--rejected">{t("Rejected")}</span>
                )}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </>
  );
}

/**
 * For administrators: the 'Product verification pending!' warning with View Details, which
 * opens the product verification dialog (a `<details>` panel without JavaScript). Closing the
 * dialog while names are still pending warns 'Unverified Products'.
 */
export function ProductVerificationWarning({
  list,
  pendingCount,
  quarterId,
  hydrated,
  errors,
}: {
  list: ProductVerificationList | null;
  pendingCount: number;
  quarterId: number;
  hydrated: boolean;
  errors: VerificationErrors;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const [open, setOpen] = useState(errors !== null);
  const [unverified, setUnverified] = useState(false);
  if (!list || pendingCount === 0) return null;
  const close = () => {
    setOpen(false);
    if (list.pendingProducts.length > 0) setUnverified(true);
  };
  return (
    <div className="verification-warning" data-testid="verification-warning">
      <div className="alert alert--info verification-warning__alert" role="status">
        <strong>{t("Product verification pending!")}</strong>{" "}
        {hydrated ? (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              setUnverified(false);
              setOpen(true);
            }}
          >
            {t("View Details")}
          </button>
        ) : null}
      </div>
      {unverified ? (
        <div className="alert alert--error" role="alert" data-testid="unverified-products">
          <strong>{t("Unverified Products")}</strong> {t("Approve or reject every pending product before the report can be approved or rejected.")}
        </div>
      ) : null}
      {hydrated ? (
        <ModalDialog open={open} onClose={close} labelledBy={titleId} className="verification-dialog" testId="verification-dialog">
          <div className="dialog__body">
            <h2 id={titleId} className="dialog__title">
              {t("Product verification")}
            </h2>
            <VerificationContent list={list} quarterId={quarterId} errors={errors} />
            <div className="dialog__actions">
              <button type="button" className="button button--secondary" onClick={close}>
                {t("Close")}
              </button>
            </div>
          </div>
        </ModalDialog>
      ) : (
        <details className="verification-panel" open={errors !== null}>
          <summary className="button button--secondary">{t("View Details")}</summary>
          <VerificationContent list={list} quarterId={quarterId} errors={errors} />
        </details>
      )}
    </div>
  );
}

import { Form, Link } from "@remix-run/react";
import { useEffect, useRef, useState, type MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { ReportStatusIcon } from "~/components/report-status-icon";
import { useFormatters } from "~/hooks/use-formatters";
import type { PartnerListRow } from "~/models/partner-list.server";
import { SortHeader } from "~/reports/consolidated/table-kit";
import { partnerListHref, partnerListSearch, type PartnerListQuery, type PartnerListSort } from "~/utils/partner-list";
import { REPORT_REGISTRY, REPORT_TYPES } from "~/reports/frame/registry";
import { REMOVAL_ANSWERS } from "~/utils/confirmation-answers";
import { ScrollRegion } from "./scroll-region";

interface Target {
  id: number;
  companyName: string;
}

/**
 * The partners with their active products, the open quarter's report states, the open findings of
 * its Sales Report (linking to the report's checks) and the admin's actions. STAFF sees every
 * control disabled (the server refuses their posts anyway).
 */
export function PartnerListTable({ rows, query, canEdit }: { rows: PartnerListRow[]; query: PartnerListQuery; canEdit: boolean }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [target, setTarget] = useState<Target | null>(null);
  const back = partnerListHref(query);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (target && dialog && !dialog.open) dialog.showModal();
  }, [target]);

  /** With JavaScript (and <dialog> support) the question opens in place; without, the link opens a confirmation page. */
  const confirmDeactivate = (event: MouseEvent<HTMLAnchorElement>, row: PartnerListRow) => {
    if (typeof HTMLDialogElement !== "function" || !dialogRef.current) return;
    event.preventDefault();
    setTarget({ id: row.id, companyName: row.companyName });
  };

  const sortHeader = (sort: PartnerListSort, label: string, className?: string) => (
    <SortHeader
      label={label}
      active={query.sort === sort}
      dir={query.dir}
      sortKey={sort}
      hrefFor={(dir) => partnerListHref(query, { sort, dir })}
      className={className}
    />
  );

  return (
    <>
      {rows.length ? (
        <ScrollRegion label={t("Partner List")}>
          <table className="table partner-list__table" data-testid="partner-list">
            <thead>
              <tr>
                {sortHeader("company", t("Company Name"))}
                <th scope="col">{t("E-mail")}</th>
                <th scope="col">{t("Active Products")}</th>
                {REPORT_TYPES.map((type) => (
                  <th key={type} scope="col">
                    {t(REPORT_REGISTRY[type].labels.status)}
                  </th>
                ))}
                {sortHeader("findings", t("Findings"), "table__number")}
                <th scope="col">{t("Actions")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} data-partner-id={row.id}>
                  <th scope="row">{row.companyName}</th>
                  <td data-label={t("E-mail")}>{row.email}</td>
                  <td data-label={t("Active Products")}>
                    {row.products.length ? (
                      <ul className="partner-list__tags" aria-label={t("Active Products")}>
                        {row.products.map((product) => (
                          <li key={product.id} className="badge">
                            {product.name}
                          </li>
                        ))}
                      </ul>
                    ) : (
                      "-"
                    )}
                  </td>
                  {REPORT_TYPES.map((type) => (
                    <td key={type} className="partner-list__status" data-label={t(REPORT_REGISTRY[type].labels.status)}>
                      <ReportStatusIcon type={type} state={row.statuses[type]} to={`${REPORT_REGISTRY[type].adminPath}/${row.id}`} />
                    </td>
                  ))}
                  <td className="table__number" data-label={t("Findings")}>
                    {row.findings === null ? null : (
                      <Link to={`${REPORT_REGISTRY.sales.adminPath}/${row.id}#checks`} data-testid="findings">
                        {format.number(row.findings)}
                      </Link>
                    )}
                  </td>
                  <td className="partner-list__actions-cell">
                    <div className="partner-list__actions">
                      <PartnerActions row={row} canEdit={canEdit} back={back} query={query} onDeactivate={confirmDeactivate} />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : (
        <p className="empty">{t("No data available!")}</p>
      )}

      <dialog ref={dialogRef} className="dialog partner-list__dialog" aria-labelledby="partner-deactivate-question">
        <Form method="post" action={back} onSubmit={() => dialogRef.current?.close()}>
          <p id="partner-deactivate-question" className="dialog__message">
            {t("Do you want to deactivate {{name}} ?", { name: target?.companyName ?? "" })}
          </p>
          <input type="hidden" name="intent" value="deactivate" />
          <input type="hidden" name="partnerId" value={target?.id ?? ""} />
          <div className="dialog__actions">
            <button type="button" className="button button--secondary" onClick={() => dialogRef.current?.close()}>
              {t(REMOVAL_ANSWERS.cancel)}
            </button>
            <button type="submit" className="button button--danger">
              {t(REMOVAL_ANSWERS.confirm)}
            </button>
          </div>
        </Form>
      </dialog>
    </>
  );
}

function PartnerActions({
  row,
  canEdit,
  back,
  query,
  onDeactivate,
}: {
  row: PartnerListRow;
  canEdit: boolean;
  back: string;
  query: PartnerListQuery;
  onDeactivate: (event: MouseEvent<HTMLAnchorElement>, row: PartnerListRow) => void;
}) {
  const { t } = useTranslation();
  const name = <span className="visually-hidden">{row.companyName}</span>;
  // Staff reads the terms too.
  const licenceTerms = (
    <Link to={`/admin/licence-terms/${row.id}`} className="button button--secondary">
      {t("Licence Terms")} {name}
    </Link>
  );

  if (!canEdit) {
    return (
      <>
        <button type="button" className="button button--secondary" disabled>
          {t("Edit")} {name}
        </button>
        <button type="button" className="button button--danger" disabled>
          {row.isActive ? t("Deactivate") : t("Reactivate")} {name}
        </button>
        {row.isActive ? (
          <button type="button" className="button button--secondary" disabled>
            {t("Send reminder")} {name}
          </button>
        ) : null}
        {licenceTerms}
      </>
    );
  }

  return (
    <>
      <Link to={`/admin/edit-partner/${row.id}`} className="button button--secondary">
        {t("Edit")} {name}
      </Link>
      {row.isActive ? (
        <>
          <Link
            to={`/admin/partner-list/deactivate/${row.id}${partnerListSearch(query)}`}
            className="button button--danger"
            onClick={(event) => onDeactivate(event, row)}
          >
            {t("Deactivate")} {name}
          </Link>
          <details className="partner-list__reminder" data-popup>
            <summary className="button button--secondary">
              {t("Send reminder")} {name}
            </summary>
            <div className="partner-list__reminder-menu">
              {row.owed.length ? (
                row.owed.map((type) => (
                  // A native post: /admin/reminders answers with a redirect back here and its toast.
                  <Form key={type} method="post" action="/admin/reminders" reloadDocument>
                    <input type="hidden" name="partnerId" value={row.id} />
                    <input type="hidden" name="reportType" value={type} />
                    <input type="hidden" name="redirectTo" value={back} />
                    <button type="submit" className="button button--secondary">
                      {t(REPORT_REGISTRY[type].labels.status)}
                    </button>
                  </Form>
                ))
              ) : (
                <p className="partner-list__reminder-none">{t("Nothing to remind: every report of the open quarter has been submitted.")}</p>
              )}
            </div>
          </details>
        </>
      ) : (
        <Form method="post" action={back}>
          <input type="hidden" name="intent" value="reactivate" />
          <input type="hidden" name="partnerId" value={row.id} />
          <button type="submit" className="button button--primary">
            {t("Reactivate")} {name}
          </button>
        </Form>
      )}
      {licenceTerms}
    </>
  );
}

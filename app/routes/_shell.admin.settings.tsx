import type { ReactNode } from "react";
import { getFormProps, type FormMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormErrors, TextField, useValidatedForm } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { UndeliveredMails } from "~/components/undelivered-mails";
import { countUndeliveredMails, listUndeliveredMails, sendUndeliveredMailAgain } from "~/models/mail.server";
import { openQuarterSpan } from "~/models/quarter.server";
import {
  getCutOffDate,
  getReminderSchedule,
  getSwingThresholds,
  setCutOffDate,
  setReminderSchedule,
  setSwingThresholds,
  settingVersions,
} from "~/models/settings.server";
import {
  CUT_OFF_DATE_FORMAT,
  CUT_OFF_DATE_KEY,
  CUT_OFF_DATE_PATTERN,
  CUT_OFF_DATE_PICKER,
  cutOffDateSchema,
  formatDayList,
  REMINDER_SCHEDULE_KEY,
  ReminderScheduleSchema,
  RETRY_MAIL_INTENT,
  SWING_THRESHOLDS_KEY,
  SwingThresholdsSchema,
  type SettingsIntent,
  type SwingThresholds,
} from "~/schemas/settings";
import { requireAdminOrStaff, requireRole } from "~/utils/auth.server";
import { parseForm, readForm } from "~/utils/form-data.server";
import { parseId } from "~/utils/ids";
import { useFormatters } from "~/hooks/use-formatters";
import { useHydrated } from "~/hooks/use-hydrated";
import { formatDate } from "~/utils/dates";
import { redirectWithToast } from "~/utils/toast.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Settings" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  const [cutOffDate, schedule, swingThresholds, versions, undeliveredMails, undeliveredTotal] = await Promise.all([
    getCutOffDate(),
    getReminderSchedule(),
    getSwingThresholds(),
    settingVersions([CUT_OFF_DATE_KEY, REMINDER_SCHEDULE_KEY, SWING_THRESHOLDS_KEY]),
    // The newest 50, and how many there are in all.
    listUndeliveredMails(),
    countUndeliveredMails(),
  ]);
  const { name, startDate } = openQuarterSpan();
  return {
    cutOffDate: cutOffDate ?? null,
    openQuarter: { name, startDate },
    schedule,
    swingThresholds,
    versions,
    undeliveredMails,
    undeliveredTotal,
    canEdit: user.role === "ADMIN",
  };
}

/**
 * Four forms post here, told apart by `intent`: the cut-off date, the reminder schedule, the changes
 * to explain and "Send again" of an undelivered mail. ADMIN only.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRole(request, "ADMIN");
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const change = { actorId: user.id, requestId: context.requestId };

  if (intent === "cut-off") {
    const submission = parseForm(formData, cutOffDateSchema(openQuarterSpan().startDate));
    if (submission.status !== "success") {
      return data({ intent: "cut-off" as SettingsIntent, result: submission.reply() }, { status: 400 });
    }
    await setCutOffDate(submission.value.cutOffDate, change);
    return redirectWithToast("/admin/settings", { type: "success", message: "Submission Date set successfully!" });
  }

  if (intent === "schedule") {
    const submission = parseForm(formData, ReminderScheduleSchema);
    if (submission.status !== "success") {
      return data({ intent: "schedule" as SettingsIntent, result: submission.reply() }, { status: 400 });
    }
    await setReminderSchedule(submission.value, change);
    return redirectWithToast("/admin/settings", { type: "success", message: "Reminder schedule saved successfully!" });
  }

  if (intent === "swings") {
    const submission = parseForm(formData, SwingThresholdsSchema);
    if (submission.status !== "success") {
      return data({ intent: "swings" as SettingsIntent, result: submission.reply() }, { status: 400 });
    }
    await setSwingThresholds(submission.value, change);
    return redirectWithToast("/admin/settings", { type: "success", message: "Changes to explain saved successfully!" });
  }

  if (intent === RETRY_MAIL_INTENT) {
    const mailId = parseId(formData.get("mailId"));
    if (!mailId) throw new Response("Bad Request", { status: 400 });
    const queued = await sendUndeliveredMailAgain(mailId, change);
    return redirectWithToast(
      "/admin/settings",
      queued ? { type: "success", message: "Mail queued again." } : { type: "error", message: "This mail is not waiting to be sent again." },
    );
  }

  throw new Response("Unknown settings form.", { status: 400 });
}

// A disabled fieldset disables every field and button inside it: STAFF reads the settings only.

type ActionData = ReturnType<typeof useActionData<typeof action>>;

export default function AdminSettings() {
  const { t } = useTranslation();
  const { cutOffDate, openQuarter, schedule, swingThresholds, versions, undeliveredMails, undeliveredTotal, canEdit } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const scheduleText = { daysBefore: formatDayList(schedule.daysBefore), daysAfter: formatDayList(schedule.daysAfter) };
  return (
    <>
      <PageHeader title={t("Settings")} />
      {!canEdit ? (
        <p className="alert alert--info" role="note">
          {t("Only an administrator can change these settings.")}
        </p>
      ) : null}
      {/* Keyed by the stored version (and the form: siblings need keys of their own): after a save the form starts again from what was stored. */}
      <CutOffDateForm
        key={`cut-off:${versions[CUT_OFF_DATE_KEY] ?? ""}`}
        cutOffDate={cutOffDate}
        openQuarter={openQuarter}
        canEdit={canEdit}
        actionData={actionData}
      />
      <ReminderScheduleForm key={`schedule:${versions[REMINDER_SCHEDULE_KEY] ?? ""}`} schedule={scheduleText} canEdit={canEdit} actionData={actionData} />
      <SwingThresholdsForm key={`swings:${versions[SWING_THRESHOLDS_KEY] ?? ""}`} thresholds={swingThresholds} canEdit={canEdit} actionData={actionData} />
      <UndeliveredMails mails={undeliveredMails} total={undeliveredTotal} canRetry={canEdit} />
    </>
  );
}

function useSubmittingIntent() {
  const navigation = useNavigation();
  return navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
}

function FormActions({ intent, canEdit }: { intent: SettingsIntent; canEdit: boolean }) {
  const { t } = useTranslation();
  const submitting = useSubmittingIntent() === intent;
  return (
    <div className="form__row">
      <button type="submit" className="button button--primary" disabled={submitting}>
        {t("Save")}
      </button>
      {canEdit ? (
        // Back to the stored value: a new page load (works the same with and without JavaScript).
        <Link to="/admin/settings" reloadDocument className="button button--secondary">
          {t("Cancel")}
        </Link>
      ) : (
        <button type="button" className="button button--secondary">
          {t("Cancel")}
        </button>
      )}
    </div>
  );
}

function CutOffDateForm({
  cutOffDate,
  openQuarter,
  canEdit,
  actionData,
}: {
  cutOffDate: string | null;
  openQuarter: { name: string; startDate: string };
  canEdit: boolean;
  actionData: ActionData;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const hydrated = useHydrated();
  const [form, fields] = useValidatedForm({
    id: "cut-off-date",
    lastResult: actionData?.intent === "cut-off" ? actionData.result : undefined,
    defaultValue: { cutOffDate: formatDate(cutOffDate) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: cutOffDateSchema(openQuarter.startDate) }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const hint = t("Format: {{format}}. The open quarter, {{quarter}}, starts on {{date}}.", {
    format: CUT_OFF_DATE_FORMAT,
    quarter: openQuarter.name,
    date: formatDate(openQuarter.startDate),
  });
  return (
    <section className="card card--narrow">
      <h2 className="card__title">{t("Set Report submission date")}</h2>
      <p className="notice" data-testid="current-cut-off-date">
        {t("Report submission date")}: <strong>{cutOffDate ? format.date(cutOffDate) : t("Not set")}</strong>
      </p>
      <Form method="post" className="form" {...getFormProps(form)}>
        <fieldset className="settings__fieldset" disabled={!canEdit}>
          <input type="hidden" name="intent" value="cut-off" />
          <FormErrors errors={form.errors} />
          {/* A text field: a native date input shows the browser's own format, the spec asks for DD-MM-YYYY.
              The picker beside it fills the field; without JavaScript it posts its own date, which the server prefers. */}
          <TextField
            label={t("Set Report submission date")}
            field={fields.cutOffDate}
            hint={hint}
            inputAttributes={{ pattern: CUT_OFF_DATE_PATTERN, title: hint, placeholder: CUT_OFF_DATE_FORMAT, autoComplete: "off" }}
            suffix={
              <input
                type="date"
                className="input input--date-picker"
                name={hydrated ? undefined : CUT_OFF_DATE_PICKER}
                min={openQuarter.startDate}
                aria-label={t("Pick the date")}
                onChange={(event) => {
                  if (event.target.value) form.update({ name: fields.cutOffDate.name, value: formatDate(event.target.value), validated: true });
                }}
              />
            }
          />
          <FormActions intent="cut-off" canEdit={canEdit} />
        </fieldset>
      </Form>
    </section>
  );
}

function ReminderScheduleForm({
  schedule,
  canEdit,
  actionData,
}: {
  schedule: { daysBefore: string; daysAfter: string };
  canEdit: boolean;
  actionData: ActionData;
}) {
  const { t } = useTranslation();
  const [form, fields] = useValidatedForm({
    id: "reminder-schedule",
    lastResult: actionData?.intent === "schedule" ? actionData.result : undefined,
    defaultValue: schedule,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ReminderScheduleSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <SettingsCard
      title="Reminder schedule"
      hint="Partners that have not submitted a report of the open quarter are reminded by mail on these days. Enter numbers of days separated by commas; leave a field empty for no reminders."
      intent="schedule"
      form={form}
      canEdit={canEdit}
    >
      <TextField
        label={t("Days before the submission date")}
        field={fields.daysBefore}
        inputAttributes={{ inputMode: "numeric", autoComplete: "off", placeholder: "7" }}
      />
      <TextField
        label={t("Days after the submission date")}
        field={fields.daysAfter}
        inputAttributes={{ inputMode: "numeric", autoComplete: "off", placeholder: "1, 7" }}
      />
    </SettingsCard>
  );
}

/** A settings form in its card: the title, what it does (translation keys), the fields, Save and Cancel. */
function SettingsCard<Fields extends Record<string, unknown>>({
  title,
  hint,
  intent,
  form,
  canEdit,
  children,
}: {
  title: string;
  hint: string;
  intent: SettingsIntent;
  form: FormMetadata<Fields, string[]>;
  canEdit: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <section className="card card--narrow">
      <h2 className="card__title">{t(title)}</h2>
      <p className="field__hint">{t(hint)}</p>
      <Form method="post" className="form" {...getFormProps(form)}>
        <fieldset className="settings__fieldset" disabled={!canEdit}>
          <input type="hidden" name="intent" value={intent} />
          <FormErrors errors={form.errors} />
          {children}
          <FormActions intent={intent} canEdit={canEdit} />
        </fieldset>
      </Form>
    </section>
  );
}

function SwingThresholdsForm({ thresholds, canEdit, actionData }: { thresholds: SwingThresholds; canEdit: boolean; actionData: ActionData }) {
  const { t } = useTranslation();
  const [form, fields] = useValidatedForm({
    id: "swing-thresholds",
    lastResult: actionData?.intent === "swings" ? actionData.result : undefined,
    defaultValue: { percent: String(thresholds.percent), floorUsd: thresholds.floorUsd },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SwingThresholdsSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <SettingsCard
      title="Changes to explain"
      hint="A Sales Report line (product and country) whose sales value or quantity changed by more than this percentage since the previous quarter, or since the same quarter a year before, needs the partner's reason before the report can be submitted. Lines under the floor in both quarters are left out."
      intent="swings"
      form={form}
      canEdit={canEdit}
    >
      <TextField label={t("Change beyond (%)")} field={fields.percent} inputAttributes={{ inputMode: "numeric", autoComplete: "off" }} />
      <TextField label={t("Floor (sales value in USD)")} field={fields.floorUsd} inputAttributes={{ inputMode: "decimal", autoComplete: "off" }} />
    </SettingsCard>
  );
}

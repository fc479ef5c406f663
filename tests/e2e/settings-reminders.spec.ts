import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { startMailbox } from "./support/mailbox";

/**
 * The browser tests share one database: the cut-off dates set here are 30+ days ahead, so that no
 * scheduled reminder (7 days before, 1 and 7 days after by default) falls on today.
 */
function daysAhead(days: number) {
  const iso = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const [year, month, day] = iso.split("-");
  return { iso, shown: `${day}-${month}-${year}` };
}

const dateInput = (page: Page) => page.getByLabel("Set Report submission date");
const datePicker = (page: Page) => page.getByLabel("Pick the date");
const cutOffCard = (page: Page) => page.locator("form#cut-off-date");
const swingsCard = (page: Page) => page.locator("form#swing-thresholds");

/** Sets the changes' thresholds and checks the toast and the stored values shown again. */
async function saveSwingThresholds(page: Page, percent: string, floor: string, shownFloor: string) {
  await swingsCard(page).getByLabel("Change beyond (%)").fill(percent);
  await swingsCard(page).getByLabel("Floor (sales value in USD)").fill(floor);
  await swingsCard(page).getByRole("button", { name: "Save" }).click();
  await expect(page.locator(".toast")).toContainText("Changes to explain saved successfully!");
  await expect(swingsCard(page).getByLabel("Change beyond (%)")).toHaveValue(percent);
  await expect(swingsCard(page).getByLabel("Floor (sales value in USD)")).toHaveValue(shownFloor);
}

async function partnerSeesCutOff(page: Page, signIn: (account: "partner1") => Promise<void>, shown: string) {
  await page.context().clearCookies();
  await signIn("partner1");
  await expect(page.getByTestId("cut-off-date")).toContainText(shown);
}

test.describe("settings with JavaScript", () => {
  test("admin sets the report submission date; partner1's dashboard shows it as DD-MM-YYYY", async ({ page, open, signIn }) => {
    const date = daysAhead(30);
    await signIn("admin");
    await open("/admin/settings");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Settings");

    // Empty: the spec's message, nothing saved.
    await dateInput(page).fill("");
    await cutOffCard(page).getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Please select date!")).toBeVisible();

    // Before the open quarter: refused as it is typed.
    await expect(cutOffCard(page).getByText(/^Format: DD-MM-YYYY\. The open quarter, Q\d \d{4}, starts on \d{2}-\d{2}-\d{4}\.$/)).toBeVisible();
    await dateInput(page).fill("01-01-2020");
    await cutOffCard(page).getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("The report submission date cannot be before the open quarter starts.")).toBeVisible();

    await dateInput(page).fill(date.shown);
    await cutOffCard(page).getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status")).toContainText("Submission Date set successfully!");
    await expect(page.getByTestId("current-cut-off-date")).toContainText(date.shown);
    await expect(dateInput(page)).toHaveValue(date.shown);

    await partnerSeesCutOff(page, signIn, date.shown);
  });

  test("the date picker beside the field fills it as DD-MM-YYYY, and that date is saved", async ({ page, open, signIn }) => {
    const date = daysAhead(32);
    await signIn("admin");
    await open("/admin/settings");
    await datePicker(page).fill(date.iso);
    await expect(dateInput(page)).toHaveValue(date.shown);
    await cutOffCard(page).getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status")).toContainText("Submission Date set successfully!");
    await expect(page.getByTestId("current-cut-off-date")).toContainText(date.shown);
  });

  test("Cancel puts back the stored date", async ({ page, open, signIn }) => {
    await signIn("admin");
    await open("/admin/settings");
    const stored = await dateInput(page).inputValue();
    expect(stored).toMatch(/^\d{2}-\d{2}-\d{4}$/);
    await dateInput(page).fill("02-01-2031");
    await cutOffCard(page).getByRole("link", { name: "Cancel" }).click();
    await expect(dateInput(page)).toHaveValue(stored);
  });

  test("the reminder schedule is validated and saved", async ({ page, open, signIn }) => {
    await signIn("admin");
    await open("/admin/settings");
    const before = page.getByLabel("Days before the submission date");
    const after = page.getByLabel("Days after the submission date");
    await expect(before).toHaveValue("7");
    await expect(after).toHaveValue("1, 7");

    await after.fill("1, 120");
    await after.press("Enter");
    await expect(page.getByText("Enter whole numbers of days from 0 to 90, separated by commas.")).toBeVisible();

    await after.fill("7,1");
    await after.press("Enter");
    await expect(page.getByRole("status")).toContainText("Reminder schedule saved successfully!");
    await expect(after).toHaveValue("1, 7");
  });

  test("the changes to explain: a percentage out of range is refused beside the field; new thresholds are saved", async ({ page, open, signIn }) => {
    await signIn("admin");
    await open("/admin/settings");
    await expect(swingsCard(page).getByLabel("Change beyond (%)")).toHaveValue("50");
    await expect(swingsCard(page).getByLabel("Floor (sales value in USD)")).toHaveValue("10000");
    await swingsCard(page).getByLabel("Change beyond (%)").fill("0");
    await swingsCard(page).getByRole("button", { name: "Save" }).click();
    await expect(swingsCard(page).getByText("Enter a whole percentage from 1 to 1000.")).toBeVisible();
    await saveSwingThresholds(page, "60", "5,000", "5000");
    // The defaults again, as the other specs expect them.
    await saveSwingThresholds(page, "50", "10000", "10000");
  });

  test("STAFF sees the settings disabled, and the server refuses a post", async ({ page, open, signIn }) => {
    await signIn("staff");
    await open("/admin/settings");
    await expect(page.getByText("Only an administrator can change these settings.")).toBeVisible();
    await expect(dateInput(page)).toBeDisabled();
    await expect(cutOffCard(page).getByRole("button", { name: "Save" })).toBeDisabled();
    await expect(page.getByLabel("Days before the submission date")).toBeDisabled();
    await expect(page.getByTestId("current-cut-off-date")).toContainText(/\d{2}-\d{2}-\d{4}/);

    const refused = await page.request.post("/admin/settings", {
      form: { intent: "cut-off", cutOffDate: "2031-05-05" },
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(403);
  });
});

test.describe("settings without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("admin sets the date with a plain form post; the server shows the messages", async ({ page, open, signIn }) => {
    const date = daysAhead(31);
    await signIn("admin");
    await open("/admin/settings");

    await dateInput(page).fill("");
    await cutOffCard(page).getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Please select date!")).toBeVisible();

    // The server refuses a date before the open quarter starts.
    await dateInput(page).fill("01-01-2020");
    await cutOffCard(page).getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("The report submission date cannot be before the open quarter starts.")).toBeVisible();
    await expect(dateInput(page)).toHaveValue("01-01-2020");

    await dateInput(page).fill(date.shown);
    await cutOffCard(page).getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL("/admin/settings");
    await expect(page.getByRole("status")).toContainText("Submission Date set successfully!");
    await expect(page.getByTestId("current-cut-off-date")).toContainText(date.shown);

    await partnerSeesCutOff(page, signIn, date.shown);
  });

  test("the changes to explain: a floor that is no amount is refused by the server beside the field; new thresholds are saved", async ({
    page,
    open,
    signIn,
  }) => {
    await signIn("admin");
    await open("/admin/settings");
    await swingsCard(page).getByLabel("Floor (sales value in USD)").fill("ten thousand");
    await swingsCard(page).getByRole("button", { name: "Save" }).click();
    await expect(swingsCard(page).getByText("Enter an amount in USD of 0 or more, with at most two decimals.")).toBeVisible();
    await saveSwingThresholds(page, "75", "2500.50", "2500.50");
    await saveSwingThresholds(page, "50", "10000", "10000");
  });

  test("a date picked in the picker is posted as it is and saved; the field keeps working beside it", async ({ page, open, signIn }) => {
    const date = daysAhead(33);
    await signIn("admin");
    await open("/admin/settings");
    await datePicker(page).fill(date.iso);
    await cutOffCard(page).getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status")).toContainText("Submission Date set successfully!");
    await expect(page.getByTestId("current-cut-off-date")).toContainText(date.shown);
    await expect(dateInput(page)).toHaveValue(date.shown);
    await expect(datePicker(page)).toHaveValue("");
  });
});

test.describe("reminders", () => {
  test("admin sends a reminder: it is mailed, a second one within the hour is refused, STAFF cannot send", async ({ page, open, signIn }) => {
    const mailbox = await startMailbox();
    try {
      await signIn("admin");
      // Acme Generics Ltd (partner1) is the first partner of the demo seed.
      const form = { partnerId: "1", reportType: "filing", redirectTo: "/admin/settings" };
      const sent = await page.request.post("/admin/reminders", { form, maxRedirects: 0 });
      expect(sent.status()).toBe(302);
      expect(sent.headers().location).toBe("/admin/settings");
      await open("/admin/settings");
      await expect(page.getByRole("status")).toContainText("Reminder sent!");

      await expect.poll(() => mailbox.received.filter((mail) => mail.to.includes("partner1@example.org")).length).toBe(1);
      const raw = mailbox.received.find((mail) => mail.to.includes("partner1@example.org"))!.raw.replace(/=\r?\n/g, "");
      expect(raw).toMatch(/Subject: Reminder: your Filing Plans for Q\d \d{4} is due/);
      expect(raw).toContain("/partner/filing-plans");

      const again = await page.request.post("/admin/reminders", { form, maxRedirects: 0 });
      expect(again.headers().location).toBe("/admin/settings");
      await open("/admin/settings");
      await expect(page.getByRole("status")).toContainText("No reminder sent: 1 skipped (already reminded in the last hour).");

      await page.context().clearCookies();
      await signIn("staff");
      const refused = await page.request.post("/admin/reminders", { form: { ...form, reportType: "sales" }, maxRedirects: 0 });
      expect(refused.status()).toBe(403);
      expect(mailbox.received.filter((mail) => mail.to.includes("partner1@example.org"))).toHaveLength(1);
    } finally {
      await mailbox.close();
    }
  });
});

/**
 * What partners owe, from the demo seed's open quarter for Borealis (partner2), whose reports no other
 * spec submits: PDT Resubmitted, Filing Plans not started, Sales Report Approved.
 */
const BOREALIS = "Borealis Pharma Pvt";
const rowOf = (page: Page, companyName: string) => page.getByTestId("partner-list").getByRole("row").filter({ hasText: companyName });

/** The confirmation's numbers: 'Send a reminder to everyone who owes a report? Partners: 12. Reports owed: 20.'. */
const QUESTION = /^Send a reminder to everyone who owes a report\? Partners: (\d+)\. Reports owed: (\d+)\.$/;

test.describe("reminding everyone asks first, with JavaScript", () => {
  test("a dialog names the partners and reports (in the page's language); Cancel mails nothing", async ({ page, open, signIn }) => {
    const mailbox = await startMailbox();
    try {
      await signIn("admin");
      await open("/admin/partner-list");
      await page.getByRole("link", { name: "Remind everyone who owes a report" }).click();
      const dialog = page.getByTestId("remind-everyone-dialog");
      await expect(dialog.getByText(QUESTION)).toBeVisible();
      await expect(dialog.getByRole("button")).toHaveText(["Cancel", "Ok"]);
      const asked = await dialog.getByText(QUESTION).innerText();
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await expect(dialog).toBeHidden();
      await expect(page).toHaveURL("/admin/partner-list");

      // The page without JavaScript asks the same, from the same numbers.
      await open("/admin/partner-list/remind-everyone");
      await expect(page.getByText(QUESTION)).toHaveText(asked);

      await open("/admin/partner-list?lng=fr");
      await page.getByRole("link", { name: "Relancer tous les partenaires ayant un rapport en attente" }).click();
      await expect(dialog.getByText(/^Envoyer un rappel à tous ceux qui doivent un rapport \? Partenaires : \d+\. Rapports dus : \d+\.$/)).toBeVisible();
      await dialog.getByRole("button", { name: "Annuler" }).click();
      await expect(dialog).toBeHidden();
      await open("/admin/partner-list?lng=en");

      await page.waitForTimeout(1500);
      expect(mailbox.received).toHaveLength(0);
    } finally {
      await mailbox.close();
    }
  });
});

test.describe("what is owed, without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the menu offers only the reports a partner owes; one click mails each owing partner once, listing its reports", async ({ page, open, signIn }) => {
    const mailbox = await startMailbox();
    try {
      await signIn("admin");
      await open("/admin/partner-list");
      const borealis = rowOf(page, BOREALIS);
      await borealis.getByText("Send reminder").click();
      await expect(borealis.locator(".partner-list__reminder-menu").getByRole("button")).toHaveText(["Filing Plans"]);

      // A confirmation page first: it names what will be mailed, and mails nothing.
      await page.getByRole("link", { name: "Remind everyone who owes a report" }).click();
      await expect(page).toHaveURL("/admin/partner-list/remind-everyone");
      const [, partnersAsked, reportsAsked] = QUESTION.exec(await page.getByText(QUESTION).innerText())!;
      await page.waitForTimeout(1000);
      expect(mailbox.received).toHaveLength(0);
      await page.getByRole("button", { name: "Ok" }).click();
      await expect(page).toHaveURL("/admin/partner-list");
      await expect(page.getByRole("status")).toContainText("Reminder sent!");

      // The mails were queued with the answer and go out from the worker: one per partner the confirmation counted.
      await expect.poll(() => mailbox.received.length, { timeout: 20_000 }).toBe(Number(partnersAsked));
      // Give the worker a moment to send any duplicate it would.
      await page.waitForTimeout(2000);
      const recipients = mailbox.received.flatMap((mail) => mail.to);
      expect(recipients).toHaveLength(Number(partnersAsked));
      expect(new Set(recipients).size).toBe(recipients.length);
      // As many reports (a link each) as the confirmation said; Borealis's mail is about its Filing Plans only.
      const reportLinks = mailbox.received.flatMap(
        (mail) => mail.raw.replace(/=\r?\n/g, "").match(/\/partner\/(development-timeline|filing-plans|sales-report)\b/g) ?? [],
      );
      expect(reportLinks).toHaveLength(Number(reportsAsked));
      const toBorealis = mailbox.received.filter((mail) => mail.to.includes("partner2@example.org"));
      expect(toBorealis).toHaveLength(1);
      const raw = toBorealis[0].raw.replace(/=\r?\n/g, "");
      expect(raw).toMatch(/Subject: Reminder: your Filing Plans for Q\d \d{4} is due/);
      expect(raw).toContain("/partner/filing-plans");
      expect(raw).not.toContain("/partner/development-timeline");
      expect(raw).not.toContain("/partner/sales-report");
    } finally {
      await mailbox.close();
    }
  });
});

test.describe("what is owed, with JavaScript", () => {
  test("a report already approved is refused with a message; a report reminded within the hour is not sent again; STAFF cannot remind", async ({
    page,
    open,
    signIn,
  }) => {
    await signIn("admin");
    await open("/admin/partner-list");
    const borealisId = await rowOf(page, BOREALIS).getAttribute("data-partner-id");

    // Not offered in the menu, and refused when posted all the same.
    const approved = await page.request.post("/admin/reminders", {
      form: { partnerId: borealisId!, reportType: "sales", redirectTo: "/admin/partner-list" },
      maxRedirects: 0,
    });
    expect(approved.headers().location).toBe("/admin/partner-list");
    await open("/admin/partner-list");
    await expect(page.getByRole("alert")).toContainText("No reminder sent: the report has already been submitted or approved.");

    // The previous test reminded Borealis of its Filing Plans.
    const borealis = rowOf(page, BOREALIS);
    await borealis.getByText("Send reminder").click();
    await borealis.getByRole("button", { name: "Filing Plans", exact: true }).click();
    await expect(page.getByRole("status")).toContainText("No reminder sent: 1 skipped (already reminded in the last hour).");

    await page.context().clearCookies();
    await signIn("staff");
    await open("/admin/partner-list");
    await expect(page.getByRole("button", { name: "Remind everyone who owes a report" })).toBeDisabled();
  });
});

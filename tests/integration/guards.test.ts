import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { sessions } from "~/db/schema";
import { loader as adminDashboardLoader } from "~/routes/_shell.admin.dashboard";
import { loader as adminProfileLoader } from "~/routes/_shell.admin.profile";
import { loader as adminSettingsLoader } from "~/routes/_shell.admin.settings";
import { loader as adminLayoutLoader } from "~/routes/_shell.admin";
import { loader as changePasswordLoader } from "~/routes/_shell.change-password";
import { loader as partnerDashboardLoader } from "~/routes/_shell.partner.dashboard";
import { loader as partnerProfileLoader } from "~/routes/_shell.partner.profile";
import { loader as partnerLayoutLoader } from "~/routes/_shell.partner";
import { action as logoutAction } from "~/routes/logout";
import { buildRequest, cookiesFrom, runRoute, sessionCookieFor } from "../support/remix";

const adminRoutes = {
  "/admin": adminLayoutLoader,
  "/admin/dashboard": adminDashboardLoader,
  "/admin/profile": adminProfileLoader,
  "/admin/settings": adminSettingsLoader,
};
const partnerRoutes = {
  "/partner": partnerLayoutLoader,
  "/partner/dashboard": partnerDashboardLoader,
  "/partner/profile": partnerProfileLoader,
};

describe("route guards", () => {
  for (const [path, loader] of Object.entries({ ...adminRoutes, ...partnerRoutes, "/change-password": changePasswordLoader })) {
    it(`${path} sends a visitor without a session to /login`, async () => {
      const result = await runRoute(loader, buildRequest(path));
      expect(result.status).toBe(302);
      expect(result.location).toBe("/login");
    });
  }

  for (const [path, loader] of Object.entries(adminRoutes)) {
    it(`${path}: ADMIN and STAFF allowed, PARTNER refused with 403`, async () => {
      for (const email of ["admin@example.org", "staff@example.org"]) {
        expect((await runRoute(loader, buildRequest(path, { cookie: await sessionCookieFor(email) }))).status).toBe(200);
      }
      const partner = await runRoute(loader, buildRequest(path, { cookie: await sessionCookieFor("partner1@example.org") }));
      expect(partner.status).toBe(403);
      expect(partner.data).toEqual({ message: "YOU ARE NOT AUTHORIZED TO USE THE PAGE" });
    });
  }

  for (const [path, loader] of Object.entries(partnerRoutes)) {
    it(`${path}: PARTNER allowed, ADMIN and STAFF refused with 403`, async () => {
      expect((await runRoute(loader, buildRequest(path, { cookie: await sessionCookieFor("partner1@example.org") }))).status).toBe(200);
      for (const email of ["admin@example.org", "staff@example.org"]) {
        expect((await runRoute(loader, buildRequest(path, { cookie: await sessionCookieFor(email) }))).status).toBe(403);
      }
    });
  }

  it("/change-password is open to every role", async () => {
    for (const email of ["admin@example.org", "staff@example.org", "partner3@example.org"]) {
      expect((await runRoute(changePasswordLoader, buildRequest("/change-password", { cookie: await sessionCookieFor(email) }))).status).toBe(200);
    }
  });

  it("an ended session shows 'Session timeout!' on the login page", async () => {
    const cookie = await sessionCookieFor("partner1@example.org");
    const logout = await runRoute(logoutAction, buildRequest("/logout", { method: "POST", form: {}, cookie }));
    expect(logout.location).toBe("/login");
    expect(await db.select().from(sessions)).toHaveLength(0);

    // The old cookie, replayed, no longer opens anything.
    const replay = await runRoute(partnerDashboardLoader, buildRequest("/partner/dashboard", { cookie }));
    expect(replay.location).toBe("/login");
    const toastCookie = replay.headers.getSetCookie().find((c) => c.startsWith("__toast="));
    expect(toastCookie).toBeDefined();
    const { readToast } = await import("~/utils/toast.server");
    const { toast } = await readToast(buildRequest("/login", { cookie: cookiesFrom(replay) }));
    expect(toast).toMatchObject({ type: "info", message: "Session timeout!" });
  });

  it("an expired session row is refused", async () => {
    const cookie = await sessionCookieFor("admin@example.org");
    await db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) });
    const result = await runRoute(adminDashboardLoader, buildRequest("/admin/dashboard", { cookie }));
    expect(result.location).toBe("/login");
  });
});

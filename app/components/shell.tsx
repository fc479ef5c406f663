import { Form, Link, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef, type MouseEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { AuthUser } from "~/models/user.server";
import { DEFAULT_DISPLAY, LAYOUT_TYPES, NAV_STYLES, THEMES, type DisplaySettings } from "~/utils/display";
import { navigationFor, type NavIcon, type NavItem } from "~/utils/navigation";
import {
  ChevronIcon,
  DashboardIcon,
  FilingIcon,
  LockIcon,
  Logo,
  LogoutIcon,
  MenuIcon,
  PaletteIcon,
  PartnersIcon,
  ProductsIcon,
  ReportsIcon,
  SalesIcon,
  TimelineIcon,
  UserIcon,
} from "./icons";
import { LanguageMenu } from "./language-switcher";

const ICONS: Record<NavIcon, () => JSX.Element> = {
  dashboard: DashboardIcon,
  partners: PartnersIcon,
  products: ProductsIcon,
  reports: ReportsIcon,
  timeline: TimelineIcon,
  filing: FilingIcon,
  sales: SalesIcon,
  user: UserIcon,
  logout: LogoutIcon,
};

/** The checkbox behind the drawer (phones) and the expanded mini sidebar (desktop). */
const DRAWER_TOGGLE_ID = "drawer-toggle";

function NavEntry({ item }: { item: NavItem }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const Icon = item.icon ? ICONS[item.icon] : null;
  if ("children" in item) {
    const open = item.children.some((child) => pathname.startsWith(child.to));
    return (
      <li>
        <details className="sidebar__group" open={open}>
          <summary className="sidebar__link" title={t(item.label)} onClick={expandMiniSidebar}>
            {Icon ? <Icon /> : null}
            <span className="sidebar__label">{t(item.label)}</span>
            <span className="sidebar__chevron">
              <ChevronIcon />
            </span>
          </summary>
          <ul className="sidebar__submenu">
            {item.children.map((child) => (
              <li key={child.to}>
                <NavLink to={child.to} className="sidebar__sublink">
                  {t(child.label)}
                </NavLink>
              </li>
            ))}
          </ul>
        </details>
      </li>
    );
  }
  return (
    <li>
      <NavLink to={item.to} className="sidebar__link" title={t(item.label)}>
        {Icon ? <Icon /> : null}
        <span className="sidebar__label">{t(item.label)}</span>
      </NavLink>
    </li>
  );
}

/** The collapsed mini sidebar hides a group's links: a click on the group expands the sidebar with the group open. */
function expandMiniSidebar(event: MouseEvent<HTMLElement>) {
  if (document.documentElement.dataset.navStyle !== "mini-sidebar") return;
  const toggle = document.getElementById(DRAWER_TOGGLE_ID);
  const group = event.currentTarget.parentElement;
  if (!(toggle instanceof HTMLInputElement) || toggle.checked || !(group instanceof HTMLDetailsElement)) return;
  event.preventDefault();
  toggle.checked = true;
  group.open = true;
}

/**
 * Escape closes the innermost open popup (`<details data-popup>`: header menus, the messages
 * popover, row menus), else the drawer, and gives focus back to the control that opened it.
 * A modal dialog handles its own Escape.
 */
function closeOnEscape(event: KeyboardEvent) {
  if (event.key !== "Escape" || event.defaultPrevented) return;
  const focused = document.activeElement;
  if (focused?.closest("dialog[open]")) return;
  const popup = focused?.closest<HTMLDetailsElement>("details[data-popup][open]") ?? document.querySelector<HTMLDetailsElement>("details[data-popup][open]");
  if (popup) {
    popup.open = false;
    popup.querySelector("summary")?.focus();
    return;
  }
  const toggle = document.getElementById(DRAWER_TOGGLE_ID);
  if (toggle instanceof HTMLInputElement && toggle.checked) {
    toggle.checked = false;
    toggle.focus();
  }
}

function Sidebar({ user }: { user: AuthUser }) {
  const { t } = useTranslation();
  return (
    <aside className="sidebar" id="sidebar" aria-label={t("Main navigation")}>
      <Link to={user.role === "PARTNER" ? "/partner/dashboard" : "/admin/dashboard"} className="sidebar__brand">
        <Logo />
        <span className="sidebar__label">{t("MPP Data Portal")}</span>
      </Link>
      <nav>
        <ul className="sidebar__nav">
          {navigationFor(user.role).map((item) => (
            <NavEntry key={item.label} item={item} />
          ))}
          <li>
            <Form method="post" action="/logout">
              <button type="submit" className="sidebar__link sidebar__link--button" title={t("Logout")}>
                <LogoutIcon />
                <span className="sidebar__label">{t("Logout")}</span>
              </button>
            </Form>
          </li>
        </ul>
      </nav>
    </aside>
  );
}

const THEME_LABELS = { light: "Light", "semi-dark": "Semi dark", dark: "Dark" } as const;
const NAV_STYLE_LABELS = { "mini-sidebar": "Mini sidebar", default: "Full sidebar" } as const;
const LAYOUT_LABELS = { full: "Full width", boxed: "Boxed" } as const;

/** Display settings as plain links (`?theme=` and friends), remembered in a cookie. */
function DisplayMenu({ display }: { display: DisplaySettings }) {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const hrefWith = (key: string, value: string) => {
    const params = new URLSearchParams(search);
    params.set(key, value);
    return `${pathname}?${params}`;
  };
  const group = <T extends string>(title: string, key: string, values: readonly T[], labels: Record<T, string>, current: T) => (
    <li className="menu__section">
      <span className="menu__heading">{t(title)}</span>
      <div className="menu__choices">
        {values.map((value) => (
          <Link key={value} to={hrefWith(key, value)} className="chip" aria-current={current === value ? "true" : undefined}>
            {t(labels[value])}
          </Link>
        ))}
      </div>
    </li>
  );
  return (
    <details className="menu" data-popup>
      <summary className="menu__trigger" aria-label={t("Display settings")}>
        <PaletteIcon />
      </summary>
      <ul className="menu__list menu__list--wide">
        {group("Theme", "theme", THEMES, THEME_LABELS, display.theme)}
        {group("Navigation style", "nav-style", NAV_STYLES, NAV_STYLE_LABELS, display.navStyle)}
        {group("Layout", "layout-type", LAYOUT_TYPES, LAYOUT_LABELS, display.layoutType)}
      </ul>
    </details>
  );
}

const ROLE_LABELS = { ADMIN: "Administrator", STAFF: "Staff", PARTNER: "Partner" } as const;

function UserMenu({ user }: { user: AuthUser }) {
  const { t } = useTranslation();
  const profilePath = user.role === "PARTNER" ? "/partner/profile" : "/admin/profile";
  return (
    <details className="menu" data-popup>
      <summary className="menu__trigger" aria-label={`${t("Account")}: ${user.name}`}>
        {/* The initial is drawn by CSS: as text it would be visible text missing from the name (WCAG 2.5.3). */}
        <span className="avatar" aria-hidden="true" data-initial={user.name.slice(0, 1).toUpperCase()} />
        <span className="menu__label">{user.name}</span>
      </summary>
      <ul className="menu__list">
        <li className="menu__caption">
          <strong>{user.name}</strong>
          <span>{user.email}</span>
          <span className="badge">{t(ROLE_LABELS[user.role])}</span>
        </li>
        <li>
          <Link to={profilePath}>{t("Profile")}</Link>
        </li>
        <li>
          <Link to="/change-password">{t("Change Password")}</Link>
        </li>
        <li>
          <Form method="post" action="/lock-screen">
            <button type="submit" name="intent" value="lock" className="menu__button">
              <LockIcon /> {t("Lock screen")}
            </button>
          </Form>
        </li>
        <li>
          <Form method="post" action="/logout">
            <button type="submit" className="menu__button">
              <LogoutIcon /> {t("Logout")}
            </button>
          </Form>
        </li>
      </ul>
    </details>
  );
}

/**
 * The signed-in layout: sidebar, header, content, footer. Below 992 px the sidebar is a drawer,
 * opened by a checkbox label so that it also works without JavaScript; on a desktop the same
 * checkbox expands the mini sidebar, which then pushes the content aside instead of covering it.
 */
export function Shell({ user, display = DEFAULT_DISPLAY, children }: { user: AuthUser; display?: DisplaySettings; children: ReactNode }) {
  const { t } = useTranslation();
  const shellRef = useRef<HTMLDivElement>(null);
  const { pathname, search } = useLocation();

  // Client-side navigation keeps the DOM: close the drawer and the header menus after each one.
  useEffect(() => {
    const shell = shellRef.current;
    if (!shell) return;
    const drawer = shell.querySelector<HTMLInputElement>(`#${DRAWER_TOGGLE_ID}`);
    if (drawer) drawer.checked = false;
    shell.querySelectorAll<HTMLDetailsElement>("details.menu[open]").forEach((menu) => (menu.open = false));
  }, [pathname, search]);

  useEffect(() => {
    document.addEventListener("keydown", closeOnEscape);
    return () => document.removeEventListener("keydown", closeOnEscape);
  }, []);

  return (
    <div className="shell" ref={shellRef}>
      <a className="skip-link" href="#content">
        {t("Skip to content")}
      </a>
      <input type="checkbox" id={DRAWER_TOGGLE_ID} className="shell__drawer-toggle" aria-label={t("Open navigation")} aria-controls="sidebar" />
      <Sidebar user={user} />
      {/* eslint-disable-next-line jsx-a11y/label-has-associated-control -- the scrim closes the drawer without JavaScript; hidden from assistive technology, which uses the labelled toggle */}
      <label htmlFor={DRAWER_TOGGLE_ID} className="shell__scrim" aria-hidden="true" />
      <div className="shell__main">
        <header className="header">
          <label htmlFor={DRAWER_TOGGLE_ID} className="header__drawer-button" aria-hidden="true">
            <MenuIcon />
          </label>
          <span className="header__title">{t("MPP Data Portal")}</span>
          <div className="header__tools">
            <LanguageMenu />
            <DisplayMenu display={display} />
            <UserMenu user={user} />
          </div>
        </header>
        <main className="content" id="content">
          {children}
        </main>
        <footer className="footer">{t("Copyright © 2020 Medicines Patent Pool. All rights reserved.")}</footer>
      </div>
    </div>
  );
}

import type { Role } from "~/models/user.server";
import { REPORT_REGISTRY, REPORT_TYPES, type ReportTypeKey } from "~/reports/frame/registry";

export type NavIcon = "dashboard" | "partners" | "products" | "reports" | "timeline" | "filing" | "sales" | "user" | "logout";

export interface NavLinkItem {
  label: string;
  to: string;
  icon?: NavIcon;
}
export interface NavGroup {
  label: string;
  icon: NavIcon;
  children: NavLinkItem[];
}
export type NavItem = NavLinkItem | NavGroup;

const REPORT_ICONS: Record<ReportTypeKey, NavIcon> = { pdt: "timeline", filing: "filing", sales: "sales" };

/** The sidebar of spec section 2, per role (partners have no settings entry). */
export function navigationFor(role: Role): NavItem[] {
  if (role === "PARTNER") {
    return [
      { label: "Dashboard", to: "/partner/dashboard", icon: "dashboard" },
      ...REPORT_TYPES.map((type) => ({ label: REPORT_REGISTRY[type].labels.title, to: REPORT_REGISTRY[type].partnerPath, icon: REPORT_ICONS[type] })),
      { label: "Licence Terms", to: "/partner/licence-terms", icon: "reports" },
      {
        label: "User Profile",
        icon: "user",
        children: [
          { label: "Profile", to: "/partner/profile" },
          { label: "Change Password", to: "/change-password" },
        ],
      },
    ];
  }
  return [
    { label: "Dashboard", to: "/admin/dashboard", icon: "dashboard" },
    { label: "Partner List", to: "/admin/partner-list", icon: "partners" },
    { label: "Product List", to: "/admin/product-list", icon: "products" },
    {
      label: "Reports",
      icon: "reports",
      children: [
        ...REPORT_TYPES.map((type) => ({ label: REPORT_REGISTRY[type].labels.title, to: REPORT_REGISTRY[type].consolidatedPath })),
        { label: "Partner Performance", to: "/admin/partner-performance" },
      ],
    },
    {
      label: "User Profile",
      icon: "user",
      children: [
        { label: "Profile", to: "/admin/profile" },
        { label: "Settings", to: "/admin/settings" },
        { label: "Change Password", to: "/change-password" },
      ],
    },
  ];
}

import type { Role } from "~/models/user.server";

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

/** The sidebar of spec section 2, per role (partners have no settings entry). */
export function navigationFor(role: Role): NavItem[] {
  if (role === "PARTNER") {
    return [
      { label: "Dashboard", to: "/partner/dashboard", icon: "dashboard" },
      { label: "Development Timeline", to: "/partner/development-timeline", icon: "timeline" },
      { label: "Filing Plans", to: "/partner/filing-plans", icon: "filing" },
      { label: "Sales Report", to: "/partner/sales-report", icon: "sales" },
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
        { label: "Development Timeline", to: "/admin/report/development-timeline" },
        { label: "Filing Plans", to: "/admin/report/filing-plans" },
        { label: "Sales Report", to: "/admin/report/sales-report" },
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

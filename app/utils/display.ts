export const THEMES = ["light", "semi-dark", "dark"] as const;
export const NAV_STYLES = ["mini-sidebar", "default"] as const;
export const LAYOUT_TYPES = ["full", "boxed"] as const;

export interface DisplaySettings {
  theme: (typeof THEMES)[number];
  navStyle: (typeof NAV_STYLES)[number];
  layoutType: (typeof LAYOUT_TYPES)[number];
}

export const DEFAULT_DISPLAY: DisplaySettings = { theme: "semi-dark", navStyle: "mini-sidebar", layoutType: "full" };

function pick<T extends string>(allowed: readonly T[], value: unknown, fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

/** Keeps only known values; anything else falls back to the current setting. */
export function parseDisplaySettings(input: Record<string, unknown>, current: DisplaySettings): DisplaySettings {
  return {
    theme: pick(THEMES, input.theme, current.theme),
    navStyle: pick(NAV_STYLES, input.navStyle, current.navStyle),
    layoutType: pick(LAYOUT_TYPES, input.layoutType, current.layoutType),
  };
}

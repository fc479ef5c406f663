/**
 * The grid's stylesheet as react-data-grid ships it, served by server.ts from the package: its
 * cascade layers nested in rules are newer CSS than the Remix compiler's parser reads (it warned
 * on every declaration and wrote stray rules into its copy).
 */
export const GRID_STYLESHEET_PATH = "/vendor/react-data-grid.css";

/** Where the package keeps it (a module specifier, resolved by the server). */
export const GRID_STYLESHEET_MODULE = "react-data-grid/lib/styles.css";

/** Refusals every screen shares, in the spec's English wording (they are also the i18n keys). */
export const NOT_AUTHORIZED = "YOU ARE NOT AUTHORIZED TO USE THE PAGE";
export const PAGE_NOT_FOUND = "Oops, an error has occurred. Page not found!";
/** A signed-in user on a page for signed-out users (password links). */
export const ACCESS_DENIED = "Access Denied!";
export const BAD_REQUEST = "The request could not be understood. Reload the page and try again.";
export const WRONG_CURRENT_PASSWORD = "Your current password is incorrect.";

/** A message (an i18n key with `{{name}}` placeholders) in English, its values put in: what the API and the logs say. */
export const inEnglish = (message: string, values?: Record<string, string | number>) =>
  message.replace(/{{(\w+)}}/g, (field, name: string) => (values?.[name] === undefined ? field : String(values[name])));

/**
 * The answers a question before an action offers (spec section 2, partner list): deactivating or
 * deleting asks Yes / No, every other confirmation Ok / Cancel. English keys, shown translated.
 */
export const REMOVAL_ANSWERS = { confirm: "Yes", cancel: "No" } as const;
export const CONFIRMATION_ANSWERS = { confirm: "Ok", cancel: "Cancel" } as const;

/**
 * Clicks this soon after a prompt appears are not taken: a double click
 * meant for what was under it, or for the prompt before it, must not allow a
 * read or a change. (Its own module: the window tests, which hold the page's
 * clock, move it by this much.)
 */
export const ARM_DELAY_MS = 500;

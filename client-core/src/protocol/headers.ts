/**
 * A Pull response header with the next page's cursor, sent when more pages
 * follow. It is only a hint for asking ahead: the body's `next_cursor` and
 * `has_more` decide.
 */
export const nextPageHeader = "hivekeep-next-cursor";

/** Titles of collections and spaces: at most 50 characters (the seed's limit). */
export const TITLE_MAX = 50;
export const DESCRIPTION_MAX = 100;
export const EMOJI_MAX = 50;

/** Deleted spaces can be restored for seven days; then they are removed for good. */
export const RESTORE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

export function purgeTime(deletedAt: string): string {
  return new Date(new Date(deletedAt).getTime() + RESTORE_WINDOW_MS).toISOString();
}

/** True while a space deleted at `deletedAt` may still be restored at `now`. */
export function withinRestoreWindow(deletedAt: string, now: string): boolean {
  return new Date(now).getTime() < new Date(deletedAt).getTime() + RESTORE_WINDOW_MS;
}

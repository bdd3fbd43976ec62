/** Longest subject accepted (identity's are at most about 50 characters). */
export const MAX_SUBJECT_LENGTH = 200;

/** A subject is a non-empty string of at most MAX_SUBJECT_LENGTH characters. */
export function checkSubject(subject: string): void {
  if (typeof subject !== 'string' || subject.length === 0 || subject.length > MAX_SUBJECT_LENGTH) {
    throw new Error(`invalid key subject ${JSON.stringify(subject)}`);
  }
}

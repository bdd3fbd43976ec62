import { ValidationFailed } from '@app/kernel/domain';

/** Length in code points (what a person counts as characters), not UTF-16 units. */
export const codePoints = (text: string): number => [...text].length;

/** Refuses a string longer than `max` code points (or shorter than `min`), naming the field. */
export function checkLength(field: string, text: string, max: number, min = 0): void {
  const length = codePoints(text);
  if (length < min || length > max) {
    const range = min > 0 ? `${min} to ${max}` : `at most ${max}`;
    throw new ValidationFailed(`${field}: must have ${range} characters (has ${length})`);
  }
}

/**
 * Freezes a value and everything it holds (objects already frozen are taken as frozen throughout): for values
 * that many readers share, such as cached read-model documents and kept answers.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

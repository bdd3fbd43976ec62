import { ValidationFailed } from '../domain/errors';

/** The ETag of a resource at a stream revision. */
export function etagOf(revision: number): string {
  return `"${revision}"`;
}

/** Reads `If-Match` as an expected revision (undefined when absent or `*`). */
export function parseIfMatch(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const value = (Array.isArray(header) ? header[0] : header).trim();
  if (value === '*') return undefined;
  const match = /^(?:W\/)?"(\d+)"$/.exec(value);
  if (!match) throw new ValidationFailed('If-Match: expected an ETag such as "3"');
  return Number(match[1]);
}

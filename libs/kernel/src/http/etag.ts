import { ValidationFailed } from '../domain/errors';
import { type IfMatch } from '../runtime/handle-command';

/** The ETag of a resource at a stream revision. */
export function etagOf(revision: number): string {
  return `"${revision}"`;
}

const ENTITY_TAG = /^(?:W\/)?"(\d+)"$/;

/** Reads `If-Match` as the revisions it accepts (undefined when absent or `*`). */
export function parseIfMatch(header: string | string[] | undefined): IfMatch | undefined {
  if (header === undefined) return undefined;
  const items = (Array.isArray(header) ? header.join(',') : header)
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 0) throw new ValidationFailed('If-Match: expected an ETag such as "3"');
  if (items.includes('*')) return undefined;
  const revisions = items.map((item) => {
    const match = ENTITY_TAG.exec(item);
    if (!match) throw new ValidationFailed('If-Match: expected an ETag such as "3", or a comma-separated list of them');
    return Number(match[1]);
  });
  return revisions.length === 1 ? revisions[0] : revisions;
}

import { type PublicUrls, type UrlSigner } from '@app/kernel';
import { type FileNode, type PageNode, allPages } from '../../domain';
import { type RevisionDoc, type RevisionLinksDoc } from '../read-models';
import { presentFile, presentPage } from './content-presenters';

export const LINK_STATUSES = ['ok', 'broken', 'in-app'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

type Reference = RevisionLinksDoc['references'][number];

/** What a location needs besides the revision: the space and organization bodies, the URLs. */
export interface LinkContext {
  revision: RevisionDoc;
  space: unknown;
  organization: unknown;
  urls: PublicUrls;
  signer: UrlSigner;
}

/** A URL into the app itself (the service's own `app` address) is an in-app link; others are plain URLs. */
function statusOf(reference: Reference, appUrl: string): LinkStatus {
  if (reference.broken) return 'broken';
  if (reference.ref.kind === 'url') {
    try {
      if (new URL(reference.ref.url).origin === new URL(appUrl).origin) return 'in-app';
    } catch {
      // a relative or malformed URL is left as written
    }
  }
  return 'ok';
}

/** Locations name their page without its sub-pages (those are pages of their own). */
function pageLocation(page: PageNode, context: LinkContext) {
  return {
    kind: 'page' as const,
    organization: context.organization,
    space: context.space,
    page: presentPage({ ...page, pages: [] }, context.revision.spaceId, context.urls),
  };
}

function fileLocation(file: FileNode, context: LinkContext) {
  return {
    kind: 'file' as const,
    organization: context.organization,
    space: context.space,
    file: presentFile(file, context.urls, context.signer),
  };
}

/** Where a reference points, as an absolute location; none for an anchor or a target that is not there. */
function targetLocation(reference: Reference, pages: Map<string, PageNode>, context: LinkContext) {
  const { ref } = reference;
  if (ref.kind === 'url') return { kind: 'url' as const, url: ref.url };
  if (ref.kind === 'page' && pages.has(ref.page)) return pageLocation(pages.get(ref.page)!, context);
  if (ref.kind === 'file') {
    const file = context.revision.files.find((candidate) => candidate.id === ref.file);
    if (file) return fileLocation(file, context);
  }
  return undefined;
}

/**
 * The references of a revision grouped by target, as the spec's ContentReferenceUsage: which pages link to each
 * target and whether it resolves. `stats` counts links (a page linking to a target once), over the whole revision.
 */
export function linkUsages(
  links: RevisionLinksDoc,
  context: LinkContext,
  options: { status?: LinkStatus; from?: string },
) {
  const pages = new Map([...allPages(context.revision.pages)].map((page) => [page.id, page]));
  const references = links.references.filter(
    (reference) => options.from === undefined || reference.from === options.from,
  );
  const groups = new Map<string, { status: LinkStatus; sample: Reference; from: string[] }>();
  for (const reference of references) {
    const key = JSON.stringify(reference.ref);
    const group = groups.get(key);
    if (group) group.from.push(reference.from);
    else groups.set(key, { status: statusOf(reference, context.urls.app), sample: reference, from: [reference.from] });
  }
  const items = [...groups.values()]
    .filter((group) => options.status === undefined || group.status === options.status)
    .map((group) => {
      const target = targetLocation(group.sample, pages, context);
      return {
        status: group.status,
        relation: 'reference' as const,
        ...(target ? { targetReference: target } : {}),
        locationReferences: group.from.flatMap((id) => (pages.has(id) ? [pageLocation(pages.get(id)!, context)] : [])),
      };
    });
  const broken = references.filter((reference) => reference.broken).length;
  return { items, stats: { total: references.length, broken: { total: broken } } };
}

/** The pages of the revision that link to a file, as locations. */
export function fileBacklinks(links: RevisionLinksDoc, fileId: string, context: LinkContext) {
  const pages = new Map([...allPages(context.revision.pages)].map((page) => [page.id, page]));
  const from = new Set(
    links.references
      .filter((reference) => reference.ref.kind === 'file' && reference.ref.file === fileId)
      .map((reference) => reference.from),
  );
  return [...from].flatMap((id) => (pages.has(id) ? [pageLocation(pages.get(id)!, context)] : []));
}

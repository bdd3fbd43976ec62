import {
  type Command,
  type Decider,
  type DomainEvent,
  IllegalState,
  ValidationFailed,
  assertNever,
  characterCount,
} from '@app/kernel/domain';

/** One stream per revision: a revision is created once and never changes. */
export const revisionStream = (revisionId: string) => `revision-${revisionId}`;

export type RevisionType = 'edits' | 'merge' | 'rollback' | 'update';

/** A page as a writer gives it: slugs and paths are derived when missing. */
export type PageInput = {
  id: string;
  title: string;
  slug?: string;
  description?: string;
  emoji?: string;
  markdown?: string;
  hidden?: boolean;
  pages?: PageInput[];
};

/** A page as a revision stores it: a node of the immutable page tree. */
export type PageNode = {
  id: string;
  title: string;
  slug: string;
  path: string;
  description?: string;
  emoji?: string;
  markdown: string;
  hidden: boolean;
  pages: PageNode[];
};

export type FileNode = {
  id: string;
  name: string;
  contentType: string;
  size: number;
  downloadURL: string;
  dimensions?: { width: number; height: number };
  /** Set when the bytes are kept by the service (BlobStore key): `downloadURL` is then built when presented. */
  blobKey?: string;
};

export type CreateRevision = Command<
  'CreateRevision',
  {
    revisionId: string;
    spaceId: string;
    parents: string[];
    type: RevisionType;
    pages: PageInput[];
    files: FileNode[];
    /** The change request a `merge` revision comes from. */
    mergedFrom?: string;
  }
>;
export type RevisionCommand = CreateRevision;

export type RevisionCreated = DomainEvent<
  'RevisionCreated',
  {
    revisionId: string;
    spaceId: string;
    parents: string[];
    type: RevisionType;
    pages: PageNode[];
    files: FileNode[];
    mergedFrom?: string;
    createdBy?: string;
    createdAt: string;
  }
>;
export type RevisionEvent = RevisionCreated;

export type RevisionState = { status: 'absent' } | { status: 'created'; revisionId: string };

const MAX_PAGES = 10_000;
const MAX_DEPTH = 20;
const TITLE_MAX = 255;

/** A URL-safe slug from a title: lower case letters, digits and single dashes. */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'page';
}

/** Builds the stored page tree: slugs unique among siblings, paths from the root, ids unique in the revision. */
export function buildPageTree(inputs: readonly PageInput[]): PageNode[] {
  const ids = new Set<string>();
  const build = (pages: readonly PageInput[], parentPath: string, depth: number): PageNode[] => {
    if (pages.length > 0 && depth > MAX_DEPTH) {
      throw new ValidationFailed(`pages: nested more than ${MAX_DEPTH} levels deep`);
    }
    const slugs = new Set<string>();
    return pages.map((page) => {
      if (typeof page.id !== 'string' || page.id.length === 0)
        throw new ValidationFailed('pages: every page needs an id');
      if (ids.has(page.id)) throw new ValidationFailed(`pages: the id ${page.id} is used twice`);
      ids.add(page.id);
      if (ids.size > MAX_PAGES) throw new ValidationFailed(`pages: at most ${MAX_PAGES} pages`);
      if (typeof page.title !== 'string' || page.title.trim().length === 0 || characterCount(page.title) > TITLE_MAX) {
        throw new ValidationFailed(`pages: the title of page ${page.id} must have 1 to ${TITLE_MAX} characters`);
      }
      const base = page.slug !== undefined ? slugify(page.slug) : slugify(page.title);
      let slug = base;
      for (let n = 2; slugs.has(slug); n++) slug = `${base}-${n}`;
      slugs.add(slug);
      const path = parentPath ? `${parentPath}/${slug}` : slug;
      const node: PageNode = {
        id: page.id,
        title: page.title,
        slug,
        path,
        markdown: page.markdown ?? '',
        hidden: page.hidden ?? false,
        pages: build(page.pages ?? [], path, depth + 1),
      };
      if (page.description !== undefined) node.description = page.description;
      if (page.emoji !== undefined) node.emoji = page.emoji;
      return node;
    });
  };
  return build(inputs, '', 1);
}

/** Every page of a tree, depth first. */
export function* allPages(pages: readonly PageNode[]): Generator<PageNode> {
  for (const page of pages) {
    yield page;
    yield* allPages(page.pages);
  }
}

/** Revisions are immutable snapshots: created once, with their parents, never edited. */
export const revisionDecider: Decider<RevisionState, RevisionCommand, RevisionEvent> = {
  initialState: () => ({ status: 'absent' }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateRevision': {
        if (state.status !== 'absent') throw new IllegalState(`revision ${command.data.revisionId} exists`);
        const fileIds = new Set<string>();
        for (const file of command.data.files) {
          if (fileIds.has(file.id)) throw new ValidationFailed(`files: the id ${file.id} is used twice`);
          fileIds.add(file.id);
        }
        return [
          {
            type: 'RevisionCreated',
            data: {
              ...command.data,
              pages: buildPageTree(command.data.pages),
              ...(command.metadata.actor ? { createdBy: command.metadata.actor } : {}),
              createdAt: command.metadata.now,
            },
          },
        ];
      }
      default:
        return assertNever(command.type);
    }
  },

  evolve(_state, event) {
    return { status: 'created', revisionId: event.data.revisionId };
  },
};

import { at, given } from '@app/kernel/testing';
import {
  type CreateRevision,
  type FileNode,
  type PageInput,
  type RevisionEvent,
  allPages,
  buildPageTree,
  revisionDecider,
  slugify,
} from './revision.decider';

const now = '2026-02-01T10:00:00.000Z';
const logo: FileNode = {
  id: 'f1',
  name: 'logo.png',
  contentType: 'image/png',
  size: 1024,
  downloadURL: 'https://files.example.com/f1',
  dimensions: { width: 64, height: 64 },
};

const create = (data: Partial<CreateRevision['data']> = {}, actor?: string): CreateRevision => ({
  type: 'CreateRevision',
  data: { revisionId: 'r1', spaceId: 's1', parents: [], type: 'edits', pages: [], files: [], ...data },
  metadata: actor === undefined ? at(now) : { now, actor },
});

describe('slugify', () => {
  it('lowercases, drops accents and joins words with single dashes', () => {
    expect(slugify('Getting Started')).toBe('getting-started');
    expect(slugify('  Café  & Crème brûlée!  ')).toBe('cafe-creme-brulee');
    expect(slugify('API v2.1 -- Reference')).toBe('api-v2-1-reference');
  });

  it('falls back to "page" when nothing usable is left', () => {
    expect(slugify('!!!')).toBe('page');
    expect(slugify('日本語')).toBe('page');
  });
});

describe('page tree', () => {
  it('derives slugs from titles and paths from the root', () => {
    const tree = buildPageTree([
      {
        id: 'p1',
        title: 'Getting Started',
        pages: [{ id: 'p2', title: 'Install It', pages: [{ id: 'p3', title: 'On Linux' }] }],
      },
    ]);
    expect(tree).toEqual([
      {
        id: 'p1',
        title: 'Getting Started',
        slug: 'getting-started',
        path: 'getting-started',
        markdown: '',
        hidden: false,
        pages: [
          {
            id: 'p2',
            title: 'Install It',
            slug: 'install-it',
            path: 'getting-started/install-it',
            markdown: '',
            hidden: false,
            pages: [
              {
                id: 'p3',
                title: 'On Linux',
                slug: 'on-linux',
                path: 'getting-started/install-it/on-linux',
                markdown: '',
                hidden: false,
                pages: [],
              },
            ],
          },
        ],
      },
    ]);
  });

  it('keeps sibling slugs unique with -2, -3 suffixes, but not across levels', () => {
    const tree = buildPageTree([
      { id: 'a', title: 'Intro' },
      { id: 'b', title: 'intro' },
      { id: 'c', title: 'INTRO!' },
      { id: 'd', title: 'Guide', pages: [{ id: 'e', title: 'Intro' }] },
    ]);
    expect(tree.map((p) => p.slug)).toEqual(['intro', 'intro-2', 'intro-3', 'guide']);
    expect(tree[3].pages[0]).toMatchObject({ slug: 'intro', path: 'guide/intro' });
  });

  it('uses a given slug, made safe, and keeps optional fields', () => {
    const [page] = buildPageTree([
      {
        id: 'p1',
        title: 'Home',
        slug: 'Welcome Page',
        description: 'Start here',
        emoji: '1f3e0',
        markdown: '# Home',
        hidden: true,
      },
    ]);
    expect(page).toEqual({
      id: 'p1',
      title: 'Home',
      slug: 'welcome-page',
      path: 'welcome-page',
      description: 'Start here',
      emoji: '1f3e0',
      markdown: '# Home',
      hidden: true,
      pages: [],
    });
  });

  it('lists every page depth first', () => {
    const tree = buildPageTree([
      { id: 'a', title: 'A', pages: [{ id: 'b', title: 'B', pages: [{ id: 'c', title: 'C' }] }] },
      { id: 'd', title: 'D' },
    ]);
    expect([...allPages(tree)].map((p) => p.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  /** A chain of `levels` pages, each the only child of the one before. */
  const chain = (levels: number): PageInput[] => {
    let pages: PageInput[] = [];
    for (let n = levels; n >= 1; n--) pages = [{ id: `p${n}`, title: `Level ${n}`, pages }];
    return pages;
  };

  it('refuses pages nested more than 20 levels deep', () => {
    expect(() => buildPageTree(chain(21))).toThrow(/nested more than 20 levels/);
  });

  it('accepts pages nested 20 levels deep', () => {
    expect(() => buildPageTree(chain(19))).not.toThrow();
    expect([...allPages(buildPageTree(chain(20)))]).toHaveLength(20);
  });
});

describe('revision decider', () => {
  it('creates a revision with its page tree and files', () => {
    const expected: RevisionEvent = {
      type: 'RevisionCreated',
      data: {
        revisionId: 'r2',
        spaceId: 's1',
        parents: ['r1'],
        type: 'merge',
        pages: [
          {
            id: 'p1',
            title: 'Overview',
            slug: 'overview',
            path: 'overview',
            markdown: 'Hello',
            hidden: false,
            pages: [],
          },
          {
            id: 'p2',
            title: 'Overview',
            slug: 'overview-2',
            path: 'overview-2',
            markdown: '',
            hidden: false,
            pages: [],
          },
        ],
        files: [logo],
        createdBy: 'user-1',
        createdAt: now,
      },
    };
    given(revisionDecider)
      .when(
        create({
          revisionId: 'r2',
          parents: ['r1'],
          type: 'merge',
          pages: [
            { id: 'p1', title: 'Overview', markdown: 'Hello' },
            { id: 'p2', title: 'Overview' },
          ],
          files: [logo],
        }),
      )
      .then([expected]);
  });

  it('leaves createdBy out when no actor is known', () => {
    given(revisionDecider)
      .when(create({}, ''))
      .then([
        {
          type: 'RevisionCreated',
          data: { revisionId: 'r1', spaceId: 's1', parents: [], type: 'edits', pages: [], files: [], createdAt: now },
        },
      ]);
  });

  it('refuses a page id used twice, also at different levels', () => {
    given(revisionDecider)
      .when(
        create({
          pages: [
            { id: 'p1', title: 'One' },
            { id: 'p1', title: 'Two' },
          ],
        }),
      )
      .thenThrows('validation', /p1 is used twice/);
    given(revisionDecider)
      .when(create({ pages: [{ id: 'p1', title: 'One', pages: [{ id: 'p1', title: 'Child' }] }] }))
      .thenThrows('validation', /used twice/);
  });

  it('refuses a page without an id or with an empty or over-long title', () => {
    given(revisionDecider)
      .when(create({ pages: [{ id: '', title: 'Nameless' }] }))
      .thenThrows('validation', /id/);
    given(revisionDecider)
      .when(create({ pages: [{ id: 'p1', title: '' }] }))
      .thenThrows('validation', /title/);
    given(revisionDecider)
      .when(create({ pages: [{ id: 'p1', title: 'Parent', pages: [{ id: 'p2', title: '   ' }] }] }))
      .thenThrows('validation', /p2/);
    given(revisionDecider)
      .when(create({ pages: [{ id: 'p1', title: 't'.repeat(256) }] }))
      .thenThrows('validation', /title/);
  });

  it('refuses a file id used twice', () => {
    given(revisionDecider)
      .when(create({ files: [logo, { ...logo, name: 'other.png' }] }))
      .thenThrows('validation', /f1 is used twice/);
  });

  it('refuses to create a revision twice: revisions never change', () => {
    const first: RevisionEvent = {
      type: 'RevisionCreated',
      data: {
        revisionId: 'r1',
        spaceId: 's1',
        parents: [],
        type: 'edits',
        pages: [],
        files: [],
        createdBy: 'user-1',
        createdAt: now,
      },
    };
    given(revisionDecider, [first]).thenState({ status: 'created', revisionId: 'r1' });
    given(revisionDecider, [first])
      .when(create())
      .thenThrows('illegal-state', /exists/);
  });
});

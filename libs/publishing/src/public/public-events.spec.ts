import { mapPublicEvent, recorded } from '@app/kernel/testing';
import { publishingPublicEvents } from './public-events';

describe('publishing public events', () => {
  it('maps a site and records its organization for the events that follow', () => {
    const created = recorded('SiteCreated', {
      siteId: 'site1',
      organizationId: 'o1',
      type: 'basic',
      title: 'Docs',
      visibility: 'public',
      createdAt: 't',
    });
    expect(mapPublicEvent(publishingPublicEvents, created)).toMatchObject({
      type: 'site.created',
      organization: 'o1',
      subject: { object: 'site', id: 'site1' },
      data: { type: 'basic', title: 'Docs', visibility: 'public' },
    });
    expect(publishingPublicEvents.owners?.(created)).toEqual([{ key: 'site:site1', organization: 'o1' }]);
    expect(
      mapPublicEvent(publishingPublicEvents, recorded('SitePublished', { siteId: 'site1', publishedAt: 't' })),
    ).toMatchObject({ type: 'site.published', organization: { ownerOf: 'site:site1' }, data: {} });
  });

  it('keeps share links to admins, without their key hash', () => {
    const draft = mapPublicEvent(
      publishingPublicEvents,
      recorded('SiteShareLinkCreated', {
        siteId: 'site1',
        shareLinkId: 'l1',
        name: 'Partners',
        keyHash: 'abcdef',
        createdAt: 't',
      }),
    );
    expect(draft).toMatchObject({ audience: 'admin', data: { shareLink: { id: 'l1' }, name: 'Partners' } });
    expect(JSON.stringify(draft)).not.toContain('abcdef');
  });

  it('maps a space taken off a site by the clean-up with its reason', () => {
    const draft = mapPublicEvent(
      publishingPublicEvents,
      recorded('SiteSpaceRemoved', {
        siteId: 'site1',
        siteSpaceId: 'ss1',
        spaceId: 's1',
        reason: 'space-deleted',
        removedAt: 't',
      }),
    );
    expect(draft?.data).toEqual({ siteSpace: { id: 'ss1' }, space: { id: 's1' }, reason: 'space-deleted' });
  });
});

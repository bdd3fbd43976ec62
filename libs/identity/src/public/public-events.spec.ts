import { mapPublicEvent, recorded } from '@app/kernel/testing';
import { identityPublicEvents } from './public-events';

describe('identity public events', () => {
  it('shows a new member as an id and a role, never their address or name', () => {
    const draft = mapPublicEvent(
      identityPublicEvents,
      recorded('MemberJoined', {
        organizationId: 'o1',
        userId: 'u2',
        email: 'ada@example.com',
        displayName: 'Ada Lovelace',
        role: null,
        joinedAt: 't',
      }),
    );
    expect(draft).toEqual({
      type: 'member.added',
      version: 1,
      organization: 'o1',
      subject: { object: 'member', id: 'u2' },
      data: { user: { id: 'u2' }, role: null, sso: false },
    });
    expect(JSON.stringify(draft)).not.toMatch(/ada|Lovelace/i);
  });

  it('keeps invite links and SAML providers to admins, and names settings without their values', () => {
    const link = mapPublicEvent(
      identityPublicEvents,
      recorded('InviteLinkCreated', { organizationId: 'o1', linkId: 'hash', grant: { role: 'read' }, createdAt: 't' }),
    );
    expect(link).toMatchObject({ type: 'invite_link.created', audience: 'admin', data: { grant: { role: 'read' } } });
    const saml = mapPublicEvent(
      identityPublicEvents,
      recorded('SamlProviderChanged', {
        organizationId: 'o1',
        providerId: 'p1',
        changes: { certificate: 'MII…', ssoURL: 'https://idp.example.com' },
        changedAt: 't',
      }),
    );
    expect(saml).toMatchObject({ audience: 'admin', data: { fields: ['certificate', 'ssoURL'] } });
  });

  it('maps what happens to a user alone, and invitations by address, to nothing', () => {
    for (const [type, data] of [
      ['UserCreated', { userId: 'u1', email: 'a@b.c', displayName: 'A', createdAt: 't' }],
      ['ApiTokenCreated', { userId: 'u1', tokenId: 't1', label: 'x', tokenHash: 'h', createdAt: 't' }],
      ['MemberInvited', { organizationId: 'o1', email: 'a@b.c', role: 'read', invitedAt: 't' }],
    ] as const) {
      expect(identityPublicEvents.map(recorded(type, data))).toBeNull();
    }
  });

  it('keeps only the known settings of an organization update', () => {
    const draft = mapPublicEvent(
      identityPublicEvents,
      recorded('OrganizationUpdated', {
        organizationId: 'o1',
        changes: { title: 'Acme', hostname: 'acme' },
        updatedAt: 't',
      }),
    );
    expect(draft?.data).toEqual({ changes: { title: 'Acme', hostname: 'acme' } });
  });
});

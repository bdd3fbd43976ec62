import { at, given } from '@app/kernel/testing';
import { type EmailAddressEvent, emailAddressDecider } from './email-address.decider';

const now = '2026-01-02T03:04:05.000Z';
const claimed: EmailAddressEvent = {
  type: 'EmailClaimed',
  data: { email: 'ada@example.com', userId: 'u1', claimedAt: now },
};
const invite = {
  type: 'RecordPendingInvite' as const,
  data: { email: 'ada@example.com', organizationId: 'o1', role: 'edit' as const, invitedBy: 'u0' },
  metadata: at(now),
};

describe('email address decider', () => {
  it('lets one user claim an address; the same user claiming again is a no-op; another user is refused', () => {
    const claim = { type: 'ClaimEmail' as const, data: { email: 'ada@example.com', userId: 'u1' }, metadata: at(now) };
    given(emailAddressDecider).when(claim).then([claimed]);
    given(emailAddressDecider, [claimed]).when(claim).thenNothing();
    given(emailAddressDecider, [claimed])
      .when({ ...claim, data: { ...claim.data, userId: 'u2' } })
      .thenThrows('illegal-state', /another user/);
  });

  it('records pending invites for an unclaimed address only, once per organization and role', () => {
    const recorded: EmailAddressEvent = { type: 'InvitationRecorded', data: { ...invite.data, invitedAt: now } };
    given(emailAddressDecider).when(invite).then([recorded]);
    given(emailAddressDecider, [recorded]).when(invite).thenNothing();
    given(emailAddressDecider, [recorded])
      .when({ ...invite, data: { ...invite.data, role: 'admin' } })
      .then([{ type: 'InvitationRecorded', data: { ...invite.data, role: 'admin', invitedAt: now } }]);
    given(emailAddressDecider, [claimed]).when(invite).thenThrows('illegal-state');
  });

  it('remembers who claimed the address', () => {
    given(emailAddressDecider, [claimed]).thenState({ status: 'claimed', userId: 'u1' });
  });
});

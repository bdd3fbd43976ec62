import { at, given } from '@app/kernel/testing';
import { type EmailAddressEvent, emailAddressDecider } from './email-address.decider';

const now = '2026-01-02T03:04:05.000Z';
/** Deciders never open sealed values: any envelope will do. */
const sealedForUser = { enc: 'v1:dXNlcg==', subject: 'user:u1' };
const sealedForAddress = { enc: 'v1:YWRkcmVzcw==', subject: 'address:k1' };
const claimed: EmailAddressEvent = {
  type: 'EmailClaimed',
  data: { email: sealedForUser, userId: 'u1', claimedAt: now },
};
const released: EmailAddressEvent = { type: 'EmailReleased', data: { userId: 'u1', releasedAt: now } };
const invite = {
  type: 'RecordPendingInvite' as const,
  data: { email: sealedForAddress, organizationId: 'o1', role: 'edit' as const, invitedBy: 'u0' },
  metadata: at(now),
};
const claim = { type: 'ClaimEmail' as const, data: { email: sealedForUser, userId: 'u1' }, metadata: at(now) };
const release = { type: 'ReleaseEmail' as const, data: { userId: 'u1' }, metadata: at(now) };

describe('email address decider', () => {
  it('lets one user claim an address; the same user claiming again is a no-op; another user is refused', () => {
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

  it('releases the address when its holder is erased, once, and only for its holder', () => {
    given(emailAddressDecider, [claimed]).when(release).then([released]);
    given(emailAddressDecider, [claimed, released]).when(release).thenNothing();
    given(emailAddressDecider).when(release).thenNothing();
    given(emailAddressDecider, [claimed])
      .when({ ...release, data: { userId: 'u2' } })
      .thenNothing();
  });

  it('lets a released address be claimed again, by a new user, and invited again before that', () => {
    given(emailAddressDecider, [claimed, released]).thenState({ status: 'unclaimed', invitedTo: {} });
    given(emailAddressDecider, [claimed, released])
      .when({ ...claim, data: { ...claim.data, userId: 'u2' } })
      .then([{ type: 'EmailClaimed', data: { email: sealedForUser, userId: 'u2', claimedAt: now } }]);
    given(emailAddressDecider, [claimed, released])
      .when(invite)
      .then([{ type: 'InvitationRecorded', data: { ...invite.data, invitedAt: now } }]);
  });
});

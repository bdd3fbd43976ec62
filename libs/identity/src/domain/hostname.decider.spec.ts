import { at, given } from '@app/kernel/testing';
import { HOSTNAME_HOLD_GRACE_MS, type HostnameEvent, hostnameDecider } from './hostname.decider';

const now = '2026-01-02T03:04:05.000Z';
const claim = (organizationId: string) => ({
  type: 'ClaimHostname' as const,
  data: { hostname: 'docs', organizationId },
  metadata: at(now),
});
const release = (organizationId: string) => ({
  type: 'ReleaseHostname' as const,
  data: { hostname: 'docs', organizationId },
  metadata: at(now),
});
const claimed = (organizationId: string): HostnameEvent => ({
  type: 'HostnameClaimed',
  data: { hostname: 'docs', organizationId, claimedAt: now },
});
const released = (organizationId: string): HostnameEvent => ({
  type: 'HostnameReleased',
  data: { hostname: 'docs', organizationId, releasedAt: now },
});

describe('hostname decider', () => {
  it('lets one organization take a free name; taking it again changes nothing; another is refused', () => {
    given(hostnameDecider)
      .when(claim('o1'))
      .then([claimed('o1')]);
    given(hostnameDecider, [claimed('o1')])
      .when(claim('o1'))
      .thenNothing();
    given(hostnameDecider, [claimed('o1')])
      .when(claim('o2'))
      .thenThrows('illegal-state', /docs is taken/);
  });

  it('lets only the holder release a name, which another organization may then take', () => {
    given(hostnameDecider, [claimed('o1')])
      .when(release('o1'))
      .then([released('o1')]);
    given(hostnameDecider, [claimed('o1')])
      .when(release('o2'))
      .thenNothing();
    given(hostnameDecider).when(release('o1')).thenNothing();
    given(hostnameDecider, [claimed('o1'), released('o1')])
      .when(claim('o2'))
      .then([claimed('o2')]);
    given(hostnameDecider, [claimed('o1'), released('o1'), claimed('o2')])
      .when(release('o1'))
      .thenNothing();
  });

  it('takes over a hold its holder no longer has, only once it is older than the grace period', () => {
    const later = (ms: number) => new Date(Date.parse(now) + ms).toISOString();
    const takeover = (by: string, lapsedHolder: string, when: string) => ({
      type: 'ClaimHostname' as const,
      data: { hostname: 'docs', organizationId: by, lapsedHolder },
      metadata: at(when),
    });
    const when = later(HOSTNAME_HOLD_GRACE_MS);
    given(hostnameDecider, [claimed('o1')])
      .when(takeover('o2', 'o1', when))
      .then([
        { type: 'HostnameReleased', data: { hostname: 'docs', organizationId: 'o1', releasedAt: when, lapsed: true } },
        { type: 'HostnameClaimed', data: { hostname: 'docs', organizationId: 'o2', claimedAt: when } },
      ]);
    // too young: the holder's update may still be on its way
    given(hostnameDecider, [claimed('o1')])
      .when(takeover('o2', 'o1', later(HOSTNAME_HOLD_GRACE_MS - 1)))
      .thenThrows('illegal-state', /docs is taken/);
    // the claimant judged another holder than the one there now
    given(hostnameDecider, [claimed('o1'), released('o1'), claimed('o3')])
      .when(takeover('o2', 'o1', when))
      .thenThrows('illegal-state', /docs is taken/);
  });
});

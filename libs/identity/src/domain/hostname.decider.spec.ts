import { at, given } from '@app/kernel/testing';
import { type HostnameEvent, hostnameDecider } from './hostname.decider';

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
});

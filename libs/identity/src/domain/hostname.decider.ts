import { type Command, type Decider, type DomainEvent, IllegalState, assertNever } from '@app/kernel/domain';

/**
 * One stream per organization hostname (a subdomain: lowercase letters, digits and dashes), so that two
 * organizations can never both take one name: the claim is an append with an expected revision, where a check of
 * the read model could let two simultaneous claims through. An organization releases its name when it changes
 * or removes it.
 */
export const hostnameStream = (hostname: string) => `hostname-${hostname}`;

export type ClaimHostname = Command<'ClaimHostname', { hostname: string; organizationId: string }>;
export type ReleaseHostname = Command<'ReleaseHostname', { hostname: string; organizationId: string }>;
export type HostnameCommand = ClaimHostname | ReleaseHostname;

export type HostnameClaimed = DomainEvent<
  'HostnameClaimed',
  { hostname: string; organizationId: string; claimedAt: string }
>;
export type HostnameReleased = DomainEvent<
  'HostnameReleased',
  { hostname: string; organizationId: string; releasedAt: string }
>;
export type HostnameEvent = HostnameClaimed | HostnameReleased;

/** Which organization holds the name, if any. */
export interface HostnameState {
  organizationId: string | null;
}

export const hostnameDecider: Decider<HostnameState, HostnameCommand, HostnameEvent> = {
  initialState: () => ({ organizationId: null }),

  decide(command, state) {
    const now = command.metadata.now;
    switch (command.type) {
      case 'ClaimHostname':
        if (state.organizationId === command.data.organizationId) return [];
        if (state.organizationId !== null) throw new IllegalState(`hostname ${command.data.hostname} is taken`);
        return [{ type: 'HostnameClaimed', data: { ...command.data, claimedAt: now } }];
      case 'ReleaseHostname':
        // Only its holder releases a name (a repeated release, or one after another took it, changes nothing).
        if (state.organizationId !== command.data.organizationId) return [];
        return [{ type: 'HostnameReleased', data: { ...command.data, releasedAt: now } }];
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'HostnameClaimed':
        return { organizationId: event.data.organizationId };
      case 'HostnameReleased':
        return state.organizationId === event.data.organizationId ? { organizationId: null } : state;
      default:
        return state;
    }
  },
};

import { type Command, type Decider, type DomainEvent, IllegalState, assertNever } from '@app/kernel/domain';

/**
 * One stream per organization hostname (a subdomain: lowercase letters, digits and dashes), so that two
 * organizations can never both take one name: the claim is an append with an expected revision, where a check of
 * the read model could let two simultaneous claims through. An organization releases its name when it changes
 * or removes it.
 */
export const hostnameStream = (hostname: string) => `hostname-${hostname}`;

/**
 * `lapsedHolder`: the organization holding the name, which the claimant found no longer has it (its own stream says
 * another hostname, or none): its hold is taken over once it is older than {@link HOSTNAME_HOLD_GRACE_MS}.
 */
export type ClaimHostname = Command<
  'ClaimHostname',
  { hostname: string; organizationId: string; lapsedHolder?: string }
>;
export type ReleaseHostname = Command<'ReleaseHostname', { hostname: string; organizationId: string }>;
export type HostnameCommand = ClaimHostname | ReleaseHostname;

export type HostnameClaimed = DomainEvent<
  'HostnameClaimed',
  { hostname: string; organizationId: string; claimedAt: string }
>;
/** `lapsed`: released because its holder no longer had it, when another organization claimed it. */
export type HostnameReleased = DomainEvent<
  'HostnameReleased',
  { hostname: string; organizationId: string; releasedAt: string; lapsed?: true }
>;
export type HostnameEvent = HostnameClaimed | HostnameReleased;

/**
 * How long a hold stands even when its holder does not have the name: a claim is appended just before the
 * organization's update that takes the name, which may still be on its way. A hold older than this, whose holder
 * does not have the name (the update failed, or the release of a name it left did, and nothing made amends), no
 * longer keeps the name from others.
 */
export const HOSTNAME_HOLD_GRACE_MS = 10 * 60 * 1000;

/** Which organization holds the name, if any, and since when. */
export interface HostnameState {
  organizationId: string | null;
  claimedAt: string | null;
}

export const hostnameDecider: Decider<HostnameState, HostnameCommand, HostnameEvent> = {
  initialState: () => ({ organizationId: null, claimedAt: null }),

  decide(command, state) {
    const now = command.metadata.now;
    switch (command.type) {
      case 'ClaimHostname': {
        const { hostname, organizationId, lapsedHolder } = command.data;
        const holder = state.organizationId;
        if (holder === organizationId) return [];
        const claimed: HostnameClaimed = {
          type: 'HostnameClaimed',
          data: { hostname, organizationId, claimedAt: now },
        };
        if (holder === null) return [claimed];
        const lapsed =
          lapsedHolder === holder &&
          state.claimedAt !== null &&
          Date.parse(now) - Date.parse(state.claimedAt) >= HOSTNAME_HOLD_GRACE_MS;
        if (!lapsed) throw new IllegalState(`hostname ${hostname} is taken`);
        return [
          { type: 'HostnameReleased', data: { hostname, organizationId: holder, releasedAt: now, lapsed: true } },
          claimed,
        ];
      }
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
        return { organizationId: event.data.organizationId, claimedAt: event.data.claimedAt };
      case 'HostnameReleased':
        return state.organizationId === event.data.organizationId ? { organizationId: null, claimedAt: null } : state;
      default:
        return state;
    }
  },
};

import { type Command, type Decider, type DomainEvent } from '@app/kernel/domain';
import { emailKey } from '../tokens';

/**
 * Brings an identity event recorded in an older shape to the current one, as it is read: deciders fold and
 * projections apply only current shapes. Events are never rewritten, so an event recorded before personal data was
 * sealed keeps its clear text in the store; this only adds what newer code expects and drops what it no longer
 * copies.
 *
 * - `UserCreated` without `emailKey` gets the key of its address (a digest of the clear address it carries).
 * - `MemberJoined` with `email`/`displayName` loses them (members are shown from the user's own record) and gets
 *   `invite`, the key of that address, since any join used to close the address's pending invite.
 * - `MemberInvited` without `invite` gets the key of its address.
 *
 * Clear `email`, `displayName` and `label` values are left as they are: readers accept clear text (see
 * `PersonalData.reveal`).
 */
export function upcast<E extends { type: string; data: unknown }>(event: E): E {
  const data = event.data as Record<string, unknown>;
  switch (event.type) {
    case 'UserCreated':
      if (typeof data.emailKey === 'string' || typeof data.email !== 'string') return event;
      return { ...event, data: { ...data, emailKey: emailKey(data.email) } };
    case 'MemberJoined': {
      if (!('email' in data) && !('displayName' in data)) return event;
      const { email, displayName: _displayName, ...rest } = data;
      const invite = rest.invite === undefined && typeof email === 'string' ? { invite: emailKey(email) } : {};
      return { ...event, data: { ...rest, ...invite } };
    }
    case 'MemberInvited':
      if (typeof data.invite === 'string' || typeof data.email !== 'string') return event;
      return { ...event, data: { ...data, invite: emailKey(data.email) } };
    default:
      return event;
  }
}

/** The decider, folding events through the upcaster first. */
export function upcasting<State, Cmd extends Command, Evt extends DomainEvent>(
  decider: Decider<State, Cmd, Evt>,
): Decider<State, Cmd, Evt> {
  return {
    initialState: () => decider.initialState(),
    decide: (command, state) => decider.decide(command, state),
    evolve: (state, event) => decider.evolve(state, upcast(event)),
  };
}

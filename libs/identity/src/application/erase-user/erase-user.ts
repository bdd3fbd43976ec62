import {
  type Clock,
  type EventStore,
  type FindCursor,
  type GlobalPosition,
  IllegalState,
  type KeyStore,
  NotFound,
  type ReadStore,
  START,
  handleCommand,
  loadState,
  metadataFor,
} from '@app/kernel';
import { emailStream, organizationStream, userStream } from '../../domain';
import { emailAddresses, organizations, users } from '../deciders';
import { addressSubject, userSubject } from '../personal-data/sealing';
import { MEMBERS, type MemberDoc, ORGANIZATIONS, type OrganizationDoc } from '../read-models';

export interface ErasureStores {
  events: EventStore;
  reads: ReadStore;
  keys: KeyStore;
}

export interface ErasureResult {
  userId: string;
  /** The organizations the person left. */
  organizations: string[];
  /** False when the person had already been erased (the keys were destroyed again, nothing else changed). */
  erased: boolean;
  /** Position of the last append (null when nothing was appended). */
  position: GlobalPosition | null;
}

/** Projections that show people, their tokens or their memberships: an erasure's answer waits for them. */
export const ERASURE_READ_MODELS = [
  'users',
  'token-hashes',
  'api-tokens',
  'members',
  'teams',
  'team_members',
  'invites',
];

const MEMBERS_CHECKPOINT = 'projection:members';
const BATCH = 1000;

/**
 * Erases a person, for `DELETE /v1/user` and the CLI's `users erase` alike. Refused (409) while they are the last
 * admin of an organization, before anything changes. Then, each step repeatable, so that running it again
 * finishes an erasure that was interrupted:
 *
 * 1. they leave every organization (and so its teams): `MemberRemoved`;
 * 2. their address is released (`EmailReleased`), so that it can sign up again, as a new person;
 * 3. their key and their address's key are destroyed: every name, address and token label sealed with them, in
 *    events and read models alike, reads as erased from now on, in every process;
 * 4. `UserErased` is appended, with a revocation of each live token before it: their tokens stop working.
 *
 * Their id stays in history (authorship of comments, change requests, grants, events' metadata) and shows as
 * "Erased user". Events recorded before personal data was sealed keep their clear text in the event store (see
 * docs/architecture.md, Personal data).
 */
export async function eraseUser(
  stores: ErasureStores,
  clock: Clock,
  userId: string,
  context: { actor?: string; correlationId?: string } = {},
): Promise<ErasureResult> {
  const { events, reads, keys } = stores;
  const { state: user } = await loadState(events, users, userStream(userId));
  if (user.status === 'absent') throw new NotFound(`User ${userId} not found`);
  const metadata = () => metadataFor(clock, context.actor, { correlationId: context.correlationId });
  let position: GlobalPosition | null = null;
  const note = (at: GlobalPosition | null) => {
    if (at !== null && (position === null || at > position)) position = at;
  };

  const memberOf = await organizationsOf(reads, events, userId);
  const lastAdminOf: string[] = [];
  for (const organizationId of memberOf) {
    const { state } = await loadState(events, organizations, organizationStream(organizationId));
    if (state.status !== 'active' || state.members[userId] !== 'admin') continue;
    if (Object.values(state.members).filter((role) => role === 'admin').length === 1) lastAdminOf.push(organizationId);
  }
  if (lastAdminOf.length > 0) {
    const named = await reads.getMany<OrganizationDoc>(ORGANIZATIONS, lastAdminOf);
    const titles = lastAdminOf.map((id) => {
      const title = named.find((organization) => organization.id === id)?.title;
      return title ? `${id} (${title})` : id;
    });
    throw new IllegalState(
      `the user is the last admin of ${titles.length === 1 ? 'organization' : 'organizations'} ${titles.join(', ')}: ` +
        'make another member an admin there first',
    );
  }

  for (const organizationId of memberOf) {
    const left = await handleCommand(events, organizations, organizationStream(organizationId), {
      type: 'RemoveMember',
      data: { organizationId, userId },
      metadata: metadata(),
    });
    note(left.position);
  }
  if (user.emailKey) {
    const released = await handleCommand(events, emailAddresses, emailStream(user.emailKey), {
      type: 'ReleaseEmail',
      data: { userId },
      metadata: metadata(),
    });
    note(released.position);
    await keys.destroy(addressSubject(user.emailKey));
  }
  await keys.destroy(userSubject(userId));
  const erased = await handleCommand(events, users, userStream(userId), {
    type: 'EraseUser',
    data: { userId },
    metadata: metadata(),
  });
  note(erased.position);
  return { userId, organizations: memberOf, erased: erased.events.length > 0, position };
}

/**
 * The organizations a user belongs to: the `members` read model up to its checkpoint, plus the membership events
 * stored after it (the CLI may run while the service lags behind, or is stopped).
 */
async function organizationsOf(reads: ReadStore, events: EventStore, userId: string): Promise<string[]> {
  const checkpoint = await reads.getCheckpoint(MEMBERS_CHECKPOINT);
  const found = new Set<string>();
  let after: FindCursor | undefined;
  do {
    const page = await reads.find<MemberDoc>(MEMBERS, { filter: { userId }, limit: BATCH, after });
    for (const member of page.items) found.add(member.organizationId);
    after = page.next;
  } while (after);
  let position = checkpoint?.position ?? START;
  for (;;) {
    const tail = await events.readAll({ after: position, maxCount: BATCH });
    if (tail.length === 0) break;
    for (const event of tail) {
      if (event.data.userId !== userId) continue;
      if (event.type === 'MemberJoined') found.add(String(event.data.organizationId));
      else if (event.type === 'MemberRemoved') found.delete(String(event.data.organizationId));
    }
    position = tail[tail.length - 1].position;
  }
  return [...found];
}

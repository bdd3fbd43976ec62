import { type Clock, type EventStore, type KeyStore, handleCommand, loadState, metadataFor, newId } from '@app/kernel';
import { emailStream, userStream } from '../../domain';
import { createOrganization } from '../create-organization/create-organization.command';
import { emailAddresses, users } from '../deciders';
import { PersonalData, userSubject } from '../personal-data/sealing';
import { emailKey, generateToken, hashToken, normaliseEmail } from '../tokens';

export interface BootstrapRequest {
  email: string;
  name?: string;
  organizationTitle?: string;
  tokenLabel?: string;
}

export interface BootstrapResult {
  userId: string;
  token: string;
  organizationId: string | null;
  createdUser: boolean;
}

/**
 * What the operator CLI's `bootstrap` does, against the event store and the key store only (it works while the
 * server runs: the server's projections pick the new events up). Creates the user unless the email is known,
 * optionally an organization with the user as admin, and always a new API token.
 */
export async function bootstrap(
  store: EventStore,
  keys: KeyStore,
  clock: Clock,
  request: BootstrapRequest,
): Promise<BootstrapResult> {
  const personal = new PersonalData(keys);
  const email = normaliseEmail(request.email);
  const { userId, createdUser } = await ensureUser(
    store,
    personal,
    clock,
    email,
    request.name?.trim() || email.split('@')[0],
  );
  let organizationId: string | null = null;
  if (request.organizationTitle) {
    organizationId = (await createOrganization(store, clock, userId, { title: request.organizationTitle }))
      .organizationId;
  }
  const token = generateToken();
  const { label } = await personal.seal(userSubject(userId), { label: request.tokenLabel ?? 'bootstrap' });
  await handleCommand(store, users, userStream(userId), {
    type: 'CreateApiToken',
    data: { userId, tokenId: newId(), label, tokenHash: hashToken(token) },
    metadata: metadataFor(clock, userId),
  });
  return { userId, token, organizationId, createdUser };
}

/**
 * The user who owns an email address, created (address claimed, then user) when there is none yet. Also used by
 * the SAML sign-in, for the asserted address. The address and the name are sealed with the new user's key, made
 * before anything is appended.
 */
export async function ensureUser(
  store: EventStore,
  personal: PersonalData,
  clock: Clock,
  address: string,
  displayName: string,
): Promise<{ userId: string; createdUser: boolean }> {
  const email = normaliseEmail(address);
  const key = emailKey(email);
  let { state } = await loadState(store, emailAddresses, emailStream(key));
  let createdUser = false;
  if (state.status !== 'claimed') {
    const userId = newId();
    const sealed = await personal.seal(userSubject(userId), { email });
    await handleCommand(store, emailAddresses, emailStream(key), {
      type: 'ClaimEmail',
      data: { email: sealed.email, userId },
      metadata: metadataFor(clock, userId),
    });
    ({ state } = await loadState(store, emailAddresses, emailStream(key)));
    if (state.status !== 'claimed') throw new Error('the email address could not be claimed');
  }
  const userId = state.userId;
  // The claim and the user are two streams: finish a creation an earlier run could not complete.
  const { state: user } = await loadState(store, users, userStream(userId));
  if (user.status === 'absent') {
    const sealed = await personal.seal(userSubject(userId), { email, displayName });
    await handleCommand(store, users, userStream(userId), {
      type: 'CreateUser',
      data: { userId, emailKey: key, email: sealed.email, displayName: sealed.displayName },
      metadata: metadataFor(clock, userId),
    });
    createdUser = true;
  }
  return { userId, createdUser };
}

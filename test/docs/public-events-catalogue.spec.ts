import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { contentPublicEvents } from '@app/content';
import { extensibilityPublicEvents } from '@app/extensibility';
import { identityPublicEvents } from '@app/identity';
import { type PublicEventMapper } from '@app/kernel';
import { PublicEventValidator } from '@app/kernel/testing';
import { publishingPublicEvents } from '@app/publishing';
import { reviewPublicEvents } from '@app/review';

/**
 * The public half of docs/events.md: every kind the mappers publish has a row `| type | version | subject | … |`
 * under "## Public events", and every row names a kind that exists; and every domain event type the code declares
 * is either mapped (or read for owners) by a context, or listed here as internal, so a new domain event cannot be
 * forgotten by the public contract.
 */
const ROOT = join(__dirname, '..', '..');
const MAPPERS: PublicEventMapper[] = [
  identityPublicEvents,
  contentPublicEvents,
  reviewPublicEvents,
  publishingPublicEvents,
  extensibilityPublicEvents,
];

/** Domain events that change nothing a subscriber sees, or that only carry personal data. */
const INTERNAL = [
  // a user's own stream and email claims: personal, not about an organization
  'UserCreated',
  'ApiTokenCreated',
  'ApiTokenRevoked',
  'EmailClaimed',
  'InvitationRecorded',
  'MemberInvited', // its only content is an email address
  // erasure: the organizations see it as member.removed (an erasure takes the person out of each of them)
  'UserErased',
  'EmailReleased',
  'InvitesReset',
  // a hostname's own stream: the organization's change shows as organization.updated
  'HostnameClaimed',
  'HostnameReleased',
  // SAML sign-in steps
  'SamlRequestIssued',
  'SamlRequestAnswered',
  'SamlAssertionConsumed',
  // content snapshots (a space's content changes publicly with space.content_updated)
  'RevisionCreated',
  // the steps of a merge: only the merge is public
  'ChangeRequestMergeStarted',
  'ChangeRequestMergeAbandoned',
  // processes and operations
  'MergeCompletionDue',
  'DeadlineScheduled',
  'DeadlineCancelled',
  'DeadlineReached',
  'PurgeDue',
  'InviteNoted',
  'InvitesHonoured',
  'OpenAPISpecProcessingDue',
  'SpaceUsedBySite',
  'SpaceLeftSites',
  'SpaceAvailableAgain',
  'TeamGrantNoted',
  'TeamGrantDropped',
  'TeamGrantsWithdrawn',
  'ProjectionRebuildRequested',
  // webhooks are the subscribers' own machinery; a delivery attempt made public would be delivered in turn,
  // one more attempt per delivery, without end
  'WebhookCreated',
  'WebhookUpdated',
  'WebhookDeleted',
  'WebhookRedeliveryRequested',
  'WebhookDeliveryAttempted',
  'WebhookFailing',
  'WebhookRecovered',
  'WebhookRedeliveryStarted',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

function declaredDomainEvents(): Set<string> {
  const declared = new Set<string>(['ProjectionRebuildRequested']);
  for (const file of sourceFiles(join(ROOT, 'libs'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/DomainEvent<\s*(['"])([A-Za-z][A-Za-z0-9]*)\1/g)) {
      declared.add(match[2]);
    }
  }
  return declared;
}

function documentedKinds(): { type: string; version: number; subject: string }[] {
  const text = readFileSync(join(ROOT, 'docs', 'events.md'), 'utf8');
  const start = text.indexOf('\n## Public events');
  const end = text.indexOf('\n## ', start + 1);
  expect(start).toBeGreaterThan(0);
  return [...text.slice(start, end).matchAll(/^\| `([a-z_.]+)` \| (\d+) \| ([^|]+?) \|/gm)].map((match) => ({
    type: match[1],
    version: Number(match[2]),
    subject: match[3].trim(),
  }));
}

describe('public events catalogue', () => {
  const kinds = MAPPERS.flatMap((mapper) => mapper.kinds);

  it('names each kind once, with a schema ajv accepts in strict mode', () => {
    const types = kinds.map((kind) => kind.type);
    expect(types.filter((type, i) => types.indexOf(type) !== i)).toEqual([]);
    expect(kinds.length).toBeGreaterThan(80);
    expect(() => new PublicEventValidator(MAPPERS)).not.toThrow();
  });

  it('documents every kind in docs/events.md with its version and subject, and nothing else', () => {
    const documented = documentedKinds();
    expect(documented.length).toBeGreaterThan(0);
    const asDocumented = (list: { type: string; version: number; subject: string }[]) =>
      list.map(({ type, version, subject }) => `${type} v${version} (${subject})`).sort();
    expect(asDocumented(documented)).toEqual(asDocumented(kinds));
  });

  it('maps every domain event type the code declares, or lists it as internal', () => {
    const declared = declaredDomainEvents();
    expect(declared.size).toBeGreaterThanOrEqual(100);
    const handled = new Set(MAPPERS.flatMap((mapper) => mapper.handles));
    const forgotten = [...declared].filter((type) => !handled.has(type) && !INTERNAL.includes(type));
    expect(forgotten).toEqual([]);
    // nothing listed as internal is mapped after all, and every name here still exists
    expect(INTERNAL.filter((type) => handled.has(type) || !declared.has(type))).toEqual([]);
    expect([...handled].filter((type) => !declared.has(type))).toEqual([]);
  });
});

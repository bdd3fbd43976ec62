import { at, given } from '@app/kernel/testing';
import { type OrganizationCommand, type OrganizationEvent, organizationDecider } from './organization.decider';
import { samlAssertionDecider, samlRequestDecider } from './saml-login.decider';

const now = '2026-01-02T03:04:05.000Z';
const ada = { userId: 'u1' };
const eve = { userId: 'u3' };
const created: OrganizationEvent[] = [
  {
    type: 'OrganizationCreated',
    data: { organizationId: 'o1', title: 'Acme', type: 'business', emailDomains: [], createdBy: 'u1', createdAt: now },
  },
  { type: 'MemberJoined', data: { organizationId: 'o1', ...ada, role: 'admin', joinedAt: now } },
  { type: 'TeamCreated', data: { organizationId: 'o1', teamId: 't1', title: 'Writers', createdAt: now } },
];
const command = <C extends OrganizationCommand>(type: C['type'], data: C['data']) =>
  ({ type, data, metadata: at(now) }) as C;
const full = { entityID: 'https://idp.test', certificate: 'PEM', ssoURL: 'https://idp.test/sso' };
const providerCreated = (settings: Record<string, unknown>): OrganizationEvent => ({
  type: 'SamlProviderCreated',
  data: { organizationId: 'o1', providerId: 'p1', settings: { label: 'Okta', ...settings }, createdAt: now },
});

describe('organization decider: SAML providers', () => {
  it('creates a provider with the settings given, a default team of the organization included', () => {
    given(organizationDecider, created)
      .when(
        command('CreateSamlProvider', {
          organizationId: 'o1',
          providerId: 'p1',
          settings: { label: 'Okta', defaultTeam: 't1', defaultRole: 'edit', entityID: undefined },
        }),
      )
      .then([providerCreated({ defaultTeam: 't1', defaultRole: 'edit' })]);
  });

  it('refuses a label out of 1..30 code points, over-long fields, and a team of elsewhere', () => {
    const create = (settings: Record<string, unknown>) =>
      given(organizationDecider, created).when(
        command('CreateSamlProvider', {
          organizationId: 'o1',
          providerId: 'p1',
          settings: { label: 'Okta', ...settings },
        }),
      );
    create({ label: ' ' }).thenThrows('validation', /label/);
    create({ label: '😀'.repeat(31) }).thenThrows('validation', /label/);
    create({ label: '😀'.repeat(30) }).then([providerCreated({ label: '😀'.repeat(30) })]);
    create({ entityID: 'e'.repeat(1025) }).thenThrows('validation', /entityID/);
    create({ certificate: 'c'.repeat(10001) }).thenThrows('validation', /certificate/);
    create({ ssoURL: `https://x.test/${'a'.repeat(2040)}` }).thenThrows('validation', /ssoURL/);
    create({ defaultTeam: 'elsewhere' }).thenThrows('validation', /defaultTeam/);
    given(organizationDecider, [...created, providerCreated({})])
      .when(command('CreateSamlProvider', { organizationId: 'o1', providerId: 'p1', settings: { label: 'Again' } }))
      .thenThrows('illegal-state');
  });

  it('records the changes given, nothing for none, and 404 for an unknown provider', () => {
    given(organizationDecider, [...created, providerCreated({})])
      .when(command('ChangeSamlProvider', { organizationId: 'o1', providerId: 'p1', changes: { label: 'Entra' } }))
      .then([
        {
          type: 'SamlProviderChanged',
          data: { organizationId: 'o1', providerId: 'p1', changes: { label: 'Entra' }, changedAt: now },
        },
      ]);
    given(organizationDecider, [...created, providerCreated({})])
      .when(command('ChangeSamlProvider', { organizationId: 'o1', providerId: 'p1', changes: {} }))
      .thenNothing();
    given(organizationDecider, created)
      .when(command('ChangeSamlProvider', { organizationId: 'o1', providerId: 'p9', changes: { label: 'X' } }))
      .thenThrows('not-found');
  });

  it('deletes a provider once; deleting it again records nothing', () => {
    const deleted: OrganizationEvent = {
      type: 'SamlProviderDeleted',
      data: { organizationId: 'o1', providerId: 'p1', deletedAt: now },
    };
    given(organizationDecider, [...created, providerCreated({})])
      .when(command('DeleteSamlProvider', { organizationId: 'o1', providerId: 'p1' }))
      .then([deleted]);
    given(organizationDecider, [...created, providerCreated({}), deleted])
      .when(command('DeleteSamlProvider', { organizationId: 'o1', providerId: 'p1' }))
      .thenNothing();
  });

  it('signs a newcomer in with the default role and team; an existing member keeps what they have', () => {
    given(organizationDecider, [...created, providerCreated({ ...full, defaultRole: 'comment', defaultTeam: 't1' })])
      .when(command('SignInWithSaml', { organizationId: 'o1', providerId: 'p1', member: eve }))
      .then([
        {
          type: 'MemberJoined',
          data: { organizationId: 'o1', ...eve, role: 'comment', joinedAt: now, samlProviderId: 'p1' },
        },
        {
          type: 'TeamMemberAdded',
          data: { organizationId: 'o1', teamId: 't1', userId: 'u3', role: 'member', addedAt: now },
        },
      ]);
    given(organizationDecider, [...created, providerCreated({ ...full, defaultRole: 'comment' })])
      .when(command('SignInWithSaml', { organizationId: 'o1', providerId: 'p1', member: ada }))
      .thenNothing();
  });

  it('skips a default team deleted since, and joins as a guest without a default role', () => {
    given(organizationDecider, [
      ...created,
      providerCreated({ ...full, defaultTeam: 't1' }),
      { type: 'TeamDeleted', data: { organizationId: 'o1', teamId: 't1', deletedAt: now } },
    ])
      .when(command('SignInWithSaml', { organizationId: 'o1', providerId: 'p1', member: eve }))
      .then([
        {
          type: 'MemberJoined',
          data: { organizationId: 'o1', ...eve, role: null, joinedAt: now, samlProviderId: 'p1' },
        },
      ]);
  });

  it('refuses a sign-in through a pending provider (a setting cleared) or an unknown one', () => {
    given(organizationDecider, [
      ...created,
      providerCreated(full),
      {
        type: 'SamlProviderChanged',
        data: { organizationId: 'o1', providerId: 'p1', changes: { certificate: '' }, changedAt: now },
      },
    ])
      .when(command('SignInWithSaml', { organizationId: 'o1', providerId: 'p1', member: eve }))
      .thenThrows('illegal-state', /not fully configured/);
    given(organizationDecider, created)
      .when(command('SignInWithSaml', { organizationId: 'o1', providerId: 'p1', member: eve }))
      .thenThrows('not-found');
  });
});

describe('SAML request decider', () => {
  const issued = {
    type: 'SamlRequestIssued' as const,
    data: {
      requestId: 'r1',
      organizationId: 'o1',
      providerId: 'p1',
      issuedAt: now,
      expiresAt: '2026-01-02T03:14:05.000Z',
    },
  };
  const answer = (providerId = 'p1', when = now) => ({
    type: 'AnswerSamlRequest' as const,
    data: { requestId: 'r1', providerId, assertionId: 'a1' },
    metadata: at(when),
  });

  it('issues a request once', () => {
    const issue = {
      type: 'IssueSamlRequest' as const,
      data: { requestId: 'r1', organizationId: 'o1', providerId: 'p1', expiresAt: issued.data.expiresAt },
      metadata: at(now),
    };
    given(samlRequestDecider).when(issue).then([issued]);
    given(samlRequestDecider, [issued]).when(issue).thenThrows('illegal-state');
  });

  it('accepts one answer before the expiry, for the provider it was issued for', () => {
    given(samlRequestDecider, [issued])
      .when(answer())
      .then([
        {
          type: 'SamlRequestAnswered',
          data: { requestId: 'r1', providerId: 'p1', assertionId: 'a1', answeredAt: now },
        },
      ]);
    given(samlRequestDecider, [issued])
      .when(answer('p2'))
      .thenThrows('forbidden', /InResponseTo/);
    given(samlRequestDecider)
      .when(answer())
      .thenThrows('forbidden', /InResponseTo/);
    given(samlRequestDecider, [issued])
      .when(answer('p1', issued.data.expiresAt))
      .thenThrows('forbidden', /expired/);
    given(samlRequestDecider, [
      issued,
      { type: 'SamlRequestAnswered', data: { requestId: 'r1', providerId: 'p1', assertionId: 'a1', answeredAt: now } },
    ])
      .when(answer())
      .thenThrows('illegal-state', /already/);
  });
});

describe('SAML assertion decider', () => {
  const consume = {
    type: 'ConsumeSamlAssertion' as const,
    data: { assertionKey: 'k1', providerId: 'p1', assertionId: 'a1', requestId: 'r1' },
    metadata: at(now),
  };
  it('accepts an assertion once and refuses it again (replay)', () => {
    const consumed = { type: 'SamlAssertionConsumed' as const, data: { ...consume.data, consumedAt: now } };
    given(samlAssertionDecider).when(consume).then([consumed]);
    given(samlAssertionDecider, [consumed])
      .when(consume)
      .thenThrows('illegal-state', /replay/);
  });
});

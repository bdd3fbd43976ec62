import { type Command, type Decider, type DomainEvent, Forbidden, IllegalState, assertNever } from '@app/kernel/domain';

/**
 * Each AuthnRequest this service sends has its own stream: the IdP's answer must name a request that was issued
 * for the same provider, not expired and not answered yet. The stream is the durable memory of `InResponseTo`.
 */
export const samlRequestStream = (requestId: string) => `samlrequest-${requestId}`;

/**
 * One stream per asserted assertion (keyed by a digest of the provider and the assertion's `ID`), so that an
 * assertion is accepted once, whatever request it claims to answer.
 */
export const samlAssertionStream = (assertionKey: string) => `samlassertion-${assertionKey}`;

export type IssueSamlRequest = Command<
  'IssueSamlRequest',
  { requestId: string; organizationId: string; providerId: string; expiresAt: string }
>;
export type AnswerSamlRequest = Command<
  'AnswerSamlRequest',
  { requestId: string; providerId: string; assertionId: string }
>;
export type SamlRequestCommand = IssueSamlRequest | AnswerSamlRequest;

export type SamlRequestIssued = DomainEvent<
  'SamlRequestIssued',
  { requestId: string; organizationId: string; providerId: string; issuedAt: string; expiresAt: string }
>;
export type SamlRequestAnswered = DomainEvent<
  'SamlRequestAnswered',
  { requestId: string; providerId: string; assertionId: string; answeredAt: string }
>;
export type SamlRequestEvent = SamlRequestIssued | SamlRequestAnswered;

export type SamlRequestState =
  | { status: 'absent' }
  | { status: 'issued'; providerId: string; expiresAt: string }
  | { status: 'answered'; providerId: string };

export const samlRequestDecider: Decider<SamlRequestState, SamlRequestCommand, SamlRequestEvent> = {
  initialState: () => ({ status: 'absent' }),

  decide(command, state) {
    const now = command.metadata.now;
    switch (command.type) {
      case 'IssueSamlRequest':
        if (state.status !== 'absent') throw new IllegalState(`SAML request ${command.data.requestId} exists`);
        return [{ type: 'SamlRequestIssued', data: { ...command.data, issuedAt: now } }];
      case 'AnswerSamlRequest':
        if (state.status === 'absent' || state.providerId !== command.data.providerId)
          throw new Forbidden('The SAML response answers no sign-in this service started (InResponseTo)');
        if (state.status === 'answered') throw new IllegalState('This sign-in was already completed');
        if (Date.parse(now) >= Date.parse(state.expiresAt))
          throw new Forbidden('This sign-in has expired: start again');
        return [{ type: 'SamlRequestAnswered', data: { ...command.data, answeredAt: now } }];
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'SamlRequestIssued':
        return { status: 'issued', providerId: event.data.providerId, expiresAt: event.data.expiresAt };
      case 'SamlRequestAnswered':
        return { status: 'answered', providerId: event.data.providerId };
      default:
        return state;
    }
  },
};

export type ConsumeSamlAssertion = Command<
  'ConsumeSamlAssertion',
  { assertionKey: string; providerId: string; assertionId: string; requestId: string }
>;
export type SamlAssertionConsumed = DomainEvent<
  'SamlAssertionConsumed',
  { assertionKey: string; providerId: string; assertionId: string; requestId: string; consumedAt: string }
>;
export type SamlAssertionState = { status: 'unused' } | { status: 'consumed' };

export const samlAssertionDecider: Decider<SamlAssertionState, ConsumeSamlAssertion, SamlAssertionConsumed> = {
  initialState: () => ({ status: 'unused' }),

  decide(command, state) {
    switch (command.type) {
      case 'ConsumeSamlAssertion':
        if (state.status === 'consumed') throw new IllegalState('This SAML assertion was already used (replay)');
        return [{ type: 'SamlAssertionConsumed', data: { ...command.data, consumedAt: command.metadata.now } }];
      default:
        return assertNever(command.type);
    }
  },

  evolve: (_state, event) => (event.type === 'SamlAssertionConsumed' ? { status: 'consumed' } : _state),
};

import {
  type Command,
  type Decider,
  type DomainEvent,
  IllegalState,
  NotFound,
  ValidationFailed,
  assertNever,
} from '@app/kernel/domain';

/** One stream per webhook: its settings and the redeliveries asked of it. Deliveries have their own stream. */
export const webhookStream = (webhookId: string) => `webhook-${webhookId}`;

export const WEBHOOK_LIMITS = { url: 2048, types: 100, type: 100 };

/** A public event type as the catalogue writes them: dotted lower-case words (`space.created`). */
const TYPE_PATTERN = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

type Ids = { webhookId: string; organizationId: string };
type Cmd<Type extends string, Data> = Command<Type, Ids & Data>;

/** `sealedSecret` is the signing secret as the secret box sealed it: the decider never sees it in clear. */
export type CreateWebhook = Cmd<
  'CreateWebhook',
  { url: string; types: string[]; active: boolean; sealedSecret: string }
>;
export type UpdateWebhook = Cmd<'UpdateWebhook', { url?: string; types?: string[]; active?: boolean }>;
export type DeleteWebhook = Cmd<'DeleteWebhook', object>;
/** Send again every event after `after` (a global position, as a decimal string). */
export type RequestWebhookRedelivery = Cmd<'RequestWebhookRedelivery', { after: string }>;

export type WebhookCommand = CreateWebhook | UpdateWebhook | DeleteWebhook | RequestWebhookRedelivery;

export type WebhookCreated = DomainEvent<
  'WebhookCreated',
  Ids & { url: string; types: string[]; active: boolean; sealedSecret: string; createdAt: string }
>;
/** Only the fields that changed are present. */
export type WebhookUpdated = DomainEvent<
  'WebhookUpdated',
  Ids & { url?: string; types?: string[]; active?: boolean; updatedAt: string }
>;
export type WebhookDeleted = DomainEvent<'WebhookDeleted', Ids & { deletedAt: string }>;
export type WebhookRedeliveryRequested = DomainEvent<
  'WebhookRedeliveryRequested',
  Ids & { after: string; requestedAt: string }
>;

export type WebhookEvent = WebhookCreated | WebhookUpdated | WebhookDeleted | WebhookRedeliveryRequested;

export const WEBHOOK_EVENTS = [
  'WebhookCreated',
  'WebhookUpdated',
  'WebhookDeleted',
  'WebhookRedeliveryRequested',
] as const;

export type WebhookState =
  | { status: 'absent' }
  | { status: 'active'; organizationId: string; url: string; types: string[]; active: boolean }
  | { status: 'deleted'; organizationId: string };

/** The address deliveries go to: http(s), no credentials, at most 2048 characters. */
export function checkWebhookUrl(url: string): URL {
  if (url.length > WEBHOOK_LIMITS.url) throw new ValidationFailed(`url: at most ${WEBHOOK_LIMITS.url} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ValidationFailed('url: not a valid address');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new ValidationFailed('url: must be an https address');
  }
  if (parsed.username || parsed.password) throw new ValidationFailed('url: must not hold a user name or password');
  return parsed;
}

/** Distinct public event types; an empty list means every type. */
export function checkWebhookTypes(types: readonly string[]): void {
  if (types.length > WEBHOOK_LIMITS.types) throw new ValidationFailed(`types: at most ${WEBHOOK_LIMITS.types} types`);
  for (const type of types) {
    if (type.length > WEBHOOK_LIMITS.type || !TYPE_PATTERN.test(type)) {
      throw new ValidationFailed(`types: "${type.slice(0, WEBHOOK_LIMITS.type)}" is not a public event type`);
    }
  }
  const repeated = types.find((type, index) => types.indexOf(type) !== index);
  if (repeated !== undefined) throw new ValidationFailed(`types: "${repeated}" appears more than once`);
}

/** A global position written as a decimal string: `0` or a positive integer without leading zeros. */
export function checkPosition(field: string, value: string): void {
  if (!/^(0|[1-9][0-9]{0,18})$/.test(value)) throw new ValidationFailed(`${field}: must be a position (0 or more)`);
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, index) => value === b[index]);

function decide(command: WebhookCommand, state: WebhookState): WebhookEvent[] {
  const { webhookId, organizationId } = command.data;
  const ids = { webhookId, organizationId };
  const now = command.metadata.now;
  const missing = () => new NotFound(`Webhook ${webhookId} not found`);
  switch (command.type) {
    case 'CreateWebhook': {
      const { url, types, active, sealedSecret } = command.data;
      checkWebhookUrl(url);
      checkWebhookTypes(types);
      if (state.status !== 'absent') throw new IllegalState(`webhook ${webhookId} already exists`);
      return [{ type: 'WebhookCreated', data: { ...ids, url, types, active, sealedSecret, createdAt: now } }];
    }
    case 'UpdateWebhook': {
      if (state.status !== 'active' || state.organizationId !== organizationId) throw missing();
      const { url, types, active } = command.data;
      if (url !== undefined) checkWebhookUrl(url);
      if (types !== undefined) checkWebhookTypes(types);
      const changes = {
        ...(url !== undefined && url !== state.url ? { url } : {}),
        ...(types !== undefined && !sameList(types, state.types) ? { types } : {}),
        ...(active !== undefined && active !== state.active ? { active } : {}),
      };
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'WebhookUpdated', data: { ...ids, ...changes, updatedAt: now } }];
    }
    case 'DeleteWebhook':
      if (state.status === 'absent' || state.organizationId !== organizationId) throw missing();
      if (state.status === 'deleted') return [];
      return [{ type: 'WebhookDeleted', data: { ...ids, deletedAt: now } }];
    case 'RequestWebhookRedelivery':
      if (state.status !== 'active' || state.organizationId !== organizationId) throw missing();
      checkPosition('after', command.data.after);
      return [{ type: 'WebhookRedeliveryRequested', data: { ...ids, after: command.data.after, requestedAt: now } }];
    default:
      return assertNever(command);
  }
}

function evolve(state: WebhookState, event: WebhookEvent): WebhookState {
  switch (event.type) {
    case 'WebhookCreated': {
      const { organizationId, url, types, active } = event.data;
      return { status: 'active', organizationId, url, types, active };
    }
    case 'WebhookUpdated': {
      if (state.status !== 'active') return state;
      const { url, types, active } = event.data;
      return { ...state, url: url ?? state.url, types: types ?? state.types, active: active ?? state.active };
    }
    case 'WebhookDeleted':
      return { status: 'deleted', organizationId: event.data.organizationId };
    case 'WebhookRedeliveryRequested':
      return state;
    default:
      return assertNever(event);
  }
}

export const webhookDecider: Decider<WebhookState, WebhookCommand, WebhookEvent> = {
  initialState: () => ({ status: 'absent' }),
  decide,
  evolve,
};

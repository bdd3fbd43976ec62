import { at, given } from '@app/kernel/testing';
import { type WebhookCreated, type WebhookEvent, webhookDecider } from './webhook.decider';

const ids = { webhookId: 'wh1', organizationId: 'org1' };
const NOW = '2026-03-01T10:00:00.000Z';
const created: WebhookCreated = {
  type: 'WebhookCreated',
  data: {
    ...ids,
    url: 'https://hooks.example.com/in',
    types: ['space.created'],
    active: true,
    sealedSecret: 'v1.sealed',
    createdAt: NOW,
  },
};
const create = (data: Partial<{ url: string; types: string[]; active: boolean }> = {}) => ({
  type: 'CreateWebhook' as const,
  data: {
    ...ids,
    url: 'https://hooks.example.com/in',
    types: ['space.created'],
    active: true,
    sealedSecret: 'v1.sealed',
    ...data,
  },
  metadata: at(NOW),
});
const update = (data: Partial<{ url: string; types: string[]; active: boolean; organizationId: string }>) => ({
  type: 'UpdateWebhook' as const,
  data: { ...ids, ...data },
  metadata: at(NOW),
});

describe('webhook decider', () => {
  it('creates a webhook with its sealed secret', () => {
    given(webhookDecider).when(create()).then([created]);
  });

  it('refuses an address that is not http(s), holds credentials or is too long', () => {
    given(webhookDecider)
      .when(create({ url: 'ftp://example.com/' }))
      .thenThrows('validation', /url: must be an https/);
    given(webhookDecider)
      .when(create({ url: 'not a url' }))
      .thenThrows('validation', /url: not a valid address/);
    given(webhookDecider)
      .when(create({ url: 'https://user:pw@example.com/' }))
      .thenThrows('validation', /user name or password/);
    given(webhookDecider)
      .when(create({ url: `https://example.com/${'a'.repeat(2048)}` }))
      .thenThrows('validation', /at most 2048/);
  });

  it('refuses types that are not dotted public event types, or repeated', () => {
    given(webhookDecider)
      .when(create({ types: ['Space Created'] }))
      .thenThrows('validation', /not a public event type/);
    given(webhookDecider)
      .when(create({ types: ['space'] }))
      .thenThrows('validation', /not a public event type/);
    given(webhookDecider)
      .when(create({ types: ['space.created', 'space.created'] }))
      .thenThrows('validation', /more than once/);
  });

  it('accepts an empty list of types (every type)', () => {
    given(webhookDecider)
      .when(create({ types: [] }))
      .then([{ ...created, data: { ...created.data, types: [] } }]);
  });

  it('records only the fields a change really changes', () => {
    given(webhookDecider, [created])
      .when(update({ url: 'https://hooks.example.com/in', active: false, types: ['space.created'] }))
      .then([{ type: 'WebhookUpdated', data: { ...ids, active: false, updatedAt: NOW } }]);
    given(webhookDecider, [created])
      .when(update({ active: true }))
      .thenNothing();
  });

  it('answers 404 for a webhook of another organization, or deleted', () => {
    given(webhookDecider, [created])
      .when(update({ organizationId: 'org2', active: false }))
      .thenThrows('not-found');
    const deleted: WebhookEvent = { type: 'WebhookDeleted', data: { ...ids, deletedAt: NOW } };
    given(webhookDecider, [created, deleted])
      .when(update({ active: false }))
      .thenThrows('not-found');
  });

  it('deletes once; deleting again changes nothing', () => {
    const remove = { type: 'DeleteWebhook' as const, data: ids, metadata: at(NOW) };
    given(webhookDecider, [created])
      .when(remove)
      .then([{ type: 'WebhookDeleted', data: { ...ids, deletedAt: NOW } }]);
    given(webhookDecider, [created, { type: 'WebhookDeleted', data: { ...ids, deletedAt: NOW } }])
      .when(remove)
      .thenNothing();
  });

  it('records a redelivery request after a valid position', () => {
    const redeliver = (after: string) => ({
      type: 'RequestWebhookRedelivery' as const,
      data: { ...ids, after },
      metadata: at(NOW),
    });
    given(webhookDecider, [created])
      .when(redeliver('42'))
      .then([{ type: 'WebhookRedeliveryRequested', data: { ...ids, after: '42', requestedAt: NOW } }]);
    given(webhookDecider, [created])
      .when(redeliver('-1'))
      .thenThrows('validation', /after: must be a position/);
    given(webhookDecider, [created]).when(redeliver('007')).thenThrows('validation');
    given(webhookDecider).when(redeliver('1')).thenThrows('not-found');
  });
});

import { type RecordedEvent } from '@app/kernel';
import { webhookDeliveriesProjection } from './webhook-deliveries.projection';
import { webhooksProjection } from './webhooks.projection';

const ids = { webhookId: 'wh1', organizationId: 'org1' };
let position = 0n;
const recorded = (streamId: string, revision: number, type: string, data: Record<string, unknown>): RecordedEvent => ({
  id: `e${++position}`,
  streamId,
  type,
  data: { ...ids, ...data },
  metadata: {},
  revision,
  position,
  recordedAt: '2026-03-01T00:00:00.000Z',
});

function fold(events: RecordedEvent[]) {
  let doc = null as ReturnType<typeof webhooksProjection.evolve>;
  for (const event of events) doc = webhooksProjection.evolve(doc, event);
  return doc;
}

describe('webhooks projection', () => {
  const created = recorded('webhook-wh1', 0, 'WebhookCreated', {
    url: 'https://h.example.com/',
    types: [],
    active: true,
    sealedSecret: 'v1.sealed',
    createdAt: '2026-03-01T00:00:00.000Z',
  });

  it('keeps no secret, and the version is the revision of the webhook stream only', () => {
    const doc = fold([
      created,
      recorded('webhook-wh1', 1, 'WebhookUpdated', { active: false, updatedAt: '2026-03-02T00:00:00.000Z' }),
      recorded('webhookdelivery-wh1', 7, 'WebhookFailing', { failingSince: 'a', failingAt: 'b' }),
    ]);
    expect(doc).toEqual({
      id: 'wh1',
      organizationId: 'org1',
      url: 'https://h.example.com/',
      types: [],
      active: false,
      status: 'failing',
      createdAt: '2026-03-01T00:00:00.000Z',
      updatedAt: '2026-03-02T00:00:00.000Z',
      version: 1,
    });
    expect(JSON.stringify(doc)).not.toContain('sealed');
  });

  it('turns the status back to active on recovery, and drops the document on deletion', () => {
    const failing = recorded('webhookdelivery-wh1', 3, 'WebhookFailing', { failingSince: 'a', failingAt: 'b' });
    const recovered = recorded('webhookdelivery-wh1', 4, 'WebhookRecovered', { recoveredAt: 'c' });
    expect(fold([created, failing, recovered])).toMatchObject({ status: 'active', version: 0 });
    expect(fold([created, recorded('webhook-wh1', 1, 'WebhookDeleted', { deletedAt: 'd' })])).toBeNull();
  });
});

describe('webhook deliveries projection', () => {
  it('keeps each attempt, ordered by its revision in the delivery stream', () => {
    const attempt = recorded('webhookdelivery-wh1', 5, 'WebhookDeliveryAttempted', {
      deliveryId: 'd1',
      eventId: 'evt1',
      position: '42',
      attempt: 2,
      attemptedAt: '2026-03-01T00:00:01.000Z',
      statusCode: 500,
      durationMs: 12,
      response: 'oops',
      error: null,
      acknowledged: false,
      nextAttemptAt: '2026-03-01T00:00:03.000Z',
    });
    expect(webhookDeliveriesProjection.idOf(attempt)).toBe('d1');
    expect(webhookDeliveriesProjection.evolve(null, attempt)).toEqual({
      id: 'd1',
      webhookId: 'wh1',
      organizationId: 'org1',
      eventId: 'evt1',
      position: '42',
      attempt: 2,
      attemptedAt: '2026-03-01T00:00:01.000Z',
      statusCode: 500,
      durationMs: 12,
      response: 'oops',
      error: null,
      order: 5,
    });
  });
});

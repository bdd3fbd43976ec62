import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import {
  BLOB_STORE,
  type BlobStore,
  EVENT_STORE,
  type EventStore,
  KEY_STORE,
  type KeyStore,
  Public,
  READ_STORE,
  type ReadStore,
  Runtime,
} from '@app/kernel';

/** Lag above which the service reports itself degraded. */
const LAG_LIMIT = 1000;

@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(KEY_STORE) private readonly keyStore: KeyStore,
    @Inject(BLOB_STORE) private readonly blobStore: BlobStore,
    private readonly runtime: Runtime,
  ) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'Health of the event store, the read store, the key store, the blob store and the projections',
  })
  async health(@Res() reply: FastifyReply): Promise<void> {
    const [eventStore, readStore, keyStore, blobStore] = await Promise.all([
      probe(() => this.events.ping()),
      probe(() => this.readStore.ping()),
      probe(() => this.keyStore.ping()),
      probe(() => this.blobStore.ping()),
    ]);
    let projections: { name: string; lag: number; lagCapped: boolean; parked: number; state: string }[] = [];
    if (eventStore === 'up') {
      try {
        projections = (await this.runtime.projections.status()).map((p) => ({
          name: p.name,
          lag: p.lag,
          lagCapped: p.lagCapped,
          parked: p.parked.length,
          state: p.state,
        }));
      } catch {
        projections = [];
      }
    }
    const maxLag = projections.reduce((max, p) => Math.max(max, p.lag), 0);
    const problems = [
      eventStore !== 'up' && 'the event store is unreachable',
      readStore !== 'up' && 'the read store is unreachable',
      keyStore !== 'up' && 'the key store is unreachable',
      blobStore !== 'up' && 'the blob store cannot be written to',
      maxLag > LAG_LIMIT && `projections lag ${maxLag} events behind`,
    ].filter(Boolean);
    const checks = { eventStore, readStore, keyStore, blobStore, projections: { maxLag, items: projections } };
    if (problems.length === 0) {
      void reply.status(200).send({ status: 'ok', checks });
    } else {
      void reply.status(503).send({ error: { code: 503, message: problems.join('; ') }, status: 'degraded', checks });
    }
  }
}

async function probe(check: () => Promise<void>): Promise<'up' | 'down'> {
  try {
    await check();
    return 'up';
  } catch {
    return 'down';
  }
}

import Fastify, { type FastifyInstance } from 'fastify';
import { KEEPS_ANSWERS, type KeyStore, type ReadStore, keepResponse } from '@app/kernel';
import { type ConnectionGuard } from './connection-guard';
import { installKeptResponses } from './kept-responses.hooks';

/**
 * The hook on a bare Fastify instance, with a read store reduced to its generation: a counter the test moves as a
 * commit would, and counts the looks at.
 */
describe('kept responses (request hook)', () => {
  let app: FastifyInstance;
  let generation: number;
  let looks: number;
  let value: string;
  let routed: number;

  beforeEach(async () => {
    generation = 1;
    looks = 0;
    value = 'first';
    routed = 0;
    app = Fastify();
    const reads = {
      generation: () => {
        looks += 1;
        return generation;
      },
    } as unknown as ReadStore;
    const keys = { version: () => '0:1' } as unknown as KeyStore;
    installKeptResponses(app, reads, keys, { handling: () => undefined } as unknown as ConnectionGuard);
    app.get('/thing', { config: KEEPS_ANSWERS }, async (_request, reply) => {
      routed += 1;
      keepResponse(reply);
      return { value };
    });
    await app.ready();
  });

  afterEach(() => app.close());

  const get = async (authorization = 'Bearer a') => {
    const response = await app.inject({ method: 'GET', url: '/thing', headers: { authorization } });
    expect(response.statusCode).toBe(200);
    return (response.json() as { value: string }).value;
  };

  it('answers a request again from its kept response while the generation holds, and routes it once it moves', async () => {
    expect(await get()).toBe('first');
    value = 'second';
    expect(await get()).toBe('first');
    expect(routed).toBe(1);
    generation = 2;
    expect(await get()).toBe('second');
    expect(routed).toBe(2);
    // another caller has a response of their own
    expect(await get('Bearer b')).toBe('second');
    expect(routed).toBe(3);
  });

  it('looks at the stores once for every request with a kept response read in the same turn', async () => {
    await get();
    looks = 0;
    const answers = await Promise.all(Array.from({ length: 20 }, () => get()));
    expect(answers).toEqual(Array(20).fill('first'));
    expect(routed).toBe(1);
    expect(looks).toBe(1);
  });

  it('looks after the requests were read: a commit made between reading them and answering is seen', async () => {
    await get();
    value = 'second';
    const pending = Promise.all(Array.from({ length: 5 }, () => get()));
    // the requests are read (their hooks ran, nothing answered yet) before the turn's check phase
    await new Promise<void>((resolve) => process.nextTick(resolve));
    generation = 2;
    expect(await pending).toEqual(Array(5).fill('second'));
    expect(await get()).toBe('second');
  });
});

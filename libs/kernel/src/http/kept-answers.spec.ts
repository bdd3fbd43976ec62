import { type ReadStore } from '../ports/read-store.port';
import { KeptAnswers } from './kept-answers';

describe('KeptAnswers', () => {
  const storeAt = (generation: () => number | undefined) => ({ generation }) as unknown as ReadStore;

  it('answers a request again as it was while the store has not changed, and makes it again once it has', async () => {
    let generation = 1;
    let made = 0;
    const answers = new KeptAnswers<string>(storeAt(() => generation));
    const make = (text: string) => async () => `${text}${++made}`;
    expect(await answers.of('a', make('a'))).toBe('a1');
    expect(await answers.of('a', make('a'))).toBe('a1');
    expect(await answers.of('b', make('b'))).toBe('b2'); // another request is another answer
    generation = 2;
    expect(await answers.of('a', make('a'))).toBe('a3');
    expect(await answers.of('a', make('a'))).toBe('a3');
  });

  it('does not take an answer made while the store changed for the newer state', async () => {
    let generation = 1;
    let made = 0;
    const answers = new KeptAnswers<number>(storeAt(() => generation));
    expect(
      await answers.of('a', async () => {
        generation = 2; // a write lands while the answer is being made
        return ++made;
      }),
    ).toBe(1);
    expect(await answers.of('a', async () => ++made)).toBe(2);
  });

  it('keeps nothing when the store has no generation, and nothing that failed', async () => {
    let made = 0;
    const none = new KeptAnswers<number>(storeAt(() => undefined));
    expect(await none.of('a', async () => ++made)).toBe(1);
    expect(await none.of('a', async () => ++made)).toBe(2);
    const answers = new KeptAnswers<number>(storeAt(() => 1));
    await expect(answers.of('a', () => Promise.reject(new Error('not found')))).rejects.toThrow('not found');
    expect(await answers.of('a', async () => ++made)).toBe(3);
  });
});

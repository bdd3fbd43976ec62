import { type ReadStore } from '../ports/read-store.port';

/** How many answers a `KeptAnswers` holds at most. */
const MAX_KEPT_ANSWERS = 256;

/**
 * Whole answers of a query kept by request, for as long as the read store's `generation()` has not moved. Only
 * for a query whose answer is made from the read store's documents, the request (all of it in the key: the
 * caller, the path, the query string) and fixed configuration, nothing else (no clock, no key store), and whose
 * answer nobody changes afterwards (a `JsonText`, a kept body). An adapter without a generation keeps nothing.
 */
export class KeptAnswers<T> {
  private readonly kept = new Map<string, { generation: number; answer: T }>();

  constructor(private readonly store: ReadStore) {}

  async of(key: string, make: () => Promise<T>): Promise<T> {
    // read before making: a write while the answer is made moves it, and the answer is not taken for the newer one
    const generation = this.store.generation();
    if (generation === undefined) return make();
    const kept = this.kept.get(key);
    if (kept !== undefined && kept.generation === generation) return kept.answer;
    const answer = await make();
    if (kept === undefined && this.kept.size >= MAX_KEPT_ANSWERS) {
      this.kept.delete(this.kept.keys().next().value as string);
    }
    this.kept.set(key, { generation, answer });
    return answer;
  }
}

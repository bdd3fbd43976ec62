import {
  KEEPS_ANSWERS,
  KeptResponses,
  READS_KEY_STORE,
  isKeepable,
  keepResponse,
  keptAnswersOf,
} from './kept-responses';

describe('KeptResponses', () => {
  const response = (text: string, headers: Record<string, string> = { etag: '"1"' }) => ({
    headers,
    payload: Buffer.from(text),
  });

  it('finds a response only while the tag it was made at holds, then forgets it', () => {
    const kept = new KeptResponses({ reads: { generation: () => 3 } });
    kept.keep('a', '3', response('{"a":1}'));
    expect(kept.find('a', '3')?.payload.toString()).toBe('{"a":1}');
    expect(kept.find('b', '3')).toBeUndefined();
    expect(kept.find('a', '4')).toBeUndefined();
    // gone for good: the stores do not go back to an older state
    expect(kept.find('a', '3')).toBeUndefined();
    expect(kept.size).toEqual({ entries: 0, bytes: 0 });
  });

  it("tags with the read store's generation, and the key store's version when asked", () => {
    let generation: number | undefined = 3;
    let version: string | undefined = '0:7';
    const kept = new KeptResponses({ reads: { generation: () => generation }, keys: { version: () => version } });
    expect(kept.tag()).toBe('3');
    expect(kept.tag(true)).toBe('3:0:7');
    version = undefined;
    expect(kept.tag()).toBe('3');
    expect(kept.tag(true)).toBeUndefined();
    generation = undefined;
    expect(kept.tag()).toBeUndefined();
    expect(new KeptResponses({ reads: { generation: () => 1 } }).tag(true)).toBeUndefined();
  });

  it('keeps at most so many responses and so many bytes, the oldest going first', () => {
    const kept = new KeptResponses({ reads: { generation: () => 1 } }, { entries: 2, bytes: 10 });
    kept.keep('a', '1', response('1234'));
    kept.keep('b', '1', response('1234'));
    kept.keep('c', '1', response('12'));
    expect(kept.find('a', '1')).toBeUndefined();
    expect(kept.size).toEqual({ entries: 2, bytes: 6 });
    kept.keep('d', '1', response('12345678'));
    expect(kept.find('b', '1')).toBeUndefined();
    expect(kept.find('c', '1')?.payload.length).toBe(2);
    expect(kept.size).toEqual({ entries: 2, bytes: 10 });
    kept.keep('e', '1', response('123'));
    expect(kept.find('c', '1')).toBeUndefined();
    expect(kept.find('d', '1')).toBeUndefined();
    expect(kept.size).toEqual({ entries: 1, bytes: 3 });
    // larger than all the room there is: never kept
    kept.keep('f', '1', response('12345678901'));
    expect(kept.find('f', '1')).toBeUndefined();
    expect(kept.find('e', '1')?.payload.length).toBe(3);
    // keeping a key again replaces it and its bytes
    kept.keep('e', '1', response('1'));
    expect(kept.size).toEqual({ entries: 1, bytes: 1 });
  });

  it('keys requests by a hash of who asks and what, holding neither in clear', () => {
    const key = KeptResponses.keyOf('Bearer quire_secret', '/v1/orgs/o?shareKey=k');
    expect(key).not.toContain('quire_secret');
    expect(key).not.toContain('shareKey');
    expect(KeptResponses.keyOf('Bearer quire_secret', '/v1/orgs/o?shareKey=k')).toBe(key);
    expect(KeptResponses.keyOf('Bearer quire_other', '/v1/orgs/o?shareKey=k')).not.toBe(key);
    expect(KeptResponses.keyOf('Bearer quire_secret', '/v1/orgs/o')).not.toBe(key);
  });

  it('marks a reply as keepable only when its route says so', () => {
    const replyOf = (method: string, config?: object) => ({ request: { method, routeOptions: { config } } });
    const kept = replyOf('GET', KEEPS_ANSWERS);
    expect(isKeepable(kept)).toBe(false);
    keepResponse(kept);
    expect(isKeepable(kept)).toBe(true);
    // a GET route that was not configured to keep answers is never looked up: saying so there is a mistake
    expect(() => keepResponse(replyOf('GET', { bodyLimit: 10 }))).toThrow(/RouteConfig/);
    // code shared with other methods may say so; nothing is kept for them
    expect(() => keepResponse(replyOf('PATCH'))).not.toThrow();
    expect(keptAnswersOf(KEEPS_ANSWERS)).toBe('reads');
    expect(keptAnswersOf(READS_KEY_STORE)).toBe('reads-key-store');
    expect(keptAnswersOf({ bodyLimit: 10 })).toBeUndefined();
    expect(keptAnswersOf(undefined)).toBeUndefined();
  });
});

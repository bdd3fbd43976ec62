import { ValidationFailed } from '../domain/errors';
import { parseJsonBody } from './json-body';

const limits = { maxDepth: 5, maxKeys: 3 };

function refusal(text: string): string {
  try {
    parseJsonBody(text, limits);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailed);
    return (error as Error).message;
  }
  throw new Error(`accepted: ${text}`);
}

describe('parseJsonBody', () => {
  it('reads JSON as JSON.parse does, and an empty body as undefined', () => {
    const text = '{"a":[1,{"b":"x\\"]}"}],"c":null,"d":"\\\\"}';
    expect(parseJsonBody(text, limits)).toEqual(JSON.parse(text));
    expect(parseJsonBody('', limits)).toBeUndefined();
    expect(parseJsonBody('  \n', limits)).toBeUndefined();
  });

  it('refuses nesting deeper than the limit, counting arrays and objects alike, before parsing', () => {
    expect(parseJsonBody('[[[[{"a":1}]]]]', limits)).toEqual([[[[{ a: 1 }]]]]);
    expect(refusal('[[[[[[]]]]]]')).toMatch(/deeper than 5 levels/);
    expect(refusal('{"a":{"b":{"c":{"d":{"e":{}}}}}}')).toMatch(/deeper than 5 levels/);
    // brackets inside strings (escaped quotes included) do not count
    expect(parseJsonBody('{"a":"[[[[[[[[\\"{{{{{{{"}', limits)).toEqual({ a: '[[[[[[[["{{{{{{{' });
    // a deep body far over any real limit is refused without a stack overflow
    expect(() => parseJsonBody('['.repeat(400_000) + ']'.repeat(400_000))).toThrow(/deeper than/);
  });

  it('refuses an object with more keys than the limit, wherever it sits, but not long arrays', () => {
    expect(parseJsonBody('{"a":1,"b":2,"c":3}', limits)).toEqual({ a: 1, b: 2, c: 3 });
    expect(refusal('{"a":1,"b":2,"c":3,"d":4}')).toMatch(/more than 3 keys/);
    expect(refusal('[{"x":{"a":1,"b":2,"c":{},"d":4}}]')).toMatch(/more than 3 keys/);
    // colons inside strings are not keys; the keys of nested objects count for those objects only
    expect(parseJsonBody('{"a":"1:2:3:4:5","b":{"c":1,"d":2,"e":3},"f":1}', limits)).toEqual({
      a: '1:2:3:4:5',
      b: { c: 1, d: 2, e: 3 },
      f: 1,
    });
    expect(parseJsonBody(JSON.stringify({ a: Array.from({ length: 10_000 }, (_, i) => i) }), limits)).toHaveProperty(
      'a.length',
      10_000,
    );
  });

  it('refuses malformed JSON and prototype poisoning with a clear message', () => {
    expect(refusal('{"a":')).toBe('The request body is not valid JSON');
    expect(refusal('{"a":"unterminated')).toBe('The request body is not valid JSON');
    expect(refusal('{"__proto__":{"admin":true}}')).toMatch(/__proto__/);
    expect(refusal('{"constructor":{"prototype":{"admin":true}}}')).toMatch(/constructor\.prototype/);
  });

  it('refuses an unpaired surrogate in any string or key, naming where, and keeps paired ones and NUL', () => {
    expect(refusal('{"title":"ab\\ud800cd"}')).toBe(
      'title: contains an unpaired UTF-16 surrogate (not valid Unicode text)',
    );
    expect(refusal('{"a":[{"b":"x"},{"b":"\\udc00"}]}')).toMatch(/^a\[1\]\.b: contains an unpaired/);
    expect(refusal('{"\\ud83d":1}')).toMatch(/^the body: contains an unpaired/);
    expect(parseJsonBody('{"t":"\\ud83d\\ude00 \\u0000"}', limits)).toEqual({ t: '😀 \u0000' });
  });

  it('costs about one JSON.parse: a 1 MB body of 1,000-key objects is read in well under a second', () => {
    const objects: Record<string, Record<string, number>> = {};
    for (let n = 0; n < 100; n++) {
      objects[`o${n}`] = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i]));
    }
    const text = JSON.stringify(objects);
    const started = performance.now();
    parseJsonBody(text);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

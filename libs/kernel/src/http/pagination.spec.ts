import { PageCursorCodec } from './pagination';

describe('page cursors', () => {
  const codec = new PageCursorCodec('a secret of sixteen+');
  const cursor = { values: ['2026-01-01T00:00:00.000Z', 3], id: 'abc' };

  it('gives back what it encoded, the same cursor for the same page every time', () => {
    const page = codec.encode('spaces:org', cursor);
    expect(codec.encode('spaces:org', cursor)).toBe(page);
    for (let read = 0; read < 2; read++) expect(codec.decode('spaces:org', page)).toEqual(cursor);
    expect(codec.decode('spaces:org', undefined)).toBeUndefined();
  });

  it('refuses a cursor changed by the caller, of another list, or signed with another secret', () => {
    const page = codec.encode('spaces:org', cursor);
    codec.decode('spaces:org', page);
    const [payload, signature] = page.split('.');
    const other = Buffer.from(JSON.stringify(['spaces:org', ['x'], 'abc'])).toString('base64url');
    for (const bad of [
      `${other}.${signature}`,
      `${payload}.${signature.slice(0, -2)}AA`,
      new PageCursorCodec('another secret, 16+').encode('spaces:org', cursor),
      'no-dot',
    ]) {
      expect(() => codec.decode('spaces:org', bad)).toThrow(/not a valid page cursor/);
    }
    expect(() => codec.decode('spaces:other-org', page)).toThrow(/not a valid page cursor/);
  });
});

import { SecretBox } from './secret-box';

const KEY = 'k'.repeat(32);

describe('SecretBox', () => {
  it('seals secrets so that they open only with the same key and context', () => {
    const box = new SecretBox(KEY);
    const sealed = box.seal({ API_TOKEN: 'top-secret-value' }, 'acme');
    expect(sealed).not.toContain('top-secret-value');
    expect(sealed).not.toContain(Buffer.from('top-secret-value').toString('base64'));
    expect(box.open(sealed, 'acme')).toEqual({ API_TOKEN: 'top-secret-value' });
    expect(() => box.open(sealed, 'another-integration')).toThrow();
    expect(() => new SecretBox('x'.repeat(32)).open(sealed, 'acme')).toThrow();
  });

  it('uses a fresh nonce each time and refuses altered text', () => {
    const box = new SecretBox(KEY);
    const one = box.seal({ a: 'b' }, 'acme');
    expect(box.seal({ a: 'b' }, 'acme')).not.toBe(one);
    const parts = one.split('.');
    const flipped = Buffer.from(parts[3], 'base64url');
    flipped[0] ^= 1;
    expect(() => box.open([...parts.slice(0, 3), flipped.toString('base64url')].join('.'), 'acme')).toThrow();
  });

  it('wants a key of at least 32 characters', () => {
    expect(() => new SecretBox('short')).toThrow(/at least 32/);
  });
});

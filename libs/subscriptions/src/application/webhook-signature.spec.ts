import { newWebhookSecret, signWebhook } from './webhook-signature';

describe('webhook signature', () => {
  it('reproduces the test vector the Standard Webhooks specification publishes', () => {
    const signature = signWebhook(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('makes new secrets of 32 random bytes in the whsec_ form', () => {
    const one = newWebhookSecret();
    expect(one).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(one.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(one);
  });

  it('refuses a secret that is not in the whsec_ form', () => {
    expect(() => signWebhook('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'id', 1, '{}')).toThrow();
  });
});

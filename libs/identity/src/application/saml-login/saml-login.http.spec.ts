import { prefersHtml } from './saml-login.http';

describe('prefersHtml', () => {
  it('is true for a browser, false for API clients and ties', () => {
    expect(prefersHtml('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe(true);
    expect(prefersHtml('text/html')).toBe(true);
    expect(prefersHtml(undefined)).toBe(false);
    expect(prefersHtml('*/*')).toBe(false);
    expect(prefersHtml('application/json')).toBe(false);
    expect(prefersHtml('application/json, text/html;q=0.5')).toBe(false);
    expect(prefersHtml('text/html;q=0')).toBe(false);
  });
});

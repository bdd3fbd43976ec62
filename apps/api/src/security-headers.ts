import helmet, { type HelmetOptions } from 'helmet';

/**
 * The security headers helmet sets, computed once at start-up: with static directives they do not depend on the
 * request, so each response gets a ready-made set instead of helmet running per request.
 */
export function securityHeaders(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as never, response as never, () => undefined);
  return headers;
}

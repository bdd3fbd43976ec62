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

/** Headers for the documentation pages (`/docs`): helmet's set for HTML, allowing the page's own scripts. */
export const PAGE_HEADERS = securityHeaders({
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
    },
  },
});

/**
 * Headers for everything else, which is JSON: nothing in a response may load, frame or be cached (responses carry
 * an organization's data and depend on the token). The headers that only matter for HTML pages in old browsers
 * are left out, which also keeps every response about 500 bytes shorter.
 */
export const API_HEADERS = securityHeaders({
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
  xFrameOptions: { action: 'deny' },
});
API_HEADERS['cache-control'] = 'no-store';

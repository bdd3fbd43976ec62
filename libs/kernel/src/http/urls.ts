export const PUBLIC_URLS = Symbol('PUBLIC_URLS');

/** Base addresses used to build the `urls` of resources. */
export interface PublicUrls {
  /** Base of the API, ending in `/v1` (for `urls.location`). */
  api: string;
  /** Base of the web app (for `urls.app`). */
  app: string;
}

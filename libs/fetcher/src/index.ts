export {
  SafeFetcher,
  parseAllowlist,
  type SafeFetcherOptions,
  type HostLookup,
  type ResolvedAddress,
} from './safe-fetcher';

/**
 * Counters of a space that other contexts keep (change requests and comments live in the review context). The
 * content context defines this port and shows the counters in the Space shape; the context that owns the
 * activity provides it, so content never depends on it. Without a provider every counter is 0.
 */
export const SPACE_ACTIVITY = Symbol('SPACE_ACTIVITY');

export interface SpaceActivityCounts {
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}

export interface SpaceActivity {
  /** Counters of the given spaces; a space with no activity may be missing from the map. */
  countsFor(spaceIds: readonly string[]): Promise<Map<string, SpaceActivityCounts>>;
}

export const NO_ACTIVITY: SpaceActivityCounts = Object.freeze({
  comments: 0,
  changeRequests: 0,
  changeRequestsOpen: 0,
  changeRequestsDraft: 0,
});

export async function activityOf(
  provider: SpaceActivity | undefined,
  spaceIds: readonly string[],
): Promise<Map<string, SpaceActivityCounts>> {
  return provider && spaceIds.length > 0 ? provider.countsFor(spaceIds) : new Map();
}

/**
 * The change request a merge revision came from, as the caller may see it (the spec's `mergedFrom`). Provided by
 * the review context, like the counters above.
 */
export const CHANGE_REQUEST_LOOKUP = Symbol('CHANGE_REQUEST_LOOKUP');

export interface ChangeRequestLookup {
  changeRequest(spaceId: string, changeRequestId: string, userId: string): Promise<unknown>;
}

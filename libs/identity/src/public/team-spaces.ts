/**
 * A port identity offers to the context that owns content grants: how many spaces each team was given access to
 * (the `spaces` count of a team). Without an adapter, every count is 0.
 */
export const TEAM_SPACES = Symbol('TEAM_SPACES');

export interface TeamSpaces {
  spaceCounts(organizationId: string, teamIds: readonly string[]): Promise<Map<string, number>>;
}

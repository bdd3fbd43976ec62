/**
 * A port content offers to the context that publishes spaces: whether a share key opens a space to someone who
 * has no role on it (the space is on a published site shared by link, and the key is one of that site's).
 */
export const SHARED_SPACES = Symbol('SHARED_SPACES');

export interface SharedSpaces {
  spaceSharedBy(spaceId: string, shareKey: string): Promise<boolean>;
}

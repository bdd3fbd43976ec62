import { ValidationFailed } from '@app/kernel';
import { type ContentAccess } from '@app/content';

/**
 * A space the caller wants to put on a site: it must be readable by them and belong to the site's organization.
 * Anything else (another organization's space, one they cannot see, a deleted one) is refused the same way, so
 * nothing is learned about spaces out of reach.
 */
export async function spaceForSite(
  content: ContentAccess,
  organizationId: string,
  spaceId: string,
  userId: string,
  field: string,
) {
  try {
    const { space } = await content.requireSpace(spaceId, userId, 'read', 'publish it');
    if (space.organizationId === organizationId) return space;
  } catch {
    // refused below, the same way as a space of another organization
  }
  throw new ValidationFailed(`${field}: no space ${spaceId} in this organization`);
}

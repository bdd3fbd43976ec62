import { type PublicUrls } from '@app/kernel';
import { type RoleOrGuest, atLeast } from '@app/kernel/domain';
import { type UserBody } from '@app/identity';
import { type ChangeRequestDoc } from './read-models';

/** A user as the API shows them; one no longer known is named as such, and no user at all is the service. */
export function userOf(users: Map<string, UserBody>, urls: PublicUrls, id: string | undefined): UserBody {
  return (
    (id && users.get(id)) || {
      object: 'user',
      id: id ?? 'system',
      displayName: id ? 'Unknown user' : 'Quire',
      urls: { location: `${urls.api}/users/${id ?? 'system'}` },
    }
  );
}

/** What the caller may do with a change request (beyond the spec, mirroring the space's `permissions`). */
export function changeRequestPermissions(role: RoleOrGuest, request: ChangeRequestDoc, locked: boolean) {
  const working = request.status === 'draft' || request.status === 'open';
  return {
    view: atLeast(role, 'read'),
    edit: working && !locked && atLeast(role, 'edit'),
    comment: atLeast(role, 'comment'),
    review: atLeast(role, 'review'),
    merge: working && !locked && atLeast(role, 'review'),
  };
}

/** The seed's Change request shape, with the fields spec 0.202.0 requires or adds once merged. */
export function presentChangeRequest(
  request: ChangeRequestDoc,
  context: { role: RoleOrGuest; locked: boolean; users: Map<string, UserBody>; urls: PublicUrls },
) {
  const { users, urls } = context;
  const unknown = (id: string | undefined) => userOf(users, urls, id);
  return {
    object: 'change-request' as const,
    id: request.id,
    number: request.number,
    status: request.status,
    subject: request.subject,
    createdBy: unknown(request.createdBy),
    createdAt: request.createdAt,
    updatedAt: request.updatedAt,
    ...(request.status === 'merged' ? { mergedBy: unknown(request.mergedBy), mergedAt: request.mergedAt } : {}),
    space: request.spaceId,
    revision: request.revision,
    revisionInitial: request.revisionInitial,
    ...(request.revisionMergedAncestor ? { revisionMergedAncestor: request.revisionMergedAncestor } : {}),
    ...(request.revisionMerged ? { revisionMerged: request.revisionMerged } : {}),
    comments: request.comments,
    outdated: request.outdated,
    urls: {
      location: `${urls.api}/spaces/${request.spaceId}/change-requests/${request.id}`,
      app: `${urls.app}/s/${request.spaceId}/~/changes/${request.number}`,
    },
    permissions: changeRequestPermissions(context.role, request, context.locked),
  };
}

export type ChangeRequestBody = ReturnType<typeof presentChangeRequest>;

/** The users a change request shows. */
export const usersOf = (request: ChangeRequestDoc) =>
  [request.createdBy, request.mergedBy].filter((id): id is string => typeof id === 'string');

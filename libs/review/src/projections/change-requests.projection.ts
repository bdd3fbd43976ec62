import { type Projection } from '@app/kernel';
import { CHANGE_REQUEST_EVENTS, type ChangeRequestEvent, type CommentEvent } from '../domain';
import { OPEN_COMMENT_EVENTS, openCommentsDelta } from './space-activity.projection';
import { CHANGE_REQUESTS, type ChangeRequestDoc } from '../application/read-models';

const withContributor = (doc: ChangeRequestDoc, userId: string | undefined) =>
  userId && !doc.contributors.includes(userId) ? [...doc.contributors, userId] : doc.contributors;

/** One document per change request, as the API shows it (with the number of its open comments). */
export const changeRequestsProjection: Projection<ChangeRequestDoc> = {
  name: 'change_requests',
  version: 2,
  collection: CHANGE_REQUESTS,
  indexes: [
    {
      fields: [
        ['spaceId', 1],
        ['status', 1],
        ['number', 1],
      ],
    },
    {
      fields: [
        ['spaceId', 1],
        ['number', 1],
      ],
    },
  ],
  handles: [...CHANGE_REQUEST_EVENTS, ...OPEN_COMMENT_EVENTS],
  idOf: (event) => (typeof event.data.changeRequestId === 'string' ? event.data.changeRequestId : null),
  evolve(doc, recorded) {
    const event = { type: recorded.type, data: recorded.data } as ChangeRequestEvent | CommentEvent;
    if (event.type === 'ChangeRequestCreated') {
      const data = event.data;
      return {
        id: data.changeRequestId,
        spaceId: data.spaceId,
        organizationId: data.organizationId,
        number: data.number,
        subject: data.subject,
        status: data.status,
        revision: data.revisionId,
        revisionInitial: data.revisionId,
        outdated: false,
        contributors: data.createdBy ? [data.createdBy] : [],
        ...(data.createdBy ? { createdBy: data.createdBy } : {}),
        createdAt: data.createdAt,
        updatedAt: data.createdAt,
        comments: 0,
      };
    }
    if (!doc) return null;
    switch (event.type) {
      case 'ChangeRequestEdited':
        return {
          ...doc,
          ...(event.data.subject !== undefined ? { subject: event.data.subject } : {}),
          ...(event.data.status !== undefined ? { status: event.data.status } : {}),
          updatedAt: event.data.editedAt,
        };
      case 'ChangeRequestContentChanged':
        return {
          ...doc,
          revision: event.data.revisionId,
          contributors: withContributor(doc, event.data.changedBy),
          updatedAt: event.data.changedAt,
        };
      case 'ChangeRequestUpdated':
        return {
          ...doc,
          revision: event.data.revisionId,
          revisionMergedAncestor: event.data.spaceRevisionId,
          outdated: false,
          conflicts: event.data.conflicts,
          contributors: withContributor(doc, event.data.updatedBy),
          updatedAt: event.data.updatedAt,
        };
      case 'ChangeRequestMerged':
        return {
          ...doc,
          status: 'merged',
          revisionMerged: event.data.revisionId,
          outdated: false,
          conflicts: event.data.conflicts,
          ...(event.data.mergedBy ? { mergedBy: event.data.mergedBy } : {}),
          mergedAt: event.data.mergedAt,
          updatedAt: event.data.mergedAt,
        };
      case 'ChangeRequestOutdated':
        return { ...doc, outdated: true };
      case 'CommentPosted':
      case 'CommentResolved':
      case 'CommentReopened':
      case 'CommentDeleted':
        return { ...doc, comments: Math.max(0, doc.comments + openCommentsDelta(event)) };
      case 'ChangeRequestMergeStarted':
      case 'ChangeRequestMergeAbandoned':
        return doc;
      default:
        return doc;
    }
  },
};

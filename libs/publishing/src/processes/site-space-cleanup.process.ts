import { type DomainEvent } from '@app/kernel/domain';
import { type ProcessDefinition } from '@app/kernel';

export type SpaceUse = {
  siteId: string;
  siteSpaceId: string;
};

export type SpaceUsedBySite = DomainEvent<'SpaceUsedBySite', { spaceId: string } & SpaceUse>;
export type SpaceLeftSites = DomainEvent<
  'SpaceLeftSites',
  { spaceId: string; uses: SpaceUse[]; reason: 'space-deleted' | 'space-transferred' }
>;
export type SpaceAvailableAgain = DomainEvent<'SpaceAvailableAgain', { spaceId: string }>;
export type SiteSpaceCleanupEvent = SpaceUsedBySite | SpaceLeftSites | SpaceAvailableAgain;

export interface SiteSpaceCleanupState {
  /** Set while the space is deleted: a site space added meanwhile is taken out again at once. */
  deleted: boolean;
  uses: SpaceUse[];
}

/**
 * Keeps sites from showing a space that is gone: one instance per space records each site space made of it,
 * and when content reports the space deleted or moved to another organization, every such site space is removed
 * (`RemoveSiteSpace` with `onlyIfSpace`, so a site space already removed or pointed elsewhere is left alone).
 * Content's events are read here as published facts; nothing of content's read models is consulted.
 */
export const siteSpaceCleanupProcess: ProcessDefinition<SiteSpaceCleanupState, SiteSpaceCleanupEvent> = {
  name: 'sitespacecleanup',
  handles: ['SiteSpaceAdded', 'SiteSectionAdded', 'SpaceDeleted', 'SpaceRestored', 'SpaceTransferred'],
  instanceOf(event) {
    if (event.type === 'SiteSectionAdded') return String((event.data.first as { spaceId: string }).spaceId);
    return String(event.data.spaceId);
  },
  initialState: () => ({ deleted: false, uses: [] }),
  evolve(state, event) {
    switch (event.type) {
      case 'SpaceUsedBySite':
        return { ...state, uses: [...state.uses, { siteId: event.data.siteId, siteSpaceId: event.data.siteSpaceId }] };
      case 'SpaceLeftSites': {
        const left = new Set(event.data.uses.map((one) => one.siteSpaceId));
        return {
          deleted: event.data.reason === 'space-deleted' ? true : state.deleted,
          uses: state.uses.filter((one) => !left.has(one.siteSpaceId)),
        };
      }
      case 'SpaceAvailableAgain':
        return { ...state, deleted: false };
      default:
        return state;
    }
  },
  when(state, event) {
    switch (event.type) {
      case 'SiteSpaceAdded':
      case 'SiteSectionAdded': {
        const data = event.data as { siteId: string; siteSpaceId?: string; first?: { siteSpaceId: string } };
        const spaceId = siteSpaceCleanupProcess.instanceOf(event)!;
        const use = { siteId: data.siteId, siteSpaceId: data.siteSpaceId ?? data.first!.siteSpaceId };
        const used: SpaceUsedBySite = { type: 'SpaceUsedBySite', data: { spaceId, ...use } };
        // added while the space was deleted (the two writes raced): take it out again
        if (state.deleted) {
          return [used, { type: 'SpaceLeftSites', data: { spaceId, uses: [use], reason: 'space-deleted' } }];
        }
        return [used];
      }
      case 'SpaceDeleted':
      case 'SpaceTransferred': {
        const reason = event.type === 'SpaceDeleted' ? 'space-deleted' : 'space-transferred';
        return [{ type: 'SpaceLeftSites', data: { spaceId: String(event.data.spaceId), uses: state.uses, reason } }];
      }
      case 'SpaceRestored':
        return state.deleted ? [{ type: 'SpaceAvailableAgain', data: { spaceId: String(event.data.spaceId) } }] : [];
      default:
        return [];
    }
  },
  commands(_state, event) {
    if (event.type !== 'SpaceLeftSites') return [];
    return event.data.uses.map((use) => ({
      type: 'RemoveSiteSpace',
      data: { ...use, spaceId: event.data.spaceId, reason: event.data.reason },
    }));
  },
};

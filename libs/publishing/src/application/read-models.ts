import { type SiteStructure, type SiteType, type SiteVisibility } from '../domain';

/** Read-model collections of the publishing context (written by ../projections). */
export const SITES = 'sites';

export interface ShareLinkDoc {
  id: string;
  name: string;
  /** SHA-256 of the key, hex: the key itself is never stored. */
  keyHash: string;
  active: boolean;
  createdAt: string;
}

/** One site with everything it holds: a site is read whole (its structure is a few hundred items at most). */
export interface SiteDoc {
  id: string;
  organizationId: string;
  type: SiteType;
  title: string;
  visibility: SiteVisibility;
  published: boolean;
  basename?: string;
  proxy?: string;
  adaptiveContent?: { enabled: boolean };
  agentsContext?: 'excluded' | 'included';
  createdAt: string;
  updatedAt: string;
  structure: SiteStructure;
  /** The spaces the site shows (for the `space` filter of the list). */
  spaceIds: string[];
  shareLinks: ShareLinkDoc[];
  adaptiveSchema?: { jsonSchema: Record<string, unknown>; updatedAt: string };
  customization?: Record<string, unknown>;
  /** Revision of the site's stream (the ETag). */
  version: number;
  [key: string]: unknown;
}

/** The projections a site answer reads (what a mutating endpoint waits for). */
export const PUBLISHING_READ_MODELS = ['sites'];

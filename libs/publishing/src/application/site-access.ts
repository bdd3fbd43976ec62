import { createHash, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { NotFound, READ_STORE, type ReadStore } from '@app/kernel';
import { type Role, type RoleOrGuest } from '@app/kernel/domain';
import { OrganizationAccess } from '@app/identity';
import { SITES, type SiteDoc } from './read-models';

/** SHA-256 of a share key, hex: what is recorded and compared, never the key itself. */
export const hashShareKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A site read by someone: with their role in the organization, or through a share key (role null). */
export interface SiteReading {
  site: SiteDoc;
  role: RoleOrGuest;
  /** True when the reader came in through a share key rather than a membership. */
  shared: boolean;
}

/**
 * Who may see and change sites. Reading needs the organization's `read` role, changing needs `admin`; another
 * organization's site is unknown (404). A valid share key of a published share-link site lets a caller without a
 * role read it (and only read it).
 */
@Injectable()
export class SiteAccess {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly organizations: OrganizationAccess,
  ) {}

  async requireOrganization(organizationId: string, userId: string, required: Role, action: string) {
    return this.organizations.requireRole(organizationId, userId, required, action);
  }

  async requireSite(organizationId: string, siteId: string, userId: string, required: Role, action: string) {
    const role = await this.organizations.requireRole(organizationId, userId, required, action);
    const site = await this.store.get<SiteDoc>(SITES, siteId);
    if (!site || site.organizationId !== organizationId) throw new NotFound(`Site ${siteId} not found`);
    return { site, role };
  }

  /**
   * A site to read, by membership or, failing that, by share key. A wrong or inactive key, an unpublished site or a
   * site that is not shared by link is as unknown as a site that does not exist.
   */
  async readSite(organizationId: string, siteId: string, userId: string, shareKey?: string): Promise<SiteReading> {
    const membership = await this.organizations.membership(organizationId, userId);
    if (membership && membership.role !== null) {
      const { site, role } = await this.requireSite(organizationId, siteId, userId, 'read', 'read its sites');
      return { site, role, shared: false };
    }
    if (shareKey !== undefined) {
      const site = await this.store.get<SiteDoc>(SITES, siteId);
      if (site && site.organizationId === organizationId && this.keyOpens(site, shareKey)) {
        return { site, role: null, shared: true };
      }
      throw new NotFound(`Site ${siteId} not found`);
    }
    // members without a role (guests) are told what they lack; strangers see nothing
    const { site, role } = await this.requireSite(organizationId, siteId, userId, 'read', 'read its sites');
    return { site, role, shared: false };
  }

  /** Whether a key opens this site: published, shared by link, and an active link with this key. */
  keyOpens(site: SiteDoc, shareKey: string): boolean {
    if (!site.published || site.visibility !== 'share-link') return false;
    const hash = hashShareKey(shareKey);
    return site.shareLinks.some((one) => one.active && sameHash(one.keyHash, hash));
  }

  /** Whether a share key lets its holder read a space: the space is in a site the key opens. */
  async spaceSharedBy(spaceId: string, shareKey: string): Promise<boolean> {
    const sites = await this.store.find<SiteDoc>(SITES, {
      filter: { spaceIds: { $has: spaceId }, published: true, visibility: 'share-link' },
      limit: 100,
    });
    return sites.items.some((site) => this.keyOpens(site, shareKey));
  }
}

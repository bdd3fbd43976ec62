import { Inject, Injectable } from '@nestjs/common';
import { NotFound, READ_STORE, type ReadStore } from '@app/kernel';
import { type RoleOrGuest } from '@app/kernel/domain';
import { OrganizationAccess } from '@app/identity';
import { INTEGRATIONS, type IntegrationDoc } from './integration-read-models';

export interface VisibleIntegration {
  doc: IntegrationDoc;
  /** The caller's role in the owning organization; undefined when the caller does not belong to it. */
  role: RoleOrGuest | undefined;
}

/**
 * Who sees which integration: public and unlisted ones anyone with a token, private ones only the members of the
 * organization that owns them (404 for anyone else, as if the name were free).
 */
@Injectable()
export class IntegrationAccess {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly organizations: OrganizationAccess,
  ) {}

  async visible(name: string, userId: string): Promise<VisibleIntegration> {
    const doc = await this.store.get<IntegrationDoc>(INTEGRATIONS, name);
    if (!doc) throw new NotFound(`Integration ${name} not found`);
    const membership = await this.organizations.membership(doc.organizationId, userId);
    if (doc.visibility === 'private' && !membership) throw new NotFound(`Integration ${name} not found`);
    return { doc, role: membership?.role };
  }

  /** Whether the user administers at least one organization (where an integration could be installed). */
  async administersAny(userId: string): Promise<boolean> {
    for (const organizationId of await this.organizations.organizationsOf(userId)) {
      if ((await this.organizations.membership(organizationId, userId))?.role === 'admin') return true;
    }
    return false;
  }

  /**
   * The id of an organization named by its id or its hostname (the spec's "ID or subdomain"); NotFound when
   * neither names an organization the caller belongs to.
   */
  async organizationId(idOrHostname: string, userId: string): Promise<string> {
    if (await this.organizations.membership(idOrHostname, userId)) return idOrHostname;
    const byHostname = await this.organizations.idOfHostname(idOrHostname);
    if (byHostname && (await this.organizations.membership(byHostname, userId))) return byHostname;
    throw new NotFound(`Organization ${idOrHostname} not found`);
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { Forbidden, NotFound, PUBLIC_URLS, type PublicUrls, READ_STORE, type ReadStore } from '@app/kernel';
import { type Role, type RoleOrGuest, atLeast } from '@app/kernel/domain';
import { MEMBERS, type MemberDoc, ORGANIZATIONS, type OrganizationDoc, memberDocId } from '../application/read-models';
import { presentOrganization } from '../application/presenters';

export interface OrganizationViewer {
  organizationId: string;
  /** The caller's role in the organization (null: a guest). */
  role: RoleOrGuest;
  /** The organization's default level for its content. */
  defaultRole: RoleOrGuest;
  /** The teams of the organization the caller is in (left out for admins, whose rights do not depend on it). */
  teams?: readonly string[];
}

/**
 * The organization half of the access policy, for every context: who belongs to an organization and with which
 * role. Another organization is invisible (404); a member whose role is too low is refused (403).
 */
@Injectable()
export class OrganizationAccess {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
  ) {}

  /** The caller's role in the organization, or undefined when the caller is not a member (or it does not exist). */
  async membership(organizationId: string, userId: string): Promise<{ role: RoleOrGuest } | undefined> {
    const member = await this.store.get<MemberDoc>(MEMBERS, memberDocId(organizationId, userId));
    return member ? { role: member.role } : undefined;
  }

  /**
   * What content access starts from: the caller's role in the organization and the organization's own default
   * level (the end of every `defaultLevel` chain). Undefined when the caller is not a member.
   */
  async viewer(organizationId: string, userId: string): Promise<OrganizationViewer | undefined> {
    const member = await this.store.get<MemberDoc>(MEMBERS, memberDocId(organizationId, userId));
    if (!member) return undefined;
    // An admin's rights do not depend on defaults or teams: spare the read.
    if (member.role === 'admin') return { organizationId, role: 'admin', defaultRole: null };
    const organization = await this.store.get<OrganizationDoc>(ORGANIZATIONS, organizationId);
    return {
      organizationId,
      role: member.role,
      defaultRole: organization?.defaultRole ?? null,
      teams: member.teams ?? [],
    };
  }

  /** The organization's hostname (its default public address), when it has one. */
  async hostnameOf(organizationId: string): Promise<string | undefined> {
    const organization = await this.store.get<OrganizationDoc>(ORGANIZATIONS, organizationId);
    return organization?.hostname ?? undefined;
  }

  /** The id of the organization with this hostname, if one has it. */
  async idOfHostname(hostname: string): Promise<string | undefined> {
    const found = await this.store.find<OrganizationDoc>(ORGANIZATIONS, { filter: { hostname }, limit: 1 });
    return found.items[0]?.id;
  }

  /** The ids of the organizations the user belongs to (at most 1000). */
  async organizationsOf(userId: string): Promise<string[]> {
    const found = await this.store.find<MemberDoc>(MEMBERS, { filter: { userId }, limit: 1000 });
    return found.items.map((member) => member.organizationId);
  }

  /**
   * An organization in the spec's shape as another context shows it (the owner of an integration): whole to its
   * members; to anyone else without its email domains or whether it has invite links.
   */
  async profile(organizationId: string, userId: string): Promise<Record<string, unknown> | undefined> {
    const organization = await this.store.get<OrganizationDoc>(ORGANIZATIONS, organizationId);
    if (!organization) return undefined;
    const membership = await this.membership(organizationId, userId);
    const body = presentOrganization(organization, membership?.role ?? null, this.urls);
    return membership ? body : { ...body, emailDomains: [], inviteLinks: false };
  }

  /** The caller's role; NotFound when the caller cannot see the organization. */
  async requireMember(organizationId: string, userId: string): Promise<RoleOrGuest> {
    const membership = await this.membership(organizationId, userId);
    if (!membership) throw new NotFound(`Organization ${organizationId} not found`);
    return membership.role;
  }

  /** The caller's role when it is at least `required`; NotFound or Forbidden otherwise. */
  async requireRole(organizationId: string, userId: string, required: Role, action: string): Promise<RoleOrGuest> {
    const role = await this.requireMember(organizationId, userId);
    if (!atLeast(role, required))
      throw new Forbidden(`You need the ${required} role in this organization to ${action}`);
    return role;
  }
}

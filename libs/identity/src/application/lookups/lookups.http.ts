import { Controller, Get, Inject, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  type Actor,
  CurrentActor,
  NotFound,
  PUBLIC_URLS,
  type PublicUrls,
  READ_STORE,
  type ReadStore,
  ValidationFailed,
} from '@app/kernel';
import { People } from '../personal-data/people';
import { presentOrganization } from '../presenters';
import { MEMBERS, type MemberDoc, ORGANIZATIONS, type OrganizationDoc } from '../read-models';

const DOMAIN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;
const SUBDOMAIN = /^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/;
const MAX_ORGANIZATIONS = 1000;

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();
const hasDomain = (organization: OrganizationDoc, domain: string) =>
  organization.emailDomains.some((one) => one.toLowerCase() === domain);

/** Finding an organization by an email domain or by its subdomain (its `hostname`). */
@ApiTags('organizations')
@Controller()
export class LookupsController {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly people: People,
  ) {}

  /**
   * The organizations whose `emailDomains` contain the domain that the caller may know of: those they belong to,
   * and, when it is their own email's domain, those it lets them join. Nothing else is shown.
   */
  @Get('email-domains/:emailDomain/orgs')
  @ApiOperation({
    operationId: 'getOrganizationsForEmailDomain',
    summary: "Organizations of an email domain: the caller's own, and those their email lets them join",
  })
  async byEmailDomain(@CurrentActor() actor: Actor, @Param('emailDomain') emailDomain: string) {
    const domain = emailDomain.toLowerCase();
    if (!DOMAIN.test(domain)) throw new ValidationFailed('emailDomain must be a domain name, like example.com');
    const memberships = await this.store.find<MemberDoc>(MEMBERS, {
      filter: { userId: actor.userId },
      limit: MAX_ORGANIZATIONS,
    });
    const roles = new Map(memberships.items.map((member) => [member.organizationId, member.role]));
    const { email } = await this.people.byId(actor.userId);
    let candidates: OrganizationDoc[];
    if (email !== undefined && domainOf(email) === domain) {
      const found = await this.store.find<OrganizationDoc>(ORGANIZATIONS, {
        filter:
          roles.size === 0
            ? { emailDomains: { $has: domain } }
            : { $or: [{ emailDomains: { $has: domain } }, { id: { $in: [...roles.keys()] } }] },
        sort: [['createdAt', 1]],
        limit: MAX_ORGANIZATIONS,
      });
      candidates = found.items;
    } else {
      candidates = roles.size === 0 ? [] : await this.store.getMany<OrganizationDoc>(ORGANIZATIONS, [...roles.keys()]);
    }
    const organizations = candidates
      .filter((organization) => hasDomain(organization, domain))
      .map((organization) => presentOrganization(organization, roles.get(organization.id), this.urls));
    return { organizations };
  }

  /** The organization whose hostname this is, for anyone signed in (a hostname is a public address). */
  @Get('subdomains/:subdomain')
  @ApiOperation({ operationId: 'getSubdomain', summary: 'The organization a subdomain belongs to' })
  async bySubdomain(@Param('subdomain') subdomain: string) {
    if (!SUBDOMAIN.test(subdomain))
      throw new ValidationFailed('subdomain must have 3 to 32 lowercase letters, digits and dashes');
    const found = await this.store.find<OrganizationDoc>(ORGANIZATIONS, {
      filter: { hostname: subdomain },
      sort: [['createdAt', 1]],
      limit: 1,
    });
    const organization = found.items[0];
    if (!organization) throw new NotFound(`Subdomain ${subdomain} not found`);
    return {
      object: 'subdomain' as const,
      subdomain,
      target: { type: 'organization' as const, organization: organization.id },
      isActive: true,
    };
  }
}

import { X509Certificate } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type Actor,
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  type ListQuery,
  NotFound,
  PAGE_CURSORS,
  type PageCursorCodec,
  PUBLIC_URLS,
  type PublicUrls,
  READ_STORE,
  type ReadStore,
  Runtime,
  ValidationFailed,
  handleCommand,
  metadataFor,
  newId,
  readPage,
} from '@app/kernel';
import { type OrganizationCommand, type SamlProviderSettings, organizationStream } from '../../domain';
import { organizations } from '../deciders';
import { OrganizationAccess } from '../../public/organization-access';
import { SAML_PROVIDERS, SAML_READ_MODELS, TEAMS, type SamlProviderDoc, type TeamDoc } from '../read-models';
import { TeamViews } from '../teams/team-views';

type SamlCommand = Extract<
  OrganizationCommand,
  { type: 'CreateSamlProvider' | 'ChangeSamlProvider' | 'DeleteSamlProvider' }
>;

/** A certificate as PEM: pasted PEM is kept, a bare base64 body (as IdP metadata has it) is wrapped. */
export function certificatePem(text: string): string {
  const trimmed = text.trim();
  if (trimmed.includes('-----BEGIN')) return trimmed;
  const body = trimmed.replace(/\s+/g, '');
  return `-----BEGIN CERTIFICATE-----\n${body.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----`;
}

/** Refuses (400) a certificate that does not parse as X.509. */
function requireX509(certificate: string | undefined): void {
  if (certificate === undefined || certificate === '') return;
  try {
    new X509Certificate(certificatePem(certificate));
  } catch {
    throw new ValidationFailed('certificate must be an X.509 certificate (PEM, or its base64 body)');
  }
}

/** The provider can sign people in: its IdP entity id, certificate and sign-in URL are all set. */
export const isActive = (doc: SamlProviderDoc) => Boolean(doc.entityID && doc.certificate && doc.ssoURL);

/** The addresses of this service for one provider (what an IdP administrator types in). */
export function serviceUrls(urls: PublicUrls, doc: Pick<SamlProviderDoc, 'id' | 'organizationId'>) {
  const base = `${urls.api}/orgs/${doc.organizationId}/saml/${doc.id}`;
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: `${base}/metadata` };
}

/**
 * SAML providers of an organization: organization admins list, create, change and delete them; every member may
 * read the sign-in list (`/sso`). Providers live in the organization's stream, beside the teams a default team
 * must belong to.
 */
@Injectable()
export class SamlProviders {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly runtime: Runtime,
    private readonly access: OrganizationAccess,
    private readonly teams: TeamViews,
  ) {}

  async list(actor: Actor, organizationId: string, query: ListQuery) {
    await this.requireAdmin(actor, organizationId);
    const page = await readPage<SamlProviderDoc, SamlProviderDoc>(
      this.store,
      this.cursors,
      {
        collection: SAML_PROVIDERS,
        scope: `saml:${organizationId}`,
        filter: { organizationId },
        sort: [['createdAt', 1]],
        query,
      },
      (doc) => doc,
    );
    return { ...page, items: await this.presentAll(actor, organizationId, page.items) };
  }

  async get(actor: Actor, organizationId: string, providerId: string) {
    await this.requireAdmin(actor, organizationId);
    return (await this.presentAll(actor, organizationId, [await this.require(organizationId, providerId)]))[0];
  }

  async create(actor: Actor, organizationId: string, settings: SamlProviderSettings & { label: string }) {
    await this.requireAdmin(actor, organizationId);
    requireX509(settings.certificate);
    const providerId = newId();
    await this.run(actor, { type: 'CreateSamlProvider', data: { organizationId, providerId, settings } });
    return this.get(actor, organizationId, providerId);
  }

  async change(actor: Actor, organizationId: string, providerId: string, changes: SamlProviderSettings) {
    await this.requireAdmin(actor, organizationId);
    await this.require(organizationId, providerId);
    requireX509(changes.certificate);
    await this.run(actor, { type: 'ChangeSamlProvider', data: { organizationId, providerId, changes } });
    return this.get(actor, organizationId, providerId);
  }

  /** Deleting a provider the organization does not have (any more) changes nothing. */
  async delete(actor: Actor, organizationId: string, providerId: string): Promise<void> {
    await this.requireAdmin(actor, organizationId);
    const doc = await this.store.get<SamlProviderDoc>(SAML_PROVIDERS, providerId);
    if (!doc || doc.organizationId !== organizationId) return;
    await this.run(actor, { type: 'DeleteSamlProvider', data: { organizationId, providerId } });
  }

  /** The sign-in list: the active providers, for any member of the organization. */
  async logins(actor: Actor, organizationId: string) {
    await this.access.requireMember(organizationId, actor.userId);
    const found = await this.store.find<SamlProviderDoc>(SAML_PROVIDERS, {
      filter: { organizationId },
      sort: [['createdAt', 1]],
      limit: 1000,
    });
    return {
      items: found.items
        .filter(isActive)
        .map((doc) => ({ id: doc.id, label: doc.label, startURL: serviceUrls(this.urls, doc).startURL })),
    };
  }

  /** A provider of the organization; NotFound for one of another organization. */
  async require(organizationId: string, providerId: string): Promise<SamlProviderDoc> {
    const doc = await this.store.get<SamlProviderDoc>(SAML_PROVIDERS, providerId);
    if (!doc || doc.organizationId !== organizationId) throw new NotFound(`SAML provider ${providerId} not found`);
    return doc;
  }

  private async requireAdmin(actor: Actor, organizationId: string): Promise<void> {
    await this.access.requireRole(organizationId, actor.userId, 'admin', 'manage its SAML providers');
  }

  private async run(actor: Actor, command: Omit<SamlCommand, 'metadata'>): Promise<void> {
    const result = await handleCommand(this.events, organizations, organizationStream(command.data.organizationId), {
      ...command,
      metadata: metadataFor(this.clock, actor.userId, { correlationId: actor.requestId }),
    } as SamlCommand);
    await this.runtime.settle(result.position, SAML_READ_MODELS);
  }

  /** The spec's OrganizationSAMLProvider; while pending, the settings not yet given are left out. */
  private async presentAll(actor: Actor, organizationId: string, docs: readonly SamlProviderDoc[]) {
    const teamIds = [...new Set(docs.flatMap((doc) => (doc.defaultTeam ? [doc.defaultTeam] : [])))];
    const teamDocs = teamIds.length === 0 ? [] : await this.store.getMany<TeamDoc>(TEAMS, teamIds);
    const viewer = await this.teams.viewer(organizationId, actor.userId);
    const presented = await this.teams.present(
      viewer,
      teamDocs.filter((team) => team.organizationId === organizationId),
    );
    const teams = new Map(presented.map((team) => [team.id, team]));
    return docs.map((doc) => {
      const team = doc.defaultTeam ? teams.get(doc.defaultTeam) : undefined;
      return {
        object: 'saml-provider' as const,
        id: doc.id,
        label: doc.label,
        ...(doc.ssoURL ? { ssoURL: doc.ssoURL } : {}),
        ...(doc.entityID ? { entityID: doc.entityID } : {}),
        ...(doc.certificate ? { certificate: doc.certificate } : {}),
        ...(team ? { defaultTeam: team } : {}),
        defaultRole: doc.defaultRole,
        createdAt: doc.createdAt,
        status: isActive(doc) ? ('active' as const) : ('pending' as const),
        service: serviceUrls(this.urls, doc),
        urls: { location: `${this.urls.api}/orgs/${organizationId}/saml/${doc.id}` },
      };
    });
  }
}

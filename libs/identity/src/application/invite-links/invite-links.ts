import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import {
  type Actor,
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  IllegalState,
  type ListQuery,
  NotFound,
  PAGE_CURSORS,
  type PageCursorCodec,
  READ_STORE,
  type ReadStore,
  Runtime,
  ValidationFailed,
  handleCommand,
  metadataFor,
  readPage,
} from '@app/kernel';
import { type Role, type RoleOrGuest, atLeast, roleRank } from '@app/kernel/domain';
import { type LinkGrant, type OrganizationCommand, organizationStream } from '../../domain';
import { organizations } from '../deciders';
import { CONTENT_INVITES, type ContentInvites, type InviteTarget } from '../../public/content-invites';
import { OrganizationAccess } from '../../public/organization-access';
import {
  INVITE_LINKS,
  type InviteLinkDoc,
  ORGANIZATIONS,
  ORGANIZATION_READ_MODELS,
  type OrganizationDoc,
  USERS,
  type UserDoc,
} from '../read-models';
import { type CreateInviteLinkRequest, type UpdateInviteLinkRequest } from './invite-links.request';

/** 192 random bits, base64url: the link's id in the API and its only secret. */
export const newLinkSecret = () => randomBytes(24).toString('base64url');
/** What is stored and recorded instead of the secret. */
export const linkIdOf = (secret: string) => createHash('sha256').update(secret).digest('base64url');

const READ_MODELS = [...ORGANIZATION_READ_MODELS, 'invite_links'];

type LinkCommand = Extract<
  OrganizationCommand,
  { type: 'CreateInviteLink' | 'ChangeInviteLink' | 'DeleteInviteLink' | 'AcceptInviteLink' }
>;

/**
 * Invite links of an organization. A link's secret is its id in the API: the creation answer shows it once, and
 * whoever holds it may read the link and accept it. Only its SHA-256 (`linkId`) is recorded and stored; admins
 * list and manage links by that hash (or by the secret, if they kept it).
 */
@Injectable()
export class InviteLinks {
  private content?: ContentInvites | null;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PAGE_CURSORS) private readonly cursors: PageCursorCodec,
    private readonly runtime: Runtime,
    private readonly access: OrganizationAccess,
    private readonly modules: ModuleRef,
  ) {}

  private contentInvites(): ContentInvites {
    if (this.content === undefined) {
      try {
        this.content = this.modules.get<ContentInvites>(CONTENT_INVITES, { strict: false });
      } catch {
        this.content = null;
      }
    }
    if (!this.content) throw new IllegalState('links to spaces and collections are not available');
    return this.content;
  }

  private async run(actor: Actor, command: Omit<LinkCommand, 'metadata'>) {
    const result = await handleCommand(this.events, organizations, organizationStream(command.data.organizationId), {
      ...command,
      metadata: metadataFor(this.clock, actor.userId, { correlationId: actor.requestId }),
    } as LinkCommand);
    await this.runtime.settle(result.position, READ_MODELS);
  }

  private async requireTurnedOn(organizationId: string) {
    const organization = await this.store.get<OrganizationDoc>(ORGANIZATIONS, organizationId);
    if (!organization?.inviteLinks) throw new IllegalState('invite links are turned off in this organization');
  }

  /** The link a holder names by its secret, in this organization; NotFound otherwise. */
  private async bySecret(organizationId: string, secret: string): Promise<InviteLinkDoc | undefined> {
    const link = await this.store.get<InviteLinkDoc>(INVITE_LINKS, linkIdOf(secret));
    return link && link.organizationId === organizationId ? link : undefined;
  }

  /** The link an admin names by its secret or by its hash. */
  private async byAdmin(organizationId: string, inviteId: string): Promise<InviteLinkDoc | undefined> {
    const bySecret = await this.bySecret(organizationId, inviteId);
    if (bySecret) return bySecret;
    const byHash = await this.store.get<InviteLinkDoc>(INVITE_LINKS, inviteId);
    return byHash && byHash.organizationId === organizationId ? byHash : undefined;
  }

  async create(actor: Actor, organizationId: string, body: CreateInviteLinkRequest) {
    await this.access.requireRole(organizationId, actor.userId, 'admin', 'create invite links');
    const grant = await this.grantOf(organizationId, body);
    const secret = newLinkSecret();
    await this.run(actor, { type: 'CreateInviteLink', data: { organizationId, linkId: linkIdOf(secret), grant } });
    const link = await this.store.get<InviteLinkDoc>(INVITE_LINKS, linkIdOf(secret));
    if (!link) throw new NotFound('Invite link not found');
    return this.present(link, secret, actor.userId);
  }

  private async grantOf(organizationId: string, body: CreateInviteLinkRequest): Promise<LinkGrant> {
    const given = (['role', 'level', 'space', 'collection'] as const).filter((key) => body[key] !== undefined);
    const form = given.sort().join(',');
    if (form === 'role') return { role: body.role ?? null };
    if (form !== 'level,space' && form !== 'collection,level')
      throw new ValidationFailed('give {role}, or {level, space}, or {level, collection}');
    const target: InviteTarget = body.space
      ? { kind: 'space', id: body.space }
      : { kind: 'collection', id: body.collection! };
    if ((await this.contentInvites().organizationOf(target)) !== organizationId)
      throw new ValidationFailed(`${target.kind} ${target.id} is not a ${target.kind} of this organization`);
    return { level: body.level!, target };
  }

  async list(actor: Actor, organizationId: string, query: ListQuery) {
    await this.access.requireRole(organizationId, actor.userId, 'admin', 'list invite links');
    await this.requireTurnedOn(organizationId);
    const page = await readPage<InviteLinkDoc, InviteLinkDoc>(
      this.store,
      this.cursors,
      {
        collection: INVITE_LINKS,
        scope: `invite-links:${organizationId}`,
        filter: { organizationId, kind: 'organization' },
        sort: [['createdAt', 1]],
        query,
      },
      (link) => link,
    );
    const items = [];
    for (const link of page.items) items.push(await this.present(link, link.id, actor.userId));
    return { ...page, items };
  }

  /** Anyone signed in who holds the secret reads the link; admins may also name it by its hash. */
  async get(actor: Actor, organizationId: string, inviteId: string) {
    let link = await this.bySecret(organizationId, inviteId);
    if (!link) {
      const membership = await this.access.membership(organizationId, actor.userId);
      if (membership?.role === 'admin') link = await this.byAdmin(organizationId, inviteId);
    }
    if (!link) throw new NotFound('Invite link not found');
    await this.requireTurnedOn(organizationId);
    return this.present(link, inviteId, actor.userId);
  }

  async update(actor: Actor, organizationId: string, inviteId: string, body: UpdateInviteLinkRequest) {
    await this.access.requireRole(organizationId, actor.userId, 'admin', 'change invite links');
    const hasRole = body.role !== undefined;
    const hasLevel = body.level !== undefined;
    if (hasRole === hasLevel) throw new ValidationFailed('give {role} or {level}');
    const link = await this.byAdmin(organizationId, inviteId);
    if (!link) {
      await this.requireTurnedOn(organizationId);
      throw new NotFound('Invite link not found');
    }
    const change = hasRole ? { role: body.role ?? null } : { level: body.level! };
    await this.run(actor, { type: 'ChangeInviteLink', data: { organizationId, linkId: link.id, change } });
    return this.get(actor, organizationId, inviteId);
  }

  async delete(actor: Actor, organizationId: string, inviteId: string) {
    await this.access.requireRole(organizationId, actor.userId, 'admin', 'delete invite links');
    const link = await this.byAdmin(organizationId, inviteId);
    await this.run(actor, {
      type: 'DeleteInviteLink',
      data: { organizationId, linkId: link?.id ?? linkIdOf(inviteId) },
    });
  }

  /** The holder joins with the link's role, or gets its level on the space or collection (never less than before). */
  async accept(actor: Actor, organizationId: string, inviteId: string) {
    const link = await this.bySecret(organizationId, inviteId);
    if (!link) throw new NotFound('Invite link not found');
    await this.requireTurnedOn(organizationId);
    const target = this.targetOf(link);
    if (target && (await this.contentInvites().organizationOf(target)) !== organizationId)
      throw new NotFound(`The ${target.kind} of this invite link no longer exists`);
    const user = await this.store.get<UserDoc>(USERS, actor.userId);
    if (!user || user.erased) throw new NotFound('User not found');
    await this.run(actor, {
      type: 'AcceptInviteLink',
      data: { organizationId, linkId: link.id, member: { userId: user.id } },
    });
    if (target) await this.contentInvites().grant(actor, organizationId, target, actor.userId, link.level!);
    return {};
  }

  private targetOf(link: InviteLinkDoc): InviteTarget | undefined {
    return link.kind === 'organization' ? undefined : { kind: link.kind, id: link.targetId! };
  }

  /** The spec's OrganizationInviteLink, with `redundant` worked out for the caller. */
  private async present(link: InviteLinkDoc, id: string, userId: string) {
    const target = this.targetOf(link);
    if (!target) {
      const role: RoleOrGuest = link.role ?? null;
      const membership = await this.access.membership(link.organizationId, userId);
      const redundant = membership !== undefined && roleRank(membership.role) >= roleRank(role);
      return { object: 'invite' as const, id, role, redundant };
    }
    const seen = await this.contentInvites().view(target, userId);
    if (!seen) throw new NotFound(`The ${target.kind} of this invite link no longer exists`);
    const level = link.level as Role;
    return {
      object: 'invite' as const,
      id,
      level,
      redundant: atLeast(seen.role, level),
      [target.kind]: seen.body,
    };
  }
}

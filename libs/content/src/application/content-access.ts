import { Inject, Injectable } from '@nestjs/common';
import { type Filter, Forbidden, NotFound, READ_STORE, type ReadStore } from '@app/kernel';
import {
  type DefaultLevel,
  ROLES,
  type Role,
  type RoleOrGuest,
  atLeast,
  effectiveRole,
  resolveDefaultLevel,
  strongest,
} from '@app/kernel/domain';
import { OrganizationAccess, type OrganizationViewer } from '@app/identity';
import {
  COLLECTIONS,
  type CollectionDoc,
  GRANTEE_GRANTS,
  type GranteeGrantsDoc,
  SPACES,
  type SpaceDoc,
  granteeGrantsDocId,
} from './read-models';

/** Roles given to the caller and to their teams, by space and by collection. */
export interface Grants {
  spaces: ReadonlyMap<string, Role>;
  collections: ReadonlyMap<string, Role>;
}

/** The caller as content sees them: their organization standing, and what was shared with them (if anything). */
export interface ContentViewer extends OrganizationViewer {
  grants?: Grants;
}

export type { OrganizationViewer };

/** Collections nest; walking up stops here even if the data were ever corrupted into a cycle. */
const MAX_DEPTH = 64;

/**
 * Who may see and do what on collections and spaces. The effective role on an object is the strongest of the
 * caller's organization role, the default level in force on the object (its own `defaultLevel`, else its
 * parents', else the organization's), and the roles granted to the caller or their teams on the object or on any
 * collection above it. An object the caller cannot read is answered as not found.
 */
@Injectable()
export class ContentAccess {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly organizations: OrganizationAccess,
  ) {}

  /** The caller as a member of the organization; NotFound when they are not one. */
  async viewer(organizationId: string, userId: string): Promise<ContentViewer> {
    const viewer = await this.viewerOrNull(organizationId, userId);
    if (!viewer) throw new NotFound(`Organization ${organizationId} not found`);
    return viewer;
  }

  /** The caller's standing in an organization, or undefined when they cannot see it. */
  async viewerOrNull(organizationId: string, userId: string): Promise<ContentViewer | undefined> {
    const viewer = await this.organizations.viewer(organizationId, userId);
    // An admin can do everything already: grants cannot add anything.
    if (!viewer || viewer.role === 'admin') return viewer;
    const ids = [
      granteeGrantsDocId(organizationId, 'user', userId),
      ...(viewer.teams ?? []).map((teamId) => granteeGrantsDocId(organizationId, 'team', teamId)),
    ];
    // One read by id per grantee: the read store caches documents and known absences, so the common case (nothing
    // shared with the caller or their teams) costs no query once warm.
    const found = await Promise.all(ids.map((id) => this.store.get<GranteeGrantsDoc>(GRANTEE_GRANTS, id)));
    const docs = found.filter((doc): doc is GranteeGrantsDoc => doc !== null);
    if (docs.length === 0) return viewer;
    const spaces = new Map<string, Role>();
    const collections = new Map<string, Role>();
    const merge = (into: Map<string, Role>, from: Record<string, Role>) => {
      for (const [id, role] of Object.entries(from)) into.set(id, strongest(into.get(id), role) as Role);
    };
    for (const doc of docs) {
      merge(spaces, doc.spaces);
      merge(collections, doc.collections);
    }
    return { ...viewer, grants: { spaces, collections } };
  }

  /** Whether the caller was given a role on this very object (so its role may differ from its siblings'). */
  grantedOn(viewer: ContentViewer, objectId: string): boolean {
    return (
      viewer.grants !== undefined && (viewer.grants.spaces.has(objectId) || viewer.grants.collections.has(objectId))
    );
  }

  /** The roles granted on the collections above an object (all the way up: a grant reaches everything inside). */
  private async grantedAbove(parent: string | null, granted: ReadonlyMap<string, Role>): Promise<RoleOrGuest> {
    let role: RoleOrGuest = null;
    let current = parent;
    for (let depth = 0; current !== null && depth < MAX_DEPTH; depth++) {
      role = strongest(role, granted.get(current));
      const collection = await this.store.get<CollectionDoc>(COLLECTIONS, current);
      if (!collection) break;
      current = collection.parent;
    }
    return role;
  }

  /** The default levels met from a collection up to (not including) the organization. */

  async chainFrom(collectionId: string | null): Promise<DefaultLevel[]> {
    const chain: DefaultLevel[] = [];
    let current = collectionId;
    for (let depth = 0; current !== null && depth < MAX_DEPTH; depth++) {
      const collection = await this.store.get<CollectionDoc>(COLLECTIONS, current);
      if (!collection) break;
      chain.push(collection.defaultLevel);
      if (collection.defaultLevel !== 'inherit') break; // the rest cannot matter
      current = collection.parent;
    }
    return chain;
  }

  /** The caller's role at the organization's top level (where top-level collections and spaces are created). */
  organizationRole(viewer: OrganizationViewer): RoleOrGuest {
    return effectiveRole(viewer.role, [viewer.defaultRole]);
  }

  async roleOn(
    viewer: ContentViewer,
    object: { id?: string; defaultLevel: DefaultLevel; parent: string | null },
  ): Promise<RoleOrGuest> {
    if (viewer.role === 'admin') return 'admin';
    const byLevels =
      object.defaultLevel !== 'inherit'
        ? effectiveRole(viewer.role, [object.defaultLevel])
        : effectiveRole(viewer.role, [...(await this.chainFrom(object.parent)), viewer.defaultRole]);
    const grants = viewer.grants;
    if (!grants || object.id === undefined) return byLevels;
    const own = strongest(byLevels, grants.spaces.get(object.id), grants.collections.get(object.id));
    return grants.collections.size === 0
      ? own
      : strongest(own, await this.grantedAbove(object.parent, grants.collections));
  }

  /** A collection the caller may act on with at least `required`; NotFound when they cannot see it. */
  async requireCollection(collectionId: string, userId: string, required: Role, action: string) {
    const collection = await this.store.get<CollectionDoc>(COLLECTIONS, collectionId);
    if (!collection) throw new NotFound(`Collection ${collectionId} not found`);
    const viewer = await this.viewerOrNull(collection.organizationId, userId);
    if (!viewer) throw new NotFound(`Collection ${collectionId} not found`);
    const role = await this.roleOn(viewer, collection);
    if (!atLeast(role, 'read')) throw new NotFound(`Collection ${collectionId} not found`);
    if (!atLeast(role, required)) throw new Forbidden(`You need the ${required} role on this collection to ${action}`);
    return { collection, viewer, role };
  }

  /**
   * A space the caller may act on with at least `required`. A deleted space is visible only to those who may
   * administer it, and only where `deleted` allows it.
   */
  async requireSpace(
    spaceId: string,
    userId: string,
    required: Role,
    action: string,
    deleted: 'visible' | 'hidden' = 'hidden',
  ) {
    const space = await this.store.get<SpaceDoc>(SPACES, spaceId);
    if (!space) throw new NotFound(`Space ${spaceId} not found`);
    const viewer = await this.viewerOrNull(space.organizationId, userId);
    if (!viewer) throw new NotFound(`Space ${spaceId} not found`);
    const role = await this.roleOn(viewer, space);
    if (!atLeast(role, 'read')) throw new NotFound(`Space ${spaceId} not found`);
    if (space.deleted && (deleted === 'hidden' || !atLeast(role, 'admin')))
      throw new NotFound(`Space ${spaceId} not found`);
    if (!atLeast(role, required)) throw new Forbidden(`You need the ${required} role on this space to ${action}`);
    return { space, viewer, role };
  }

  /**
   * Checks that the caller may create content at `parent` (a collection, or the top level of the organization)
   * and that the parent belongs to that organization.
   */
  async requireCreateIn(organizationId: string, parent: string | null, userId: string): Promise<ContentViewer> {
    const viewer = await this.viewer(organizationId, userId);
    if (parent === null) {
      if (!atLeast(this.organizationRole(viewer), 'create')) {
        throw new Forbidden('You need the create role in this organization to create content');
      }
      return viewer;
    }
    const collection = await this.store.get<CollectionDoc>(COLLECTIONS, parent);
    if (!collection || collection.organizationId !== organizationId) {
      throw new NotFound(`Collection ${parent} not found in organization ${organizationId}`);
    }
    const role = await this.roleOn(viewer, collection);
    if (!atLeast(role, 'read')) throw new NotFound(`Collection ${parent} not found in organization ${organizationId}`);
    if (!atLeast(role, 'create'))
      throw new Forbidden('You need the create role on the collection to create content in it');
    return viewer;
  }

  /**
   * What a list of the organization's collections or spaces may show the caller, as a read-store filter
   * (undefined: everything). A member with a role sees everything; a guest sees what default levels grant, and
   * what was shared with them or their teams (a shared collection with everything inside it).
   */
  async visibleFilter(viewer: ContentViewer): Promise<Filter | undefined> {
    if (viewer.role !== null) return undefined;
    const collections = await this.store.find<CollectionDoc>(COLLECTIONS, {
      filter: { organizationId: viewer.organizationId },
      limit: 100_000,
    });
    const byId = new Map(collections.items.map((c) => [c.id, c]));
    const resolved = new Map<string, RoleOrGuest>();
    const resolve = (collection: CollectionDoc, depth = 0): RoleOrGuest => {
      const known = resolved.get(collection.id);
      if (known !== undefined) return known;
      let role: RoleOrGuest;
      if (collection.defaultLevel !== 'inherit') role = collection.defaultLevel;
      else {
        const parent = collection.parent === null ? undefined : byId.get(collection.parent);
        role = parent && depth < MAX_DEPTH ? resolve(parent, depth + 1) : resolveDefaultLevel([viewer.defaultRole]);
      }
      resolved.set(collection.id, role);
      return role;
    };
    const granting = collections.items.filter((c) => resolve(c) !== null).map((c) => c.id);
    const alternatives: Filter[] = [{ defaultLevel: { $in: [...ROLES] } }];
    if (granting.length > 0) alternatives.push({ defaultLevel: 'inherit', parent: { $in: granting } });
    if (viewer.defaultRole !== null) alternatives.push({ defaultLevel: 'inherit', parent: null });
    if (viewer.grants) {
      // Collections reached by a grant: those shared, and every collection inside them.
      const reached = new Map<string, boolean>();
      const isReached = (collection: CollectionDoc, depth = 0): boolean => {
        const known = reached.get(collection.id);
        if (known !== undefined) return known;
        const parent = collection.parent === null ? undefined : byId.get(collection.parent);
        const result =
          viewer.grants!.collections.has(collection.id) ||
          (parent !== undefined && depth < MAX_DEPTH && isReached(parent, depth + 1));
        reached.set(collection.id, result);
        return result;
      };
      const reach = collections.items.filter((collection) => isReached(collection)).map((collection) => collection.id);
      const shared = [...reach, ...viewer.grants.spaces.keys()];
      if (shared.length > 0) alternatives.push({ id: { $in: shared } });
      if (reach.length > 0) alternatives.push({ parent: { $in: reach } });
    }
    return { $or: alternatives };
  }
}

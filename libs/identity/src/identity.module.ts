import { Inject, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import {
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  KEY_STORE,
  type KeyStore,
  RuntimeRegistry,
  handleCommand,
  metadataFor,
} from '@app/kernel';
import { type AddMember, organizationStream } from './domain';
import { organizations } from './application/deciders';
import { EraseUserController } from './application/erase-user/erase-user.http';
import { People } from './application/personal-data/people';
import { PersonalData } from './application/personal-data/sealing';
import { identityProjections } from './projections';
import { pendingInvitesProcess } from './processes/pending-invites.process';
import { OrganizationAccess } from './public/organization-access';
import { UserDirectory } from './public/user-directory';
import { TeamDirectory } from './public/team-directory';
import { CreateApiTokenHandler } from './application/create-api-token/create-api-token.command';
import { CreateApiTokenController } from './application/create-api-token/create-api-token.http';
import { CreateOrganizationHandler } from './application/create-organization/create-organization.command';
import { CreateOrganizationController } from './application/create-organization/create-organization.http';
import { GetCurrentUserController } from './application/get-current-user/get-current-user.http';
import { GetUserHandler } from './application/get-current-user/get-current-user.query';
import { GetMemberController } from './application/get-member/get-member.http';
import { GetMemberHandler } from './application/get-member/get-member.query';
import { GetOrganizationController } from './application/get-organization/get-organization.http';
import { GetOrganizationHandler } from './application/get-organization/get-organization.query';
import { InviteMembersHandler } from './application/invite-members/invite-members.command';
import { InviteMembersController } from './application/invite-members/invite-members.http';
import { ListApiTokensController } from './application/list-api-tokens/list-api-tokens.http';
import { ListApiTokensHandler } from './application/list-api-tokens/list-api-tokens.query';
import { ListMembersController } from './application/list-members/list-members.http';
import { ListMembersHandler } from './application/list-members/list-members.query';
import { ListOrganizationsController } from './application/list-organizations/list-organizations.http';
import { ListOrganizationsHandler } from './application/list-organizations/list-organizations.query';
import { RemoveMemberHandler } from './application/remove-member/remove-member.command';
import { RemoveMemberController } from './application/remove-member/remove-member.http';
import { RevokeApiTokenHandler } from './application/revoke-api-token/revoke-api-token.command';
import { RevokeApiTokenController } from './application/revoke-api-token/revoke-api-token.http';
import { TokenAuthGuard } from './application/token-auth.guard';
import { TokenAuthenticator } from './application/token-authenticator';
import { TeamChanges } from './application/teams/team-changes';
import { TeamViews } from './application/teams/team-views';
import { TeamsController } from './application/teams/teams.http';
import { InviteLinks } from './application/invite-links/invite-links';
import { InviteLinksController } from './application/invite-links/invite-links.http';
import { LookupsController } from './application/lookups/lookups.http';
import { SamlProviders } from './application/saml-providers/saml-providers';
import { SamlProvidersController } from './application/saml-providers/saml-providers.http';
import { SamlLogin } from './application/saml-login/saml-login';
import { SamlLoginController } from './application/saml-login/saml-login.http';
import { UpdateMemberHandler } from './application/update-member/update-member.command';
import { UpdateMemberController } from './application/update-member/update-member.http';
import { UpdateOrganizationHandler } from './application/update-organization/update-organization.command';
import { UpdateOrganizationController } from './application/update-organization/update-organization.http';
import { identityPublicEvents } from './public/public-events';
import { OrganizationHistoryController } from './application/organization-history/organization-history.http';
import { OrganizationHistoryHandler } from './application/organization-history/organization-history.query';

/** Users, API tokens, organizations, their members and teams; the authentication guard and the organization access policy. */
@Module({
  controllers: [
    GetCurrentUserController,
    CreateApiTokenController,
    ListApiTokensController,
    RevokeApiTokenController,
    CreateOrganizationController,
    ListOrganizationsController,
    GetOrganizationController,
    OrganizationHistoryController,
    UpdateOrganizationController,
    ListMembersController,
    GetMemberController,
    UpdateMemberController,
    RemoveMemberController,
    InviteMembersController,
    TeamsController,
    InviteLinksController,
    LookupsController,
    SamlProvidersController,
    SamlLoginController,
    EraseUserController,
  ],
  providers: [
    { provide: PersonalData, useFactory: (keys: KeyStore) => new PersonalData(keys), inject: [KEY_STORE] },
    People,
    TokenAuthenticator,
    { provide: APP_GUARD, useClass: TokenAuthGuard },
    OrganizationAccess,
    UserDirectory,
    TeamDirectory,
    GetUserHandler,
    CreateApiTokenHandler,
    ListApiTokensHandler,
    RevokeApiTokenHandler,
    CreateOrganizationHandler,
    ListOrganizationsHandler,
    GetOrganizationHandler,
    OrganizationHistoryHandler,
    UpdateOrganizationHandler,
    ListMembersHandler,
    GetMemberHandler,
    UpdateMemberHandler,
    RemoveMemberHandler,
    InviteMembersHandler,
    TeamViews,
    TeamChanges,
    InviteLinks,
    SamlProviders,
    SamlLogin,
  ],
  exports: [OrganizationAccess, UserDirectory, TeamDirectory, TokenAuthenticator],
})
export class IdentityModule {
  constructor(registry: RuntimeRegistry, @Inject(EVENT_STORE) store: EventStore, @Inject(CLOCK) clock: Clock) {
    registry.addProjections(...identityProjections);
    registry.addProcesses(pendingInvitesProcess);
    registry.addPublicEventMappers(identityPublicEvents);
    // The pending-invites process adds members; its command ids make a redelivered event harmless.
    registry.handleProcessCommand('AddMember', async (command) => {
      const { organizationId, userId, role, invite } = command.data as AddMember['data'];
      await handleCommand(store, organizations, organizationStream(organizationId), {
        type: 'AddMember',
        data: { organizationId, userId, role, ...(invite !== undefined ? { invite } : {}) },
        metadata: metadataFor(clock, undefined, {
          commandId: command.commandId,
          causationId: command.causationId,
          correlationId: command.correlationId,
        }),
      });
    });
  }
}

import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { type Actor, CurrentActor, ListQuery, OptionalField, QueryFlag } from '@app/kernel';
import { SiteEndpoints } from '../site-endpoints';

export class ListSiteSpacesParams extends ListQuery {
  @ApiPropertyOptional({ description: 'Secret key of a share link: lets a caller without a role read a shared site' })
  @OptionalField()
  @IsString()
  @MaxLength(256)
  shareKey?: string;

  @QueryFlag(undefined, 'true: only default site spaces; false: only the others; left out: all')
  default?: boolean;
}

@ApiTags('sites')
@Controller()
export class ListSiteSpacesController {
  constructor(private readonly endpoints: SiteEndpoints) {}

  @Get('orgs/:organizationId/sites/:siteId/site-spaces')
  @ApiOperation({ operationId: 'listSiteSpaces', summary: "A site's site spaces, in order (read role or share key)" })
  list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() params: ListSiteSpacesParams,
  ) {
    const { shareKey, default: isDefault, ...list } = params;
    return this.endpoints.read(actor, organizationId, siteId, {
      kind: 'site-spaces',
      list,
      ...(shareKey !== undefined ? { shareKey } : {}),
      ...(isDefault !== undefined ? { default: isDefault } : {}),
    });
  }
}

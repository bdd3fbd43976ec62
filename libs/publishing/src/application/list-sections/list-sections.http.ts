import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { type Actor, CurrentActor, ListQuery, OptionalField } from '@app/kernel';
import { SiteEndpoints } from '../site-endpoints';

export class ListSectionsParams extends ListQuery {
  @ApiPropertyOptional({ description: 'Secret key of a share link: lets a caller without a role read a shared site' })
  @OptionalField()
  @IsString()
  @MaxLength(256)
  shareKey?: string;
}

@ApiTags('sites')
@Controller()
export class ListSectionsController {
  constructor(private readonly endpoints: SiteEndpoints) {}

  @Get('orgs/:organizationId/sites/:siteId/sections')
  @ApiOperation({ operationId: 'listSiteSections', summary: "A site's sections in the order visitors see them" })
  list(
    @CurrentActor() actor: Actor,
    @Param('organizationId') organizationId: string,
    @Param('siteId') siteId: string,
    @Query() params: ListSectionsParams,
  ) {
    const { shareKey, ...list } = params;
    return this.endpoints.read(actor, organizationId, siteId, {
      kind: 'sections',
      list,
      ...(shareKey !== undefined ? { shareKey } : {}),
    });
  }
}

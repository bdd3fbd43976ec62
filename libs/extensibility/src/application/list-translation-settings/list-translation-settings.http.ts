import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ListQuery } from '@app/kernel';
import { ListTranslationSettingsQuery } from './list-translation-settings.query';

@ApiTags('translations')
@Controller()
export class ListTranslationSettingsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('orgs/:organizationId/translations')
  @ApiOperation({ operationId: 'listTranslations', summary: "List an organization's translation settings (member)" })
  list(@CurrentActor() actor: Actor, @Param('organizationId') organizationId: string, @Query() params: ListQuery) {
    return this.queries.execute(new ListTranslationSettingsQuery(organizationId, actor.userId, params));
  }
}

import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor } from '@app/kernel';
import { ExportPdfParams, ExportPdfQuery } from './export-pdf.query';

@ApiTags('change-requests')
@Controller()
export class ExportPdfController {
  constructor(private readonly queries: QueryBus) {}

  @Get('spaces/:spaceId/change-requests/:changeRequestId/pdf')
  @ApiOperation({
    operationId: 'getChangeRequestPDF',
    summary: "A PDF of the change request's pages, at an address that works for one hour",
  })
  pdf(
    @CurrentActor() actor: Actor,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Query() params: ExportPdfParams,
  ) {
    return this.queries.execute(new ExportPdfQuery(spaceId, changeRequestId, actor.userId, params));
  }
}

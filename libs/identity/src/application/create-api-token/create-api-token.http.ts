import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { API_TOKEN_PROJECTION, TOKEN_LOOKUP_PROJECTION } from '../token-auth.guard';
import { CreateApiTokenCommand } from './create-api-token.command';
import { CreateApiTokenRequest } from './create-api-token.request';

@ApiTags('users')
@Controller()
export class CreateApiTokenController {
  constructor(
    private readonly commands: CommandBus,
    private readonly runtime: Runtime,
  ) {}

  @Post('user/tokens')
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an API token for the caller (the token is shown only in this response)' })
  async create(@CurrentActor() actor: Actor, @Body() body: CreateApiTokenRequest) {
    const label = body.label ?? 'API token';
    const created = await this.commands.execute(new CreateApiTokenCommand(actor.userId, label, actor.requestId));
    await this.runtime.settle(created.position, [API_TOKEN_PROJECTION, TOKEN_LOOKUP_PROJECTION]);
    return { object: 'api-token', id: created.tokenId, label, token: created.token };
  }
}

import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Runtime } from '@app/kernel';
import { API_TOKEN_PROJECTION, TOKEN_LOOKUP_PROJECTION } from '../token-auth.guard';
import { RevokeApiTokenCommand } from './revoke-api-token.command';

@ApiTags('users')
@Controller()
export class RevokeApiTokenController {
  constructor(
    private readonly commands: CommandBus,
    private readonly runtime: Runtime,
  ) {}

  @Delete('user/tokens/:tokenId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke one of your API tokens; it stops working on the next request' })
  async revoke(@CurrentActor() actor: Actor, @Param('tokenId') tokenId: string): Promise<void> {
    const result = await this.commands.execute(new RevokeApiTokenCommand(actor.userId, tokenId, actor.requestId));
    await this.runtime.settle(result.position, [API_TOKEN_PROJECTION, TOKEN_LOOKUP_PROJECTION]);
  }
}

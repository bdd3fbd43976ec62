import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { BLOB_KEY, BLOB_STORE, type BlobStore, NotFound, Public, READ_STORE, type ReadStore } from '@app/kernel';
import { INTEGRATIONS, type IntegrationDoc } from '../integration-read-models';

/**
 * The icon and preview images of a published integration, at the addresses its `urls.icon` and `previewImages`
 * give, without a token (they are shown in `<img>` tags). Only images of the current version are served, with the
 * type their bytes showed at publication. An SVG may hold script: it is sent with a sandboxing
 * Content-Security-Policy, so a browser that opens it directly runs nothing and loads nothing.
 */
@ApiTags('integrations')
@Controller()
export class GetIntegrationAssetController {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
  ) {}

  @Public()
  @Get('integrations/:integrationName/assets/:key')
  @ApiOperation({
    operationId: 'getIntegrationAsset',
    summary: "An integration's icon or preview image (no token needed)",
  })
  async asset(
    @Param('integrationName') name: string,
    @Param('key') key: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const missing = new NotFound('Image not found');
    if (!BLOB_KEY.test(key)) throw missing;
    const doc = await this.store.get<IntegrationDoc>(INTEGRATIONS, name);
    const image = doc && [...(doc.icon ? [doc.icon] : []), ...doc.previewImages].find((one) => one.key === key);
    if (!image) throw missing;
    const bytes = await this.blobs.get(key);
    if (!bytes) throw missing;
    void reply
      .header('content-type', image.contentType)
      .header('cache-control', 'public, max-age=86400')
      .header('x-content-type-options', 'nosniff');
    if (image.contentType === 'image/svg+xml') {
      void reply.header('content-security-policy', "sandbox; default-src 'none'; style-src 'unsafe-inline'");
    }
    return bytes;
  }
}

import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import {
  BLOB_STORE,
  type BlobStore,
  CLOCK,
  type Clock,
  NotFound,
  Public,
  URL_SIGNER,
  type UrlSigner,
} from '@app/kernel';

/**
 * Downloads of files kept by the service (uploaded into change requests, generated PDFs). The address is signed
 * when it is handed to a reader, so it works without a token (in a browser, an `<img>`); an unsigned, altered or
 * expired address is answered as not found. The bytes are always sent as an attachment that is not sniffed.
 */
@ApiTags('files')
@Controller()
export class DownloadBlobController {
  constructor(
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(URL_SIGNER) private readonly signer: UrlSigner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Public()
  @Get('blobs/:key')
  @ApiOperation({
    operationId: 'downloadBlob',
    summary: 'Download a stored file or PDF at the signed address a read handed out (no token needed)',
  })
  async download(
    @Param('key') key: string,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    if (!this.signer.verify(`/blobs/${key}`, query, this.clock.now().getTime())) {
      throw new NotFound('File not found');
    }
    const bytes = await this.blobs.get(key);
    if (!bytes) throw new NotFound('File not found');
    const type = typeof query.type === 'string' && /^[\w.+-]+\/[\w.+-]+$/.test(query.type) ? query.type : undefined;
    void reply
      .header('content-type', type ?? 'application/octet-stream')
      .header('cache-control', 'private, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', 'attachment');
    return bytes;
  }
}

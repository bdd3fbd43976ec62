import { Inject, Injectable } from '@nestjs/common';
import {
  BLOB_STORE,
  type BlobStore,
  CLOCK,
  type Clock,
  EVENT_STORE,
  type EventStore,
  FETCHER,
  FetchRefused,
  type Fetcher,
  type ProcessCommand,
  handleCommand,
  metadataFor,
} from '@app/kernel';
import {
  type OpenAPIProcessErrorCode,
  type OpenAPISpecCommand,
  type OpenAPISpecSource,
  type ProcessedDocument,
  openApiSpecDecider,
  openApiSpecStream,
} from '../../domain';
import { decodeText } from './openapi-document';
import { OpenApiValidator } from './openapi-validator';

/** What the processing process sends for each new source (see ../../processes/openapi-processing.process.ts). */
export interface ProcessOpenAPISpecSource extends ProcessCommand {
  type: 'ProcessOpenAPISpecSource';
  data: { organizationId: string; slug: string; specId: string; sourceId: string };
}

type Outcome =
  { ok: true; document: ProcessedDocument } | { ok: false; errorCode: OpenAPIProcessErrorCode; errors: string[] };

/**
 * Processes one source of an OpenAPI spec: marks it `progress`, fetches it (URL sources, through the shared
 * SSRF-safe FETCHER) or reads it from the blob store (text sources), parses and validates it, keeps the bytes in the
 * blob store and records a version, or records why it failed. Each step is a command on the spec's stream with an
 * id derived from the process's command id, so running the same command again (after a crash) appends nothing
 * twice; a source found `progress` is simply processed again, and a result for a source that is no longer the
 * newest is dropped by the decider.
 */
@Injectable()
export class OpenAPISpecProcessor {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(FETCHER) private readonly fetcher: Fetcher,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    private readonly validator: OpenApiValidator,
  ) {}

  async process(
    command: ProcessOpenAPISpecSource & { commandId: string; causationId: string; correlationId?: string },
  ): Promise<void> {
    const { organizationId, slug, sourceId } = command.data;
    const stream = openApiSpecStream(organizationId, slug);
    const send = (step: string, change: Omit<OpenAPISpecCommand, 'metadata'>) =>
      handleCommand(this.events, openApiSpecDecider, stream, {
        ...change,
        metadata: metadataFor(this.clock, undefined, {
          commandId: `${command.commandId}:${step}`,
          causationId: command.causationId,
          ...(command.correlationId ? { correlationId: command.correlationId } : {}),
        }),
      } as OpenAPISpecCommand);

    const started = await send('start', {
      type: 'StartOpenAPISpecProcessing',
      data: { organizationId, slug, sourceId },
    });
    const state = started.state;
    // superseded, deleted, or already done: nothing to do
    if (state.status !== 'active' || state.sourceId !== sourceId || state.processing === 'complete') return;

    const outcome = await this.run(state.source);
    if (outcome.ok) {
      await send('result', {
        type: 'RecordOpenAPISpecVersion',
        data: { organizationId, slug, sourceId, document: outcome.document },
      });
    } else {
      await send('result', {
        type: 'RecordOpenAPISpecFailure',
        data: { organizationId, slug, sourceId, errorCode: outcome.errorCode, errors: outcome.errors },
      });
    }
  }

  private async run(source: OpenAPISpecSource): Promise<Outcome> {
    let bytes: Buffer;
    let charset: string | undefined;
    if (source.kind === 'url') {
      try {
        const fetched = await this.fetcher.fetch(source.url);
        bytes = fetched.body;
        charset = fetched.charset;
      } catch (error) {
        if (!(error instanceof FetchRefused)) {
          return { ok: false, errorCode: 'FETCH_ERROR', errors: [`the source could not be fetched: ${String(error)}`] };
        }
        return {
          ok: false,
          errorCode: error.reason === 'timeout' ? 'FETCH_TIMEOUT' : 'FETCH_ERROR',
          errors: [error.message],
        };
      }
    } else {
      const stored = await this.blobs.get(source.blob);
      if (!stored) throw new Error(`the text of an OpenAPI source is missing from the blob store (${source.blob})`);
      bytes = stored;
    }
    const parsed = await this.validator.check(decodeText(bytes, charset));
    if (!parsed.ok) return { ok: false, errorCode: 'PARSE_ERROR', errors: parsed.errors };
    // a URL source is kept as fetched; a text source is already in the store under the same key
    const blob = source.kind === 'url' ? await this.blobs.put(bytes) : { key: source.blob, size: bytes.length };
    return {
      ok: true,
      document: {
        blob: blob.key,
        size: blob.size,
        format: parsed.format,
        specification: parsed.specification,
        specVersion: parsed.specVersion,
        ...(parsed.title !== undefined ? { title: parsed.title } : {}),
      },
    };
  }
}

import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type TurndownService from 'turndown';
import { parseMarkdown } from '@app/documents';
import { FETCHER, FetchRefused, type FetchedDocument, type Fetcher, ValidationFailed } from '@app/kernel';
import { EditContentCommand, type EditContentResult } from '../edit-content/edit-content.command';
import { ReviewAccess } from '../review-access';
import { type ImportContentRequest, type ImportSource } from './import-content.request';

/** Sources that are one document at one address; the others (archives, office files, other services) are not. */
const IMPORTABLE: ReadonlySet<ImportSource> = new Set(['markdown', 'html', 'website', 'github-wiki']);
const MARKDOWN_TYPES = new Set(['text/markdown', 'text/x-markdown', 'text/plain']);
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

export class ImportContentCommand extends Command<EditContentResult> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string,
    readonly userId: string,
    readonly request: ImportContentRequest,
    readonly correlationId: string | undefined,
  ) {
    super();
  }
}

/** Text of the document in the charset its server named (UTF-8 when none, or an unknown one). */
function decode(document: FetchedDocument): string {
  try {
    return new TextDecoder(document.charset ?? 'utf-8').decode(document.body);
  } catch {
    return new TextDecoder('utf-8').decode(document.body);
  }
}

/**
 * HTML as markdown, by turndown; what a reader does not see (scripts, styles, navigation) is left out. Turndown and
 * its DOM are loaded by the first import of a web page, not at start.
 */
async function htmlToMarkdown(html: string): Promise<string> {
  const { default: Turndown }: { default: typeof TurndownService } = await import('turndown');
  const turndown = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  turndown.remove(['head', 'title', 'script', 'style', 'noscript', 'template', 'iframe', 'nav', 'footer', 'form']);
  return turndown.turndown(html);
}

/** The page title: the document's first heading, else the last part of its address. */
function titleOf(markdown: string, url: string): string {
  const heading = parseMarkdown(markdown).children.find((node) => node.type === 'heading');
  const words = (node: unknown): string => {
    const value = node as { value?: string; children?: unknown[] };
    return typeof value.value === 'string' ? value.value : (value.children ?? []).map(words).join('');
  };
  const fromHeading = heading ? words(heading).trim() : '';
  if (fromHeading) return [...fromHeading].slice(0, 100).join('');
  const { pathname, hostname } = new URL(url);
  const last = decodeURIComponent(pathname.split('/').filter(Boolean).pop() ?? '').replace(
    /\.(md|markdown|html?)$/i,
    '',
  );
  return [...(last || hostname)].slice(0, 100).join('');
}

/**
 * Imports one markdown or HTML document from an address into a change request, as a new page at its top level, in
 * one new revision (the edit role, as for any content batch). The fetch goes through the SSRF-safe FETCHER; any
 * refusal is a 400 naming its cause, and nothing is written.
 */
@CommandHandler(ImportContentCommand)
export class ImportContentHandler implements ICommandHandler<ImportContentCommand> {
  constructor(
    @Inject(FETCHER) private readonly fetcher: Fetcher,
    private readonly access: ReviewAccess,
    private readonly commands: CommandBus,
  ) {}

  async execute({ spaceId, changeRequestId, userId, request, correlationId }: ImportContentCommand) {
    const { request: changeRequest } = await this.access.requireChangeRequest(
      spaceId,
      changeRequestId,
      userId,
      'edit',
      'import content into it',
    );
    if (!IMPORTABLE.has(request.source)) {
      throw new ValidationFailed(
        `source: ${request.source} cannot be imported here; import a markdown or HTML document (markdown, html, website, github-wiki)`,
      );
    }
    let document: FetchedDocument;
    try {
      document = await this.fetcher.fetch(request.url);
    } catch (error) {
      if (error instanceof FetchRefused) throw new ValidationFailed(`url: ${error.message}`);
      throw error;
    }
    const type = document.contentType;
    const asHtml = HTML_TYPES.has(type) || (type === '' && (request.source === 'html' || request.source === 'website'));
    if (!asHtml && !MARKDOWN_TYPES.has(type) && type !== '') {
      throw new ValidationFailed(`url: the document is ${type}, not markdown or HTML`);
    }
    const text = decode(document);
    if (text.includes('\u0000')) throw new ValidationFailed('url: the document is not text');
    const markdown = (asHtml ? await htmlToMarkdown(text) : text).trim();
    if (markdown.length === 0) throw new ValidationFailed('url: the document has no content to import');
    return this.commands.execute(
      new EditContentCommand(
        spaceId,
        changeRequest.id,
        userId,
        [{ operation: 'insert_page', title: titleOf(markdown, document.url), document: { markdown } }],
        correlationId,
      ),
    );
  }
}

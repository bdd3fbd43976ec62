import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength } from 'class-validator';

/** The spec's sources; the service imports single markdown and HTML documents (see IMPORTABLE). */
export const IMPORT_SOURCES = [
  'website',
  'docx',
  'markdown',
  'html',
  'zip',
  'confluence',
  'github-wiki',
  'notion',
  'google-docs',
] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

export class ImportContentRequest {
  @ApiProperty({ format: 'uri', maxLength: 2048, description: 'An http(s) address of a markdown or HTML document' })
  @IsString()
  @MaxLength(2048)
  url!: string;

  @ApiProperty({
    enum: IMPORT_SOURCES,
    description: 'What the address holds; markdown, html, website and github-wiki are imported, the others refused',
  })
  @IsIn(IMPORT_SOURCES)
  source!: ImportSource;
}

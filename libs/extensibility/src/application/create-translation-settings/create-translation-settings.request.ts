import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsString } from 'class-validator';
import { OptionalField } from '@app/kernel';
import { TRANSLATION_LANGUAGES, TRANSLATION_TITLE, type TranslationLanguage } from '../../domain';

/** The body of POST and PUT: the seed's `title`, and `languages` as an extension (see the README). */
export class TranslationSettingsRequest {
  @ApiProperty({ minLength: TRANSLATION_TITLE.min, maxLength: TRANSLATION_TITLE.max })
  @IsString()
  title!: string;

  @ApiPropertyOptional({
    type: [String],
    enum: TRANSLATION_LANGUAGES,
    description:
      'Beyond the seed: the languages, from the spec TranslationLanguage list. Empty when never set; a PUT without it keeps them.',
  })
  @OptionalField()
  @IsArray()
  @IsString({ each: true })
  languages?: TranslationLanguage[];
}

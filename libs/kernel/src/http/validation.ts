import { type ArgumentMetadata, BadRequestException, ValidationPipe, type ValidationError } from '@nestjs/common';

/** Flattens class-validator errors into one message that names each offending field by its path. */
export function validationMessage(errors: readonly ValidationError[], parent = ''): string {
  const parts: string[] = [];
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints) {
      for (const [kind, text] of Object.entries(error.constraints)) {
        parts.push(kind === 'whitelistValidation' ? `${path}: unknown field` : `${path}: ${text.replace(/^\S+ /, '')}`);
      }
    }
    if (error.children?.length) parts.push(validationMessage(error.children, path));
  }
  return parts.filter(Boolean).join('; ');
}

/**
 * The global validation pipe: unknown fields and wrong types are a 400 that names the field. Bodies are never
 * mass-assigned: only decorated DTO properties survive.
 */
export function createValidationPipe(): ValidationPipe {
  return new BodyValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new BadRequestException(`Invalid request: ${validationMessage(errors)}`),
  });
}

/** A request without a body is validated as an empty one (the spec makes several bodies optional). */
class BodyValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    return super.transform(metadata.type === 'body' && value == null ? {} : value, metadata);
  }
}
